// When logging in with single sign-on did not work (#/sso-failed, where the service sends the
// browser back): try again, or log in with a user id and password.
import { t } from "./i18n.js";
import { startSso } from "./login.js";

export class SsoFailed {
  constructor(state) {
    const { oidc } = state.access;
    document.getElementById("sso-failed-text").textContent = oidc
      ? t("sso.failed", { name: oidc.name })
      : t("sso.notSetUp");
    const retry = document.getElementById("sso-retry");
    retry.hidden = !oidc;
    retry.addEventListener("click", startSso);
  }

  show() {}
}
