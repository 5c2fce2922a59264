// Confirming an address (#/verify/TOKEN): the link mailed after a sign-up, or after a change
// of address on My account. A sign-up's link logs this browser in to the new account; a new
// address is confirmed only with its account logged in here (the link may have gone astray).
import { api } from "./api.js";
import { clearErrors, showError } from "./announce.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

export class Verify {
  /** `onLogin(user)` makes the page logged in (header, socket, screens). */
  constructor(state, onLogin) {
    this.state = state;
    this.onLogin = onLogin;
    this.result = document.getElementById("verify-result");
  }

  show(token) {
    if (!token) {
      // What came of the last link stays; without one there is nothing to confirm.
      if (!this.result.hasChildNodes()) {
        this.result.replaceChildren(h("p", {}, t("verify.noLink")));
      }
      return;
    }
    // A link works once: it leaves the address bar and the history at once.
    history.replaceState(null, "", "#/verify");
    this.confirm(token);
  }

  async confirm(token) {
    this.result.replaceChildren(h("p", {}, t("verify.confirming")));
    this.result.setAttribute("aria-busy", "true");
    let answer;
    let error;
    try {
      answer = await api("POST", "/api/signup/verify", { token });
    } catch (failure) {
      error = failure;
    }
    this.result.removeAttribute("aria-busy");
    const browse = () => h("p", { class: "actions" }, h("a", { href: "#/browse" }, t("verify.browse")), h("a", { href: "#/account" }, t("header.myAccount")));
    if (answer?.user) {
      // A sign-up's link: its account is logged in.
      clearErrors();
      this.result.replaceChildren(h("p", {}, t("verify.welcome", { name: answer.user.name })), browse());
      this.onLogin(answer.user);
    } else if (answer) {
      // A new address of the account logged in: confirmed, nothing else changes.
      clearErrors();
      this.result.replaceChildren(h("p", {}, t("verify.confirmed")), browse());
    } else if (error.message === t("apiError.logInToConfirm")) {
      // A new address is confirmed only by its account, logged in (the header's Log in):
      // the link stays good.
      this.result.replaceChildren(h("p", {}, t("verify.logInFirst")));
    } else {
      showError(error.message);
      const { signup, passwordReset } = this.state.access;
      this.result.replaceChildren(
        h("p", {}, t("verify.invalid")),
        h(
          "p",
          { class: "actions" },
          signup ? h("a", { href: "#/signup" }, t("verify.signupAgain")) : null,
          passwordReset ? h("a", { href: "#/forgot" }, t("login.forgot")) : null,
        ),
      );
    }
    this.result.focus();
  }
}
