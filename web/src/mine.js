// My reports, for a logged-in user: the claims they made and what became of them, then
// everything they reported, in every state, a page at a time, each with its state, where it
// is kept and the reports of the other kind that may be the same object.
import { api, attempt, itemTitles, itemsUrl } from "./api.js";
import { CARD_FIELDS, itemCard } from "./cards.js";
import { h, formatTime } from "./dom.js";
import { PAGE_SIZE, Pager } from "./pager.js";

const FIELDS = [...CARD_FIELDS, "storagePlace"].join(",");
/** How many of a report's matches its card names (the item view lists them all). */
const MATCHES_SHOWN = 3;
const CLAIM_STATES = {
  open: "waiting for staff",
  accepted: "accepted: collect it from the office",
  rejected: "not accepted",
  withdrawn: "withdrawn",
};

// What a report's matches are to its reporter.
const MATCH_WORDS = { lost: "May have been found", found: "May be what was lost" };

export class Mine {
  constructor(state, dialog) {
    this.state = state;
    this.dialog = dialog;
    this.hint = document.getElementById("mine-login-hint");
    this.pager = new Pager({
      list: document.getElementById("mine-list"),
      count: document.getElementById("mine-count"),
      empty: "You have not reported anything yet.",
      render: (item) => {
        const card = itemCard(item, (id) => dialog.open(id), {
          extra: item.storagePlace ? [h("span", { class: "meta" }, `Kept at ${item.storagePlace}`)] : [],
        });
        this.addMatches(card, item);
        return card;
      },
    });
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
      ` (${Math.round(distance)} m)`,
    ]);
    const more = matches.length > MATCHES_SHOWN ? ` and ${matches.length - MATCHES_SHOWN} more` : "";
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
        ` · claimed ${formatTime(claim.created_at)} · ${CLAIM_STATES[claim.status] ?? claim.status}`,
        claim.status === "accepted" && office ? h("p", { class: "meta" }, `Collect it at: ${office}`) : null));
    document.getElementById("my-claims-list").replaceChildren(...entries);
    section.hidden = entries.length === 0;
  }
}
