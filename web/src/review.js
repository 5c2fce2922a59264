// Review, for administrators: the queue by state; approve, reject, record where an item is
// kept, delete (after a confirmation).
import { api } from "./api.js";
import { h, showError, showNotice, formatTime } from "./dom.js";

export class Review {
  constructor(state, dialog) {
    this.state = state;
    this.dialog = dialog;
    this.status = document.getElementById("review-status");
    this.list = document.getElementById("review-list");
    this.status.addEventListener("change", () => this.refresh());
  }

  show() {
    if (!this.state.user?.isAdmin) {
      this.list.replaceChildren(h("li", { class: "hint" }, "Only staff can review reports. Log in with a staff account."));
      return;
    }
    this.refresh();
  }

  async refresh() {
    const request = (this.latest = Symbol("refresh"));
    try {
      const query = this.status.value ? `?status=${this.status.value}` : "";
      const items = await api("GET", `/api/items${query}`);
      if (request !== this.latest) return;
      this.list.replaceChildren(...items.map((item) => this.card(item)));
      if (items.length === 0) this.list.append(h("li", { class: "hint" }, "Nothing here."));
    } catch (error) {
      showError(error.message);
    }
  }

  card(item) {
    const placeId = `place-${item.id}`;
    const place = h("input", { id: placeId, value: item.storagePlace ?? "", maxlength: 200 });
    const act = (label, patch) =>
      h("button", { type: "button", onclick: () => this.update(item, patch(), label) }, label);
    return h(
      "li",
      { class: "review-card" },
      item.imgData ? h("img", { src: item.imgData, alt: `Photo of ${item.title}` }) : null,
      h(
        "div",
        {},
        h("h3", {}, h("button", { type: "button", class: "link", onclick: () => this.dialog.open(item.id) }, item.title)),
        h("p", {}, item.desc ?? ""),
        h("p", { class: "meta" }, `${item.cat ?? "uncategorised"} · ${item.status} · reported by ${item.createdBy} on ${formatTime(item.created_at)}`),
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
      await api("PATCH", `/api/items/${item.id}`, patch);
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
