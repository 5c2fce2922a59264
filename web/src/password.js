// Changing one's own password: the current one, then the new one, in a form a button opens
// (on My account). The service ends every other session of the account and gives this one a
// new cookie.
import { showNotice } from "./announce.js";
import { disclose } from "./disclosure.js";
import { sendForm } from "./fields.js";
import { t } from "./i18n.js";
import { reconnect } from "./socket.js";

export class PasswordForm {
  /** `form` has the fields `current` and `password`, a submit button and a `data-cancel` one;
   *  `button` opens and closes it. */
  constructor(form, button) {
    this.form = form;
    this.button = button;
    this.open = disclose(button, form, () => form.elements.current.focus());
    form.addEventListener("submit", (event) => this.submit(event));
    form.querySelector("[data-cancel]").addEventListener("click", () => {
      this.close();
      button.focus();
    });
  }

  /** Closed and empty: the next person at this computer finds nothing typed. */
  close() {
    this.open(false);
    this.form.reset();
  }

  async submit(event) {
    event.preventDefault();
    const f = this.form.elements;
    if (!(await sendForm(this.form, "POST", "/api/me/password", { current: f.current.value, password: f.password.value }))) return;
    this.close();
    this.button.focus();
    // The live connection's handshake carried the old session: it must carry the new one.
    reconnect();
    showNotice(t("account.passwordChanged"));
  }
}
