// My reports, for a logged-in user: the claims they made and what became of them, then
// everything they reported, in every state, a page at a time, each with its state and where
// it is kept (opening one shows what may match it).
import { api, itemTitle, itemsUrl } from "./api.js";
import { showError } from "./announce.js";
import { CARD_FIELDS, itemCard } from "./cards.js";
import { h, formatTime } from "./dom.js";
import { PAGE_SIZE, Pager } from "./pager.js";

const FIELDS = [...CARD_FIELDS, "storagePlace"].join(",");
const CLAIM_STATES = {
  open: "waiting for staff",
  accepted: "accepted: collect it from the office",
  rejected: "not accepted",
  withdrawn: "withdrawn",
};

export class Mine {
  constructor(state, dialog) {
    this.state = state;
    this.dialog = dialog;
    this.hint = document.getElementById("mine-login-hint");
    this.pager = new Pager({
      list: document.getElementById("mine-list"),
      count: document.getElementById("mine-count"),
      empty: "You have not reported anything yet.",
      render: (item) =>
        itemCard(item, (id) => dialog.open(id), {
          extra: item.storagePlace ? [h("span", { class: "meta" }, `Kept at ${item.storagePlace}`)] : [],
        }),
    });
  }

  show() {
    const user = this.state.user;
    this.hint.hidden = Boolean(user);
    document.getElementById("mine-results").hidden = !user;
    // Someone else's reports never show, not even until the new list arrives.
    if (user?.id !== this.shownFor) this.pager.clear();
    this.shownFor = user?.id;
    if (user) this.pager.start(itemsUrl({ createdBy: user.id, fields: FIELDS, limit: PAGE_SIZE }));
    this.showClaims();
  }

  async showClaims() {
    const section = document.getElementById("my-claims");
    section.hidden = true;
    if (!this.state.user) return;
    let claims;
    try {
      claims = await api("GET", "/api/claims");
    } catch (error) {
      showError(error.message);
      return;
    }
    const entries = await Promise.all(claims.map(async (claim) => {
      const title = await itemTitle(claim.itemId);
      return h("li", {},
        h("button", { type: "button", class: "link", onclick: () => this.dialog.open(claim.itemId) }, title),
        ` · claimed ${formatTime(claim.created_at)} · ${CLAIM_STATES[claim.status] ?? claim.status}`);
    }));
    document.getElementById("my-claims-list").replaceChildren(...entries);
    section.hidden = entries.length === 0;
  }
}
