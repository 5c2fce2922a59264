// Review, for administrators: claims to decide (accepting one hands the item over), and the
// reports by state: approve or reject (only the move that changes something), record where
// an item is kept, delete (after a confirmation), and read what was done to it (its history).
import { attempt, itemTitles, itemsUrl } from "./api.js";
import { showNotice } from "./announce.js";
import { KINDS, STATES, thumbnail } from "./cards.js";
import { h, formatTime } from "./dom.js";
import { historyToggle } from "./history.js";
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
    this.claimsStatus = document.getElementById("claims-status");
    this.claims = document.getElementById("claims-list");
    this.claimsStatus.addEventListener("change", () => this.refreshClaims());
  }

  show() {
    if (!this.state.user?.isAdmin) {
      this.pager.clear();
      this.claims.replaceChildren();
      this.list.replaceChildren(h("li", { class: "hint" }, "Only staff can review reports. Log in with a staff account."));
      return;
    }
    this.refresh();
    this.refreshClaims();
  }

  async refreshClaims() {
    const claims = await attempt("GET", `/api/claims?status=${this.claimsStatus.value}`);
    if (!claims) return;
    // Each claim names its item by id: their titles in one request.
    const titles = await itemTitles(claims.map((c) => c.itemId));
    const cards = claims.map((claim) => this.claimCard(claim, titles.get(claim.itemId)));
    this.claims.replaceChildren(...(cards.length ? cards : [h("li", { class: "hint" }, "No claims here.")]));
  }

  claimCard(claim, title) {
    const decided = claim.decided_at
      ? `${claim.status === "accepted" ? "Handed over" : "Rejected"} by ${claim.decidedBy} on ${formatTime(claim.decided_at)}`
      : `Claimed on ${formatTime(claim.created_at)}`;
    const decide = (label, status, css) =>
      h("button", { type: "button", class: css, onclick: () => this.decide(claim, status, title) }, label);
    return h(
      "li",
      { class: "review-card claim-card" },
      h(
        "div",
        {},
        h("h3", {}, h("button", { type: "button", class: "link", onclick: () => this.dialog.open(claim.itemId) }, title)),
        h("p", { class: "meta" }, `${claim.claimant} says it is theirs · ${decided}`),
        h("blockquote", {}, claim.message),
        claim.status === "open"
          ? h("div", { class: "actions" }, decide("Hand over", "accepted"), decide("Reject claim", "rejected", "secondary"))
          : null,
      ),
    );
  }

  async decide(claim, status, title) {
    if (!(await attempt("PATCH", `/api/claims/${claim.id}`, { status }))) return;
    showNotice(status === "accepted" ? `“${title}” is handed over to ${claim.claimant}.` : `The claim of ${claim.claimant} is rejected.`);
    this.refreshClaims();
    this.refresh();
  }

  /** The queue from its first page, as it stands now. */
  refresh() {
    this.pager.start(itemsUrl({ status: this.status.value, fields: FIELDS, limit: PAGE_SIZE }));
  }

  card(item) {
    const placeId = `place-${item.id}`;
    const place = h("input", { id: placeId, value: item.storagePlace ?? "", maxlength: 200 });
    // Why it is rejected, told to the reporter; only where Reject is offered.
    const reasonId = `reason-${item.id}`;
    const reason = h("input", { id: reasonId, maxlength: 500, placeholder: "optional" });
    const rejection = () => (reason.value.trim() ? { status: "rejected", reason: reason.value } : { status: "rejected" });
    const act = (label, patch, css) =>
      h("button", { type: "button", class: css, onclick: () => this.update(item, patch(), label) }, label);
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
          item.status !== "approved" ? act("Approve", () => ({ status: "approved" })) : null,
          ...(item.status !== "rejected"
            ? [h("label", { for: reasonId }, "Reason"), reason, act("Reject", rejection, "secondary")]
            : []),
          h("label", { for: placeId }, "Kept at"),
          place,
          act("Save place", () => ({ storagePlace: place.value })),
          h("button", { type: "button", class: "danger", onclick: () => this.remove(item) }, "Delete"),
        ),
        ...historyToggle(item),
      ),
    );
  }

  async update(item, patch, label) {
    // Only the id back: without `fields` the answer would carry the whole photo.
    if (!(await attempt("PATCH", `/api/items/${item.id}?fields=id`, patch))) return;
    showNotice(`${label}: “${item.title}”.`);
    this.refresh();
  }

  async remove(item) {
    if (!window.confirm(`Delete “${item.title}” and its messages? This cannot be undone.`)) return;
    if (!(await attempt("DELETE", `/api/items/${item.id}`))) return;
    showNotice(`Deleted “${item.title}”.`);
    this.refresh();
  }
}
