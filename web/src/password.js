// Changing one's own password, on My reports: the current one, then the new one. The service
// ends every other session of the account and gives this one a new cookie.
import { api } from "./api.js";
import { showError, showNotice } from "./announce.js";
import { disclose } from "./disclosure.js";
import { reconnect } from "./socket.js";

export class PasswordForm {
  constructor() {
    this.form = document.getElementById("password-form");
    this.button = document.getElementById("password-toggle");
    this.open = disclose(this.button, this.form, () => this.form.elements.current.focus());
    this.form.addEventListener("submit", (event) => this.submit(event));
    document.getElementById("password-cancel").addEventListener("click", () => {
      this.close();
      this.button.focus();
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
    try {
      await api("POST", "/api/me/password", { current: f.current.value, password: f.password.value });
    } catch (error) {
      showError(error.message);
      return;
    }
    this.close();
    this.button.focus();
    // The live connection's handshake carried the old session: it must carry the new one.
    reconnect();
    showNotice("Your password is changed. Anywhere else you were logged in, you are logged out.");
  }
}
