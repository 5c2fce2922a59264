// Review, for administrators: the queue by state; approve, reject, record where an item is
// kept, delete (after a confirmation).
import { api, itemsUrl } from "./api.js";
import { showError, showNotice } from "./announce.js";
import { KINDS, STATES, thumbnail } from "./cards.js";
import { h, formatTime } from "./dom.js";
import { PAGE_SIZE, Pager } from "./pager.js";

const FIELDS = "id,title,desc,cat,kind,status,storagePlace,created_at,createdBy,thumbUrl";

export class Review {
  constructor(state, dialog) {
    this.state = state;
    this.dialog = dialog;
    this.status = document.getElementById("review-status");
    this.list = document.getElementById("review-list");
    this.pager = new Pager({ list: this.list, count: document.getElementById("review-count"), render: (item) => this.card(item) });
    this.status.addEventListener("change", () => this.refresh());
  }

  show() {
    if (!this.state.user?.isAdmin) {
      this.pager.clear();
      this.list.replaceChildren(h("li", { class: "hint" }, "Only staff can review reports. Log in with a staff account."));
      return;
    }
    this.refresh();
  }

  /** The queue from its first page, as it stands now. */
  refresh() {
    this.pager.start(itemsUrl({ status: this.status.value, fields: FIELDS, limit: PAGE_SIZE }));
  }

  card(item) {
    const placeId = `place-${item.id}`;
    const place = h("input", { id: placeId, value: item.storagePlace ?? "", maxlength: 200 });
    const act = (label, patch) =>
      h("button", { type: "button", onclick: () => this.update(item, patch(), label) }, label);
    return h(
      "li",
      { class: "review-card" },
      item.thumbUrl ? thumbnail(item, 96, `Photo of ${item.title}`) : null,
      h(
        "div",
        {},
        h("h3", {}, h("button", { type: "button", class: "link", onclick: () => this.dialog.open(item.id) }, item.title)),
        h("p", {}, item.desc ?? ""),
        h(
          "p",
          { class: "meta" },
          `${KINDS[item.kind]} · ${item.cat ?? "uncategorised"} · ${STATES[item.status]} · reported by ${item.createdBy} on ${formatTime(item.created_at)}`,
        ),
        h(
          "div",
          { class: "actions" },
          act("Approve", () => ({ status: "approved" })),
          act("Reject", () => ({ status: "rejected" })),
          h("label", { for: placeId }, "Kept at"),
          place,
          act("Save place", () => ({ storagePlace: place.value })),
          h("button", { type: "button", class: "danger", onclick: () => this.remove(item) }, "Delete"),
        ),
      ),
    );
  }

  async update(item, patch, label) {
    try {
      // Only the id back: without `fields` the answer would carry the whole photo.
      await api("PATCH", `/api/items/${item.id}?fields=id`, patch);
      showNotice(`${label}: “${item.title}”.`);
      this.refresh();
    } catch (error) {
      showError(error.message);
    }
  }

  async remove(item) {
    if (!window.confirm(`Delete “${item.title}” and its messages? This cannot be undone.`)) return;
    try {
      await api("DELETE", `/api/items/${item.id}`);
      showNotice(`Deleted “${item.title}”.`);
      this.refresh();
    } catch (error) {
      showError(error.message);
    }
  }
}
