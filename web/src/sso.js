// When logging in with single sign-on did not work (#/sso-failed, where the service sends the
// browser back): try again, or log in with a user id and password.
import { startSso } from "./login.js";

export class SsoFailed {
  constructor(state) {
    const { oidc } = state.access;
    document.getElementById("sso-failed-text").textContent = oidc
      ? `Logging in with ${oidc.name} did not work. Try again, or log in with your user id and password.`
      : "Single sign-on is not set up here. Log in with your user id and password.";
    const retry = document.getElementById("sso-retry");
    retry.hidden = !oidc;
    retry.addEventListener("click", startSso);
  }

  show() {}
}
