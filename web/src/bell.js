// The bell in the header: the user's latest notifications, in the reader's language, and how
// many are unread, kept up to date by the `notify` event; opening the list marks them read.
import { attempt } from "./api.js";
import { h, formatTime } from "./dom.js";
import { language, t, tn } from "./i18n.js";
import { latestOnly } from "./latest.js";
import { socket } from "./socket.js";

const SHOWN = 20;

export class Bell {
  constructor(state) {
    this.state = state;
    this.notifications = [];
    this.button = document.getElementById("bell");
    this.count = document.getElementById("bell-count");
    this.panel = document.getElementById("bell-panel");
    this.list = document.getElementById("bell-list");
    this.button.addEventListener("click", () => this.toggle());
    // Escape closes the open list, and the bell has the focus again.
    document.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || this.panel.hidden) return;
      this.close();
      this.button.focus();
    });
    // A list read after another started is dropped: the newer one is on its way.
    this.read = latestOnly(() => attempt("GET", `/api/notifications?limit=${SHOWN}&lang=${language()}`));
    // The event says it in English: the list, read again, in the reader's language.
    socket.on("notify", () => this.refresh());
  }

  /** Reads the user's latest notifications (none when logged out) and closes the list. */
  async load() {
    this.close();
    await this.refresh();
  }

  async refresh() {
    const list = this.state.user ? await this.read() : [];
    // Logged out while it was on its way: not this page's any more.
    this.notifications = (this.state.user && list) || [];
    this.render();
  }

  render() {
    const unread = this.notifications.filter((n) => !n.read).length;
    this.count.textContent = unread ? String(unread) : "";
    this.button.setAttribute("aria-label", unread ? tn("bell.unread", unread) : t("bell.label"));
    const items = this.notifications.map((n) =>
      h("li", { class: n.read ? "read" : "unread" },
        n.itemId ? h("a", { href: `#/items/${n.itemId}` }, n.text) : n.text,
        h("time", { datetime: n.created_at }, formatTime(n.created_at))));
    this.list.replaceChildren(...(items.length ? items : [h("li", {}, t("bell.none"))]));
  }

  async toggle() {
    if (!this.panel.hidden) {
      this.close();
      return;
    }
    this.panel.hidden = false;
    this.button.setAttribute("aria-expanded", "true");
    const ids = this.notifications.filter((n) => !n.read).map((n) => n.id);
    if (ids.length === 0) return;
    if (!(await attempt("POST", "/api/notifications/read", { ids }))) return;
    // The list keeps showing which were new until it is closed; the count goes at once.
    this.count.textContent = "";
    this.button.setAttribute("aria-label", t("bell.label"));
    for (const n of this.notifications) n.read = true;
  }

  close() {
    this.panel.hidden = true;
    this.button.setAttribute("aria-expanded", "false");
    this.render();
  }
}
