// My reports, for a logged-in user: the claims they made and what became of them (an open
// one can be withdrawn, an accepted one can be posted instead, a collected one has its
// receipt; each has its conversation with the desk), then everything they reported, in every state, a page at a time,
// each with its state, where it is kept (while it is), the reports of the other kind that are
// likely the same object, and Close report while it is open. A lost report's likely matches
// each have This is mine (the found item's claim form) and Not mine (gone, with Undo).
import { attempt, itemTitles, itemsUrl } from "./api.js";
import { showNotice } from "./announce.js";
import { CARD_FIELDS, itemCard } from "./cards.js";
import { conversation } from "./conversation.js";
import { ITEMS_CHANGED, closeReport, isOpen, withdrawClaim } from "./custody.js";
import { h, formatTime } from "./dom.js";
import { formatDistance, t, tn } from "./i18n.js";
import { MATCHES_CHANGED, fetchMatches, suggestion, whyWords } from "./matches.js";
import { PAGE_SIZE, Pager } from "./pager.js";
import { postLine, postRequestForm, receiptLink, settledLine } from "./pickup.js";

const FIELDS = [...CARD_FIELDS, "storagePlace"].join(",");
/** How many of a report's likely matches its card names (the item view lists them all). */
const MATCHES_SHOWN = 3;
const CLAIM_STATES = {
  get open() { return t("mine.claim.open"); },
  get accepted() { return t("mine.claim.accepted"); },
  get rejected() { return t("mine.claim.rejected"); },
  get withdrawn() { return t("mine.claim.withdrawn"); },
  get collected() { return t("mine.claim.collected"); },
  get posted() { return t("mine.claim.posted"); },
  get cancelled() { return t("mine.claim.cancelled"); },
};

// What a report's matches are to its reporter.
const MATCH_WORDS = { get lost() { return t("mine.matches.lost"); }, get found() { return t("mine.matches.found"); } };

export class Mine {
  constructor(state, dialog) {
    this.state = state;
    this.dialog = dialog;
    this.hint = document.getElementById("mine-login-hint");
    this.pager = new Pager({
      list: document.getElementById("mine-list"),
      count: document.getElementById("mine-count"),
      empty: t("mine.empty"),
      render: (item) => {
        const open = isOpen(item);
        const card = itemCard(item, (id) => dialog.open(id), {
          // Where it is, while it is there: not once returned, disposed of or closed.
          extra: open && item.storagePlace ? [h("span", { class: "meta" }, t("due.keptAt", { place: item.storagePlace }))] : [],
        });
        if (open) {
          card.append(h("p", { class: "card-actions" },
            // Named with the report, for screen readers going through the buttons.
            h("button", { type: "button", class: "secondary", "aria-label": t("mine.closeReportOf", { title: item.title }), onclick: () => this.close(item) },
              t("common.closeReport"))));
          this.addMatches(card, item);
        }
        return card;
      },
    });
    this.view = document.getElementById("view-mine");
    // Closed from an item's view, or a match said not to be the reader's there: the list
    // reads again.
    for (const event of [ITEMS_CHANGED, MATCHES_CHANGED]) window.addEventListener(event, () => !this.view.hidden && this.show());
  }

  async close(item) {
    // The list reads again (ITEMS_CHANGED): the card comes back closed.
    if (!(await closeReport(item))) return;
    showNotice(t("notice.closed", { title: item.title }));
    document.getElementById("mine-heading").focus();
  }

  /** Names, below the card (outside its button), the likely matches of report `item`, best
   *  first: for a lost report each with This is mine and Not mine, for a found one by name. */
  async addMatches(card, item) {
    let matches;
    try {
      matches = await fetchMatches(item.id, "id,title");
    } catch {
      return; // The card stands without them; the item view shows them or the error.
    }
    const likely = matches.filter((match) => match.likely);
    if (likely.length === 0) return;
    const shown = likely.slice(0, MATCHES_SHOWN);
    const more = likely.length - shown.length;
    const lead = `${MATCH_WORDS[item.kind]}: `;
    const open = (other) => h("button", { type: "button", class: "link", onclick: () => this.dialog.open(other.id) }, other.title);
    const distance = (match) => h("span", { class: "meta" }, ` (${formatDistance(match.distance)})`);
    if (item.kind !== "lost") {
      const links = shown.flatMap((match, index) => [index > 0 ? ", " : "", open(match.item), distance(match)]);
      card.append(h("p", { class: "card-matches" }, lead, ...links, more > 0 ? tn("mine.andMore", more) : ""));
      return;
    }
    const rows = shown.map((match) => {
      const why = whyWords(match);
      return suggestion(match, {
        title: open(match.item),
        details: [distance(match), why ? h("span", { class: "why" }, why) : null],
        claim: (id) => this.dialog.open(id, { claim: true }),
      });
    });
    if (more > 0) {
      rows.push(h("li", { class: "more-matches" },
        h("button", { type: "button", class: "link", onclick: () => this.dialog.open(item.id) }, tn("mine.moreLikely", more))));
    }
    const leadId = `matches-of-${item.id}`;
    card.append(h("div", { class: "card-matches suggestions" },
      h("p", { id: leadId }, lead),
      h("ul", { "aria-labelledby": leadId }, ...rows)));
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
    const claims = await attempt("GET", "/api/claims");
    if (!claims) return;
    const titles = await itemTitles(claims.map((c) => c.itemId));
    // Where to collect what was handed over, when the office says (LOSTFOUND_OFFICE).
    const office = this.state.access?.office;
    const entries = claims.map((claim) =>
      h("li", {},
        h("button", { type: "button", class: "link", onclick: () => this.dialog.open(claim.itemId) }, titles.get(claim.itemId)),
        ` · ${t("mine.claimedOn", { date: formatTime(claim.created_at) })} · ${CLAIM_STATES[claim.status] ?? claim.status}`,
        claim.status === "open"
          ? [" ", h("button", {
              type: "button",
              class: "danger secondary",
              "aria-label": t("mine.withdrawOn", { title: titles.get(claim.itemId) }),
              onclick: () => this.withdraw(claim, titles.get(claim.itemId)),
            }, t("common.withdrawClaim"))]
          : null,
        claim.status === "accepted" && office ? h("p", { class: "meta" }, t("claim.collectAt", { office })) : null,
        claim.status === "accepted" && !claim.post ? postRequestForm(claim, titles.get(claim.itemId), () => this.showClaims()) : null,
        claim.post ? h("p", { class: "meta" }, postLine(claim)) : null,
        claim.status === "cancelled" ? h("p", { class: "meta" }, settledLine(claim)) : null,
        claim.status === "collected" ? h("p", {}, receiptLink(claim)) : null,
        conversation(claim, { desk: false })));
    document.getElementById("my-claims-list").replaceChildren(...entries);
    section.hidden = entries.length === 0;
  }

  async withdraw(claim, title) {
    if (!(await withdrawClaim(claim, title))) return;
    await this.showClaims();
    document.getElementById("my-claims-heading").focus();
  }
}
