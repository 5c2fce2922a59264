// My account (#/account), for a logged-in user: the email address notifications go to, and
// one waiting for confirmation; changing it (a link goes to the new address, the old one
// stays in use until it is opened) or removing it; changing the password; a copy of one's
// data; notifications on this device; and deleting the account.
import { attempt } from "./api.js";
import { showNotice } from "./announce.js";
import { ask, confirmFirst } from "./ask.js";
import { h } from "./dom.js";
import { sendForm } from "./fields.js";
import { t } from "./i18n.js";
import { forgetNick } from "./nick.js";
import { PasswordForm } from "./password.js";
import { pushState, turnOffPush, turnOnPush } from "./push.js";

/** Each kind of notice, in words that finish "Email me when …"; staff's own last. */
const MAIL_KINDS = {
  match: () => t("account.mail.match"),
  itemStatus: () => t("account.mail.itemStatus"),
  storagePlace: () => t("account.mail.storagePlace"),
  claimDecided: () => t("account.mail.claimDecided"),
  threadReply: () => t("account.mail.threadReply"),
  claimReceived: () => t("account.mail.claimReceived"),
  review: () => t("account.mail.review"),
};
/** What this device does with the person's notices, by `pushState()`. */
const PUSH_STATES = {
  on: () => t("push.stateOn"),
  off: () => t("push.stateOff"),
  blocked: () => t("push.stateBlocked"),
  unsupported: () => "",
};
/** The kinds of notice only staff get. */
const STAFF_KINDS = ["claimReceived", "review"];

export class Account {
  /** `setUser(null)` logs the page out once the account is gone. */
  constructor(state, setUser) {
    this.state = state;
    this.setUser = setUser;
    this.hint = document.getElementById("account-login-hint");
    this.content = document.getElementById("account-content");
    this.current = document.getElementById("email-current");
    this.pending = document.getElementById("email-pending");
    this.form = document.getElementById("email-form");
    this.remove = document.getElementById("email-remove");
    this.form.addEventListener("submit", (event) => this.change(event));
    this.remove.addEventListener("click", () => this.removeAddress());
    this.password = new PasswordForm(document.getElementById("password-form"), document.getElementById("password-toggle"));
    document.getElementById("account-erase").addEventListener("click", () => this.erase());
    this.mail = document.getElementById("mail-choices");
    this.push = document.getElementById("push-panel");
    this.pushToggle = document.getElementById("push-toggle");
    this.pushToggle.addEventListener("click", () => this.togglePush());
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
    const [answer, choices] = await Promise.all([attempt("GET", "/api/me/email"), attempt("GET", "/api/me/mail")]);
    // Logged out (or in as someone else) while it was on its way: not for this person.
    if (this.state.user?.id !== id) return;
    if (answer) this.render(answer);
    if (choices) this.renderMail(choices);
    this.renderPush();
  }

  /** Whether this device gets the person's notices, and the button that changes it; nothing
   *  where the browser or the service cannot push. */
  async renderPush() {
    const state = await pushState();
    this.push.hidden = state === "unsupported";
    this.pushOn = state === "on";
    document.getElementById("push-state").textContent = PUSH_STATES[state]();
    this.pushToggle.hidden = state === "blocked" || state === "unsupported";
    this.pushToggle.textContent = this.pushOn ? t("push.turnOff") : t("push.turnOn");
  }

  async togglePush() {
    if (this.pushOn) {
      await turnOffPush();
      showNotice(t("push.turnedOff"));
    } else {
      showNotice((await turnOnPush()) ? t("push.turnedOn") : t("push.notTurnedOn"));
    }
    await this.renderPush();
  }

  /** A box for each kind of notice its reader may get (staff's own kinds for staff only),
   *  ticked when it is emailed; a change is saved at once. */
  renderMail(choices) {
    const user = this.state.user;
    const staff = user.isAdmin || (user.sites?.length ?? 0) > 0;
    const kinds = Object.keys(MAIL_KINDS).filter((kind) => kind in choices && (staff || !STAFF_KINDS.includes(kind)));
    const legend = this.mail.querySelector("legend");
    this.mail.replaceChildren(legend, ...kinds.map((kind) => h("label", { class: "check" },
      h("input", { type: "checkbox", name: kind, checked: choices[kind], onchange: (event) => this.chooseMail(kind, event.target) }),
      MAIL_KINDS[kind]())));
  }

  async chooseMail(kind, box) {
    const choices = await attempt("PATCH", "/api/me/mail", { [kind]: box.checked });
    if (!choices) {
      box.checked = !box.checked;
      return;
    }
    const words = { kind: MAIL_KINDS[kind]() };
    showNotice(choices[kind] ? t("account.mailOn", words) : t("account.mailOff", words));
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

  /** Deletes the account, after its password (left empty by those who sign in with single
   *  sign-on or an emailed link); then the page is logged out, on Browse. */
  async erase() {
    const erased = await ask({
      title: t("account.eraseTitle"),
      intro: t("account.eraseNote"),
      danger: true,
      fields: [
        h("label", { for: "erase-current" }, t("account.currentPassword")),
        h("input", { id: "erase-current", name: "current", type: "password", autocomplete: "current-password", "aria-describedby": "erase-hint" }),
        h("p", { id: "erase-hint", class: "meta" }, t("account.eraseHint")),
      ],
      confirm: t("account.erase"),
      submit: (form) => sendForm(form, "DELETE", "/api/me", { current: form.elements.current.value }),
    });
    if (!erased) return;
    forgetNick();
    location.hash = "#/";
    this.setUser(null);
    showNotice(t("account.erased"));
  }
}

/** `text` with the address in bold where the catalog put it (a NUL stands for it, as user
 *  text only ever becomes a text node). */
function withStrong(text, email) {
  const [before, after = ""] = text.split("\u0000");
  return [before, h("strong", {}, email), after];
}
