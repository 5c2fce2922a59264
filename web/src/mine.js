// My reports, for a logged-in user: the claims they made and what became of them (an open
// one can be withdrawn), then everything they reported, in every state, a page at a time,
// each with its state, where it is kept (while it is), the reports of the other kind that
// may be the same object, and Close report while it is open.
import { api, attempt, itemTitles, itemsUrl } from "./api.js";
import { showNotice } from "./announce.js";
import { CARD_FIELDS, itemCard } from "./cards.js";
import { ITEMS_CHANGED, closeReport, isOpen, withdrawClaim } from "./custody.js";
import { h, formatTime } from "./dom.js";
import { formatDistance, t, tn } from "./i18n.js";
import { PAGE_SIZE, Pager } from "./pager.js";

const FIELDS = [...CARD_FIELDS, "storagePlace"].join(",");
/** How many of a report's matches its card names (the item view lists them all). */
const MATCHES_SHOWN = 3;
const CLAIM_STATES = {
  get open() { return t("mine.claim.open"); },
  get accepted() { return t("mine.claim.accepted"); },
  get rejected() { return t("mine.claim.rejected"); },
  get withdrawn() { return t("mine.claim.withdrawn"); },
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
    // Closed from an item's view: the list reads again.
    window.addEventListener(ITEMS_CHANGED, () => !this.view.hidden && this.show());
  }

  async close(item) {
    // The list reads again (ITEMS_CHANGED): the card comes back closed.
    if (!(await closeReport(item))) return;
    showNotice(t("notice.closed", { title: item.title }));
    document.getElementById("mine-heading").focus();
  }

  /** Names, below the card (outside its button), the best matches of report `item`. */
  async addMatches(card, item) {
    let matches;
    try {
      matches = await api("GET", `/api/items/${item.id}/matches?fields=id,title`);
    } catch {
      return; // The card stands without them; the item view shows them or the error.
    }
    if (matches.length === 0) return;
    const links = matches.slice(0, MATCHES_SHOWN).flatMap(({ item: other, distance }, index) => [
      index > 0 ? ", " : "",
      h("button", { type: "button", class: "link", onclick: () => this.dialog.open(other.id) }, other.title),
      ` (${formatDistance(distance)})`,
    ]);
    const more = matches.length > MATCHES_SHOWN ? tn("mine.andMore", matches.length - MATCHES_SHOWN) : "";
    card.append(h("p", { class: "card-matches" }, `${MATCH_WORDS[item.kind]}: `, ...links, more));
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
        claim.status === "accepted" && office ? h("p", { class: "meta" }, t("claim.collectAt", { office })) : null));
    document.getElementById("my-claims-list").replaceChildren(...entries);
    section.hidden = entries.length === 0;
  }

  async withdraw(claim, title) {
    if (!(await withdrawClaim(claim, title))) return;
    await this.showClaims();
    document.getElementById("my-claims-heading").focus();
  }
}
