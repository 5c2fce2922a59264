// A visitor's link to their lost report (#/follow/TOKEN), mailed when staff took it at the
// desk: it logs this browser in as the visitor, who has no password, and opens My reports —
// their report, what may be theirs, their claims. A link that no longer works says how to get
// a new one, and where the desks are.
import { api } from "./api.js";
import { showError, showNotice } from "./announce.js";
import { deskLines } from "./desks.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

export class Follow {
  /** `onLogin(user)` makes the page logged in (header, socket, screens). */
  constructor(state, onLogin) {
    this.state = state;
    this.onLogin = onLogin;
    this.result = document.getElementById("follow-result");
  }

  show(token) {
    if (!token) {
      if (!this.result.hasChildNodes()) this.result.replaceChildren(h("p", {}, t("follow.noLink")));
      return;
    }
    // The link is a key: it leaves the address bar and the history at once.
    history.replaceState(null, "", "#/follow");
    this.open(token);
  }

  async open(token) {
    this.result.replaceChildren(h("p", {}, t("follow.opening")));
    this.result.setAttribute("aria-busy", "true");
    let answer;
    try {
      answer = await api("POST", "/api/follow", { token });
    } catch (error) {
      this.result.removeAttribute("aria-busy");
      showError(error.message);
      this.result.replaceChildren(
        h("p", {}, t("follow.invalid")),
        h("h3", { id: "follow-desks" }, t("report.desksHeading")),
        h("ul", { class: "desk-list", "aria-labelledby": "follow-desks" }, ...deskLines(this.state.sites ?? [])),
      );
      this.result.focus();
      return;
    }
    this.result.removeAttribute("aria-busy");
    this.result.replaceChildren();
    // Their reports, once the page is theirs.
    history.replaceState(null, "", "#/mine");
    this.onLogin(answer.user);
    showNotice(t("follow.welcome", { name: answer.user.name }));
  }
}
