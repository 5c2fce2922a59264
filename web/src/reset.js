// Set a new password (#/reset/TOKEN), from the link mailed by Forgot password: the new
// password twice (the two are compared here), then the login panel to log in with it. The
// service ends every session of the account.
import { markInvalid, sendForm } from "./fields.js";
import { t } from "./i18n.js";
import { showOnly, showOutcome } from "./panels.js";

export class Reset {
  /** `login` is the login panel, opened once the password is set. */
  constructor(state, login) {
    this.state = state;
    this.login = login;
    this.form = document.getElementById("reset-form");
    this.noLink = document.getElementById("reset-no-link");
    this.done = document.getElementById("reset-done");
    this.panels = [this.form, this.noLink, this.done];
    this.form.addEventListener("submit", (event) => this.submit(event));
  }

  show(token) {
    if (token) {
      this.token = token;
      this.form.reset();
      showOnly(this.form, this.panels);
    } else if (this.done.hidden) {
      // No link (or it was used here already, and the page was left since).
      showOnly(this.noLink, this.panels);
    }
  }

  async submit(event) {
    event.preventDefault();
    const { password, repeat } = this.form.elements;
    if (password.value !== repeat.value) {
      markInvalid(repeat, t("reset.differ"));
      repeat.focus();
      return;
    }
    if (!(await sendForm(this.form, "POST", "/api/password-reset/confirm", { token: this.token, password: password.value }))) return;
    this.form.reset();
    this.token = null;
    // The link is used up: it leaves the address bar.
    history.replaceState(null, "", "#/reset");
    // The login panel takes the focus.
    showOutcome(this.done, this.panels, { focus: false });
    this.login.open();
  }
}
