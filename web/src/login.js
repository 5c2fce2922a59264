// The login panel: a dialog with the user id and password form, opened by every Log in
// button of the page (`data-login`); below the form, "Forgot password?", "Create account" and
// "Log in with …" (single sign-on), each when the service offers it (`state.access`).
import { attempt } from "./api.js";
import { announceWithin } from "./announce.js";
import { t } from "./i18n.js";

/** Logs in with single sign-on: the browser goes to the provider (a page load, not a request)
 *  and comes back logged in, or to #/sso-failed. */
export function startSso() {
  location.assign("/api/oidc/login");
}

export class LoginPanel {
  /** `onLogin(user)` runs once a login worked, after the panel closed. */
  constructor(state, onLogin) {
    this.state = state;
    this.onLogin = onLogin;
    this.dialog = document.getElementById("login-dialog");
    this.form = document.getElementById("login-form");
    this.form.addEventListener("submit", (event) => this.submit(event));
    document.getElementById("login-close").addEventListener("click", () => this.dialog.close());
    // Escape closes it too (the dialog's own `cancel`); either way, this tidies up.
    this.dialog.addEventListener("close", () => this.closed());

    const { passwordReset, signup, oidc } = state.access;
    document.getElementById("login-forgot").hidden = !passwordReset;
    document.getElementById("login-signup").hidden = !signup;
    document.getElementById("login-links").hidden = !passwordReset && !signup;
    document.getElementById("login-sso").hidden = !oidc;
    const sso = document.getElementById("login-sso-button");
    if (oidc) sso.textContent = t("login.ssoWith", { name: oidc.name });
    sso.addEventListener("click", startSso);
    // The links lead to screens of their own: the panel gives way, the screen gets the focus.
    for (const link of this.dialog.querySelectorAll("a[href^='#/']")) {
      link.addEventListener("click", () => this.close(document.getElementById("main")));
    }
  }

  /** Opens the panel, its User id field focused; closed, focus goes back where it was. */
  open() {
    if (this.dialog.open) return;
    this.focusAfter = document.activeElement;
    this.dialog.showModal();
    announceWithin(this.dialog);
    this.form.elements.id.focus();
  }

  /** Closes the panel; focus then goes to `focusAfter` (by default where it was before). */
  close(focusAfter) {
    if (focusAfter) this.focusAfter = focusAfter;
    this.dialog.close();
  }

  closed() {
    announceWithin();
    // Nothing typed stays behind for the next person at this computer.
    this.form.reset();
    this.focusAfter?.focus();
    this.focusAfter = null;
  }

  async submit(event) {
    event.preventDefault();
    const data = new FormData(this.form);
    const answer = await attempt("POST", "/api/login", { id: data.get("id"), pw: data.get("pw") });
    if (!answer) return;
    this.close(document.getElementById("main"));
    this.onLogin(answer.user);
  }
}
