// My reports, for a logged-in user: everything they reported, in every state, a page at a
// time, each with its state and where it is kept.
import { itemsUrl } from "./api.js";
import { CARD_FIELDS, itemCard } from "./cards.js";
import { h } from "./dom.js";
import { PAGE_SIZE, Pager } from "./pager.js";

const FIELDS = [...CARD_FIELDS, "storagePlace"].join(",");

export class Mine {
  constructor(state, dialog) {
    this.state = state;
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
  }
}
