// Create account (#/signup): user id, name, email and password. The service mails a link to
// the address; the account can log in once it is opened (#/verify/TOKEN, verify.js).
import { sendForm } from "./fields.js";
import { language, t } from "./i18n.js";
import { showOnly, showOutcome } from "./panels.js";

export class Signup {
  constructor(state) {
    this.state = state;
    this.form = document.getElementById("signup-form");
    this.closed = document.getElementById("signup-closed");
    this.done = document.getElementById("signup-done");
    this.form.addEventListener("submit", (event) => this.submit(event));
    const domains = state.access.signupDomains;
    const hint = document.getElementById("signup-domains");
    hint.hidden = domains.length === 0;
    hint.textContent = t("signup.domains", { domains: new Intl.ListFormat(language(), { type: "disjunction" }).format(domains) });
  }

  /** A fresh form each time the screen opens (or word that sign-up is closed). */
  show() {
    this.form.reset();
    showOnly(this.state.access.signup ? this.form : this.closed, [this.form, this.closed, this.done]);
  }

  async submit(event) {
    event.preventDefault();
    const f = this.form.elements;
    const email = f.email.value.trim();
    const body = { id: f.id.value.trim(), name: f.name.value.trim(), email, password: f.password.value };
    if (!(await sendForm(this.form, "POST", "/api/signup", body))) return;
    this.form.reset();
    document.getElementById("signup-done-text").textContent =
      t("signup.done", { email });
    showOutcome(this.done, [this.form, this.closed, this.done]);
  }
}
