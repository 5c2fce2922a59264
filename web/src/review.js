// Review, for staff: claims to judge — the claimant's words, how to reach them and the
// verification details recorded at intake side by side, and a private conversation with
// them — and decide (accepting one makes the item ready for pickup, then handed over with
// an ID check or called off), found
// items due for disposal, and the reports by state: approve or reject (only the move that
// changes something), record where an item is kept, print its label (or choose several found
// items and print their labels on one sheet, dispose of them or send them to another desk),
// delete (after a confirmation), and read what was done to it (its history). A report waiting for review shows its likely matches — a found item handed
// in may be someone's lost report — read as its card comes into view, a few at a time.
import { attempt, itemsById, itemsUrl } from "./api.js";
import { showNotice } from "./announce.js";
import { confirmFirst } from "./ask.js";
import { KINDS, STATES, thumbnail } from "./cards.js";
import { ITEMS_CHANGED, OUTCOME_FIELDS, isOpen, outcomeBadge } from "./custody.js";
import { categoryName } from "./categories.js";
import { conversation } from "./conversation.js";
import { h, formatTime } from "./dom.js";
import { t } from "./i18n.js";
import { fillDeskChoice } from "./desks.js";
import { DueList } from "./due.js";
import { historyToggle } from "./history.js";
import { printLabels } from "./labels.js";
import { pickupForms, postLine, receiptLink, settledLine } from "./pickup.js";
import { Selection } from "./selection.js";
import { atMost } from "./limit.js";
import { fetchMatches, scorePercent, whyWords } from "./matches.js";
import { PAGE_SIZE, Pager } from "./pager.js";

const FIELDS = [
  "id", "title", "desc", "place", "cat", "kind", "status", "siteId", "storagePlace", "created_at", "createdBy", "thumbUrl", ...OUTCOME_FIELDS,
].join(",");
/** Likely matches a pending report's card names at most. */
const MATCHES_SHOWN = 3;
/** Requests for matches under way at most: the rest wait until they are answered. */
const MATCH_REQUESTS = 3;

export class Review {
  constructor(state, dialog) {
    this.state = state;
    this.dialog = dialog;
    this.status = document.getElementById("review-status");
    this.list = document.getElementById("review-list");
    this.pager = new Pager({ list: this.list, count: document.getElementById("review-count"), render: (item) => this.card(item) });
    this.status.addEventListener("change", () => this.refresh());
    // The desk whose claims, due items and reports show: staff start at their own.
    this.site = document.getElementById("review-site");
    // Everything that shows items of the desk, read again.
    const refreshAll = () => {
      this.refresh();
      this.refreshClaims();
      this.due.refresh(this.site.value);
    };
    this.site.addEventListener("change", refreshAll);
    this.claimsStatus = document.getElementById("claims-status");
    this.claims = document.getElementById("claims-list");
    this.claimsStatus.addEventListener("change", () => this.refreshClaims());
    const sites = () => this.state.sites ?? [];
    this.due = new DueList({ dialog, sites, changed: refreshAll });
    /** The found items chosen, to act on at once. */
    this.chosen = new Selection({
      bar: document.getElementById("review-chosen"),
      list: this.list,
      sites,
      changed: refreshAll,
    });
    // A pending report's matches are read once its card comes near the view.
    this.matchRequests = atMost(MATCH_REQUESTS);
    /** Each pending report's card, and where its matches go. */
    this.matchBoxes = new WeakMap();
    this.matchesSeen = new IntersectionObserver((entries) => {
      for (const entry of entries) {
        if (!entry.isIntersecting) continue;
        this.matchesSeen.unobserve(entry.target);
        this.showMatches(this.matchBoxes.get(entry.target));
      }
    }, { rootMargin: "200px 0px" });
    this.view = document.getElementById("view-review");
    // Closed (from an item's view) or disposed of: the reports and claims read again; the due
    // list takes care of what it disposed of itself, and loses what was closed.
    window.addEventListener(ITEMS_CHANGED, ({ detail }) => {
      if (this.view.hidden || !this.state.user?.isAdmin) return;
      this.refresh();
      this.refreshClaims();
      if (detail.change === "closed") this.due.pager.remove(detail.id);
    });
  }

  show() {
    const admin = Boolean(this.state.user?.isAdmin);
    document.getElementById("review-staff").hidden = !admin;
    if (!admin) {
      this.pager.clear();
      this.due.clear();
      this.claims.replaceChildren();
      this.chosen.clear();
      this.list.replaceChildren(h("li", { class: "hint" }, t("review.staffOnly")));
      return;
    }
    fillDeskChoice(this.site, this.state.sites ?? [], this.state.user);
    this.refresh();
    this.refreshClaims();
    this.due.refresh(this.site.value);
  }

  async refreshClaims() {
    const query = new URLSearchParams({ status: this.claimsStatus.value, contact: true });
    if (this.site.value) query.set("site", this.site.value);
    const claims = await attempt("GET", `/api/claims?${query}`);
    if (!claims) return;
    // Each claim names its item by id: their titles and verification details in one request.
    const items = await itemsById(claims.map((c) => c.itemId), ["verification"]);
    const cards = claims.map((claim) => this.claimCard(claim, items.get(claim.itemId)));
    this.claims.replaceChildren(...(cards.length ? cards : [h("li", { class: "hint" }, t("review.noClaims"))]));
  }

  /** A claim on `item`: what the claimant says, how to reach them and what the desk
   *  recorded at intake, side by side; its conversation; and what may be done next. */
  claimCard(claim, item) {
    const title = item.title;
    const decider = { user: claim.decidedBy, date: formatTime(claim.decided_at) };
    const decided = claim.status === "open"
      ? t("review.claimedOn", { date: formatTime(claim.created_at) })
      : claim.status === "rejected" ? t("review.rejectedBy", decider) : t("review.acceptedBy", decider);
    const decide = (label, status, css) =>
      h("button", { type: "button", class: css, onclick: () => this.decide(claim, status, title) }, label);
    const settled = settledLine(claim);
    const changed = () => {
      this.refreshClaims();
      this.refresh();
    };
    const { name, email } = claim.contact ?? {};
    const column = (key, heading, ...body) => {
      const id = `judge-${claim.id}-${key}`;
      return h("div", { class: "judge-column", role: "group", "aria-labelledby": id }, h("h4", { id }, heading), ...body);
    };
    return h(
      "li",
      { class: "review-card claim-card" },
      h(
        "div",
        {},
        h("h3", {}, h("button", { type: "button", class: "link", onclick: () => this.dialog.open(claim.itemId) }, title)),
        h("p", { class: "meta" }, `${t("review.saysTheirs", { user: claim.claimant })} · ${decided}`),
        h("div", { class: "judge" },
          column("words", t("review.theirWords"), h("blockquote", {}, claim.message)),
          column("contact", t("review.contact"),
            h("p", {}, name || claim.claimant),
            email ? h("p", {}, h("a", { href: `mailto:${email}` }, email)) : h("p", { class: "hint" }, t("review.noEmail"))),
          column("verification", t("review.verification"),
            item.verification ? h("p", { class: "verification" }, item.verification) : h("p", { class: "hint" }, t("review.noVerification")))),
        settled ? h("p", { class: "meta" }, settled) : null,
        claim.status === "accepted" && claim.post ? h("p", { class: "meta" }, postLine(claim)) : null,
        claim.status === "collected" ? h("p", {}, receiptLink(claim)) : null,
        conversation(claim, { desk: true }),
        claim.status === "open"
          ? h("div", { class: "actions" }, decide(t("review.acceptClaim"), "accepted"), decide(t("review.rejectClaim"), "rejected", "secondary"))
          : null,
        claim.status === "accepted" ? pickupForms(claim, title, changed) : null,
      ),
    );
  }

  async decide(claim, status, title) {
    if (!(await attempt("PATCH", `/api/claims/${claim.id}`, { status }))) return;
    showNotice(status === "accepted" ? t("review.claimAccepted", { title, user: claim.claimant }) : t("review.claimRejected", { user: claim.claimant }));
    this.refreshClaims();
    this.refresh();
  }

  /** The queue from its first page, as it stands now; settles once it is shown. */
  refresh() {
    // The cards shown go: their matches are no longer wanted.
    this.matchesSeen.disconnect();
    return this.pager.start(itemsUrl({ status: this.status.value, site: this.site.value, fields: FIELDS, limit: PAGE_SIZE }));
  }

  /** The queue read again after `label` was done to `item`: the focus goes to that button on
   *  its card if it is still listed, else to the card that took its place (or the last), else
   *  to the heading — never to the page (WCAG 2.4.3). */
  async refreshAfter(item, label) {
    const cards = () => [...this.list.querySelectorAll(":scope > li[data-item]")];
    const at = cards().findIndex((card) => card.dataset.item === String(item.id));
    await this.refresh();
    const now = cards();
    const same = now.find((card) => card.dataset.item === String(item.id));
    const card = same ?? now[Math.min(Math.max(at, 0), now.length - 1)];
    const button = same && [...same.querySelectorAll("button")].find((b) => b.textContent === label);
    (button ?? card?.querySelector("h3 button") ?? document.getElementById("review-heading")).focus();
  }

  card(item) {
    const placeId = `place-${item.id}`;
    const place = h("input", { id: placeId, value: item.storagePlace ?? "", maxlength: 200 });
    // Why it is rejected, told to the reporter; only where Reject is offered.
    const reasonId = `reason-${item.id}`;
    const reason = h("input", { id: reasonId, maxlength: 500, placeholder: t("review.optional") });
    const rejection = () => (reason.value.trim() ? { status: "rejected", reason: reason.value } : { status: "rejected" });
    const act = (label, patch, css) =>
      h("button", { type: "button", class: css, onclick: () => this.update(item, patch(), label) }, label);
    // Labels, disposal and transfers are for what sits on a shelf: found items.
    const labels =
      item.kind === "found"
        ? h(
            "div",
            { class: "actions label-actions" },
            h("button", { type: "button", class: "secondary", onclick: () => printLabels([item.id]) }, t("common.printLabel")),
            this.chosen.box(item),
          )
        : null;
    const matches = this.matchesBox(item);
    const card = h(
      "li",
      { class: "review-card", "data-item": item.id },
      item.thumbUrl ? thumbnail(item, 96, t("item.photoOf", { title: item.title })) : null,
      h(
        "div",
        {},
        h("h3", {}, h("button", { type: "button", class: "link", onclick: () => this.dialog.open(item.id) }, item.title), " ", outcomeBadge(item)),
        h("p", {}, item.desc ?? ""),
        h(
          "p",
          { class: "meta" },
          [`#${item.id}`, KINDS[item.kind], categoryName(item.cat), item.place, STATES[item.status], t("review.reportedBy", { user: item.createdBy, date: formatTime(item.created_at) })]
            .filter(Boolean).join(" · "),
        ),
        // Above the buttons: what to look at before approving.
        matches,
        h(
          "div",
          { class: "actions" },
          item.status !== "approved" ? act(t("review.approve"), () => ({ status: "approved" })) : null,
          ...(item.status !== "rejected"
            ? [h("label", { for: reasonId }, t("review.reason")), reason, act(t("review.reject"), rejection, "secondary")]
            : []),
          h("label", { for: placeId }, t("common.keptAt")),
          place,
          act(t("review.savePlace"), () => ({ storagePlace: place.value })),
          h("button", { type: "button", class: "danger", onclick: () => this.remove(item) }, t("common.delete")),
        ),
        labels,
        ...historyToggle(item, this.state),
      ),
    );
    if (matches) {
      this.matchBoxes.set(card, matches);
      this.matchesSeen.observe(card);
    }
    return card;
  }

  /** Where a pending report's likely matches go, once read; null for any other report. */
  matchesBox(item) {
    if (item.status !== "pending" || !isOpen(item)) return null;
    const box = h("div", { class: "review-matches", hidden: true });
    box.dataset.item = item.id;
    return box;
  }

  /** Reads and shows the likely matches of the report `box` belongs to (a few requests at a
   *  time), unless its card has left the list meanwhile (the list was read again). */
  async showMatches(box) {
    let matches;
    try {
      matches = await this.matchRequests(() => (box.isConnected ? fetchMatches(box.dataset.item, "id,title") : []));
    } catch {
      return; // The card stands without them; the item's view shows them or the error.
    }
    const likely = matches.filter((match) => match.likely).slice(0, MATCHES_SHOWN);
    if (likely.length === 0 || !box.isConnected) return;
    const headingId = `review-matches-${box.dataset.item}`;
    box.replaceChildren(
      h("h4", { id: headingId }, t("review.likelyMatches")),
      h("ul", { "aria-labelledby": headingId }, ...likely.map((match) => {
        const why = whyWords(match);
        return h("li", {},
          h("button", { type: "button", class: "link", onclick: () => this.dialog.open(match.item.id) }, match.item.title),
          h("span", { class: "meta" }, ` · ${t("review.matchScore", { percent: scorePercent(match.score) })}`, why ? ` · ${why}` : ""));
      })));
    box.hidden = false;
  }

  async update(item, patch, label) {
    // Only the id back: without `fields` the answer would carry the whole photo.
    if (!(await attempt("PATCH", `/api/items/${item.id}?fields=id`, patch))) return;
    showNotice(t("review.done", { action: label, title: item.title }));
    await this.refreshAfter(item, label);
  }

  async remove(item) {
    const deleted = await confirmFirst({
      question: t("review.deleteConfirm", { title: item.title }),
      confirm: t("common.delete"),
      act: () => attempt("DELETE", `/api/items/${item.id}`),
    });
    if (!deleted) return;
    showNotice(t("review.deleted", { title: item.title }));
    this.chosen.forget(item.id);
    await this.refreshAfter(item, t("common.delete"));
  }
}
