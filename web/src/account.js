// My account (#/account), for a logged-in user: the email address notifications go to, and
// one waiting for confirmation; changing it (a link goes to the new address, the old one
// stays in use until it is opened) or removing it; and changing the password.
import { attempt } from "./api.js";
import { showNotice } from "./announce.js";
import { confirmFirst } from "./ask.js";
import { h } from "./dom.js";
import { sendForm } from "./fields.js";
import { t } from "./i18n.js";
import { PasswordForm } from "./password.js";

export class Account {
  constructor(state) {
    this.state = state;
    this.hint = document.getElementById("account-login-hint");
    this.content = document.getElementById("account-content");
    this.current = document.getElementById("email-current");
    this.pending = document.getElementById("email-pending");
    this.form = document.getElementById("email-form");
    this.remove = document.getElementById("email-remove");
    this.form.addEventListener("submit", (event) => this.change(event));
    this.remove.addEventListener("click", () => this.removeAddress());
    this.password = new PasswordForm(document.getElementById("password-form"), document.getElementById("password-toggle"));
  }

  show() {
    const user = this.state.user;
    this.hint.hidden = Boolean(user);
    this.content.hidden = !user;
    // Someone else's address never shows, nor what they typed.
    if (user?.id !== this.shownFor) {
      this.password.close();
      this.form.reset();
      this.render({ email: null, pending: null });
    }
    this.shownFor = user?.id;
    if (user) this.load();
  }

  async load() {
    const id = this.state.user.id;
    const answer = await attempt("GET", "/api/me/email");
    // Logged out (or in as someone else) while it was on its way: not for this person.
    if (answer && this.state.user?.id === id) this.render(answer);
  }

  render({ email, pending }) {
    this.current.replaceChildren(
      ...(email
        ? withStrong(t("account.emailedTo", { email: "\u0000" }), email)
        : [t("account.noEmail")]),
    );
    this.pending.hidden = !pending;
    this.pending.textContent = pending ? t("account.pending", { email: pending }) : "";
    this.remove.hidden = !email && !pending;
  }

  async change(event) {
    event.preventDefault();
    const answer = await sendForm(this.form, "PATCH", "/api/me", { email: this.form.elements.email.value.trim() });
    if (!answer) return;
    this.form.reset();
    this.render(answer);
    showNotice(answer.pending ? t("account.linkSent", { email: answer.pending }) : t("account.saved"));
  }

  async removeAddress() {
    const answer = await confirmFirst({
      question: t("account.removeConfirm"),
      confirm: t("account.removeEmail"),
      act: () => attempt("PATCH", "/api/me", { email: null }),
    });
    if (!answer) return;
    this.render(answer);
    this.form.elements.email.focus();
    showNotice(t("account.removed"));
  }
}

/** `text` with the address in bold where the catalog put it (a NUL stands for it, as user
 *  text only ever becomes a text node). */
function withStrong(text, email) {
  const [before, after = ""] = text.split("\u0000");
  return [before, h("strong", {}, email), after];
}
