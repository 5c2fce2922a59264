// Forgot password (#/forgot): an email address; the service mails a link to set a new
// password (#/reset/TOKEN, reset.js) if an account has it. The answer is the same either way.
import { attempt } from "./api.js";
import { showOnly, showOutcome } from "./panels.js";

export class Forgot {
  constructor(state) {
    this.state = state;
    this.form = document.getElementById("forgot-form");
    this.off = document.getElementById("forgot-off");
    this.done = document.getElementById("forgot-done");
    this.panels = [this.form, this.off, this.done];
    this.form.addEventListener("submit", (event) => this.submit(event));
  }

  show() {
    this.form.reset();
    showOnly(this.state.access.passwordReset ? this.form : this.off, this.panels);
  }

  async submit(event) {
    event.preventDefault();
    if (!(await attempt("POST", "/api/password-reset", { email: this.form.elements.email.value.trim() }))) return;
    this.form.reset();
    showOutcome(this.done, this.panels);
  }
}
