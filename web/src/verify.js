// Confirming an address (#/verify/TOKEN): the link mailed after a sign-up, or after a change
// of address on My account. The service confirms it and logs this browser in to the account.
import { attempt } from "./api.js";
import { clearErrors } from "./announce.js";
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
    const answer = await attempt("POST", "/api/signup/verify", { token });
    this.result.removeAttribute("aria-busy");
    if (answer) {
      clearErrors();
      const { user } = answer;
      // A user confirming a new address is logged in already: no welcome.
      const words = this.state.user?.id === user.id ? t("verify.confirmed") : t("verify.welcome", { name: user.name });
      this.result.replaceChildren(
        h("p", {}, words),
        h("p", { class: "actions" }, h("a", { href: "#/browse" }, t("verify.browse")), h("a", { href: "#/account" }, t("header.myAccount"))),
      );
      this.onLogin(user);
    } else {
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
