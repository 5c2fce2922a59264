// The item view: every field, the full photo (only here: lists show thumbnails), where it was
// (in words, then on a small map), where it is kept or what became of it, and its live
// thread. Its reporter and staff close the report there; staff also print its label and see
// who handed it in and how long it is kept. A user who claimed it sees their claim: withdraw
// it while open, and where to collect the item once accepted. Its matches say briefly why;
// its reporter sees the likely ones first (for a lost report with This is mine and Not mine)
// and the others behind "Less likely", everyone else the list with the likely ones marked.
import { api, attempt } from "./api.js";
import { announceWithin, clearAnnouncements, showError, showNotice } from "./announce.js";
import { entryButton, KINDS, PUBLIC_STATES } from "./cards.js";
import { OUTCOME_FIELDS, closeReport, isOpen, methodWords, outcomeBadge, withdrawClaim } from "./custody.js";
import { categoryName, isSensitive } from "./categories.js";
import { disclose } from "./disclosure.js";
import { editReport } from "./edit.js";
import { h, formatTime } from "./dom.js";
import { sendForm } from "./fields.js";
import { formatDistance, formatNumber, t } from "./i18n.js";
import { siteName, worksAt } from "./desks.js";
import { printLabels } from "./labels.js";
import { L, createMap } from "./map.js";
import { MATCHES_CHANGED, fetchMatches, likelyBadge, suggestion, whyWords } from "./matches.js";
import { itemCircle, itemPin } from "./markers.js";
import { appendMessage, sendMessage, showHistory } from "./messages.js";
import { fillNick } from "./nick.js";
import { receiptLink } from "./pickup.js";
import { moveToBin, receiveHere, sendToDesk } from "./shelving.js";
import { socket } from "./socket.js";
import { showTitle } from "./title.js";
import { whenWords } from "./when.js";

const FIELDS = [
  "id", "title", "desc", "cat", "kind", "place", "lat", "lng", "radius", "status", "storagePlace", "created_at", "createdBy",
  "photoUrl", "siteId", "happenedFrom", "happenedUntil", ...OUTCOME_FIELDS,
].join(",");
/** What staff see besides: who handed a found item in, how long it is kept, its bin, and
 *  the desk it is on its way to. */
const STAFF_FIELDS = `${FIELDS},finder,verification,holdUntil,binId,transitTo`;
/** How the user's own claim reads, by its state. */
const CLAIM_WORDS = {
  get open() { return t("item.claim.open"); },
  get accepted() { return t("item.claim.accepted"); },
  get rejected() { return t("item.claim.rejected"); },
  get withdrawn() { return t("item.claim.withdrawn"); },
  get collected() { return t("item.claim.collected"); },
  get posted() { return t("item.claim.posted"); },
  get cancelled() { return t("item.claim.cancelled"); },
};
const MATCH_FIELDS = "id,title,kind";
/** The closest the small map zooms in, for an item found within a few metres. */
const MAP_MAX_ZOOM = 18;
// What the matches of an item are to the person looking at it.
const MATCHES_HEADING = { get lost() { return t("item.matches.lost"); }, get found() { return t("item.matches.found"); } };

export class ItemDialog {
  constructor(state) {
    this.state = state;
    this.itemId = null;
    this.dialog = document.getElementById("item-dialog");
    this.log = document.getElementById("thread-log");
    this.form = document.getElementById("thread-form");
    this.claimForm = document.getElementById("claim-form");
    // The reporter's less likely matches, behind a button that shows them.
    this.lessLikelyButton = document.getElementById("less-likely-toggle");
    this.showLessLikely = disclose(this.lessLikelyButton, document.getElementById("less-likely-list"));
    this.claimForm.addEventListener("submit", (event) => this.claim(event));
    // Closed with × or Escape: the address goes back at once, in the same task as the click
    // or the key (the dialog's close event comes a task later, after a card clicked meanwhile).
    document.getElementById("item-close").addEventListener("click", () => {
      this.leaveAddress();
      this.dialog.close();
    });
    this.dialog.addEventListener("cancel", () => this.leaveAddress());
    // Closed some other way while its address still shows (not by Back, which changed the
    // address first): the address goes back too.
    this.dialog.addEventListener("close", () => {
      const shown = this.itemId;
      refocus(this.opener);
      this.opener = null;
      this.leave();
      if (!closingItem() && shown !== null && itemIn(location.hash) === shown) this.leaveAddress();
    });
    this.form.addEventListener("submit", (event) => this.say(event));
    socket.on("thread:history", ({ itemId, msgs }) => {
      if (itemId === this.itemId) showHistory(this.log, msgs, this.state.user);
    });
    socket.on("thread:new", ({ itemId, msg }) => {
      if (itemId === this.itemId) appendMessage(this.log, msg, this.state.user);
    });
    // After a reconnection (or a login) the thread is joined again.
    socket.on("connect", () => this.itemId && this.join());
  }

  /** Opens item `id` at its own address (`#/items/ID`, over the screen shown): the router
   *  shows it (app.js), and Back, or closing it, goes back to where it was opened. With
   *  `claim`, the focus goes to its claim form (or to the reader's claim, when they made one). */
  async open(id, { claim = false } = {}) {
    await closed();
    this.toClaim = claim ? id : null;
    // An item opened from another's view: closing goes back past both.
    const depth = itemIn(location.hash) ? itemDepth() : 0;
    history.pushState({ itemDepth: depth + 1 }, "", `#/items/${id}`);
    window.dispatchEvent(new HashChangeEvent("hashchange"));
  }

  isOpen() {
    return this.dialog.open;
  }

  hide() {
    this.dialog.close();
  }

  /** The desk that holds a found item, where it is, when it is open and what to bring;
   *  `null` for a lost report, or when the service has one desk and says nothing of it. */
  siteField(item) {
    const sites = this.state.sites ?? [];
    const site = sites.find((s) => s.id === item.siteId);
    if (item.kind !== "found" || !site) return null;
    const details = [site.place, site.hours, site.collect].filter(Boolean);
    if (sites.length < 2 && details.length === 0) return null;
    return [t("item.site"), [site.name, ...details].join(" · ")];
  }

  /** Shows item `id` (again, after a change); the router calls it for `#/items/ID`. */
  async show(id) {
    const staff = Boolean(this.state.user?.isAdmin);
    const item = await attempt("GET", `/api/items/${id}?fields=${staff ? STAFF_FIELDS : FIELDS}`);
    if (!item) return;
    if (this.itemId !== null) this.leave();
    this.itemId = item.id;
    this.item = item;
    document.getElementById("item-title").textContent = item.title;
    showTitle(item.title);
    const photo = document.getElementById("item-photo");
    photo.hidden = !item.photoUrl;
    if (item.photoUrl) {
      photo.src = item.photoUrl;
      photo.alt = t("item.photoOf", { title: item.title });
    } else {
      photo.removeAttribute("src");
    }
    const badge = outcomeBadge(item);
    const badges = document.getElementById("item-badges");
    badges.replaceChildren(...(badge ? [badge] : []));
    badges.hidden = !badge;
    const open = isOpen(item);
    // The public view leaves out who reported it and where it is kept, and, for a sensitive
    // category, its description and photo: what only its owner should be able to tell.
    const whole = item.createdBy != null;
    const fields = [
      [t("common.description"), item.desc ?? (whole || !isSensitive(item.cat) ? "—" : t("item.descWithheld"))],
      [t("common.kind"), KINDS[item.kind] ?? "—"],
      [t("common.category"), item.cat ? categoryName(item.cat) : "—"],
      [t("common.status"), PUBLIC_STATES[item.status] ?? item.status],
      // Only while it is on the shelf: once returned or disposed of, it is no longer there.
      open && whole ? [t("common.keptAt"), item.storagePlace ?? t("item.notRecorded")] : null,
      [t("item.reported"), whole ? t("item.reportedBy", { date: formatTime(item.created_at), user: item.createdBy }) : formatTime(item.created_at)],
      [t("item.where"), whereWords(item)],
      whenWords(item) ? [item.kind === "found" ? t("when.found") : t("when.lost"), whenWords(item)] : null,
      this.siteField(item),
      item.transitTo ? [t("item.inTransit"), t("desks.to", { site: siteName(this.state, item.transitTo) })] : null,
      item.returnedAt ? [t("outcome.returned"), formatTime(item.returnedAt)] : null,
      item.disposedAt ? [t("item.disposedOf"), disposalWords(item)] : null,
      item.closedAt ? [t("outcome.closed"), formatTime(item.closedAt)] : null,
      staff && item.finder ? [t("item.handedInBy"), [item.finder.name, item.finder.contact].filter(Boolean).join(" · ")] : null,
      staff && item.verification ? [t("review.verification"), item.verification] : null,
      staff && item.holdUntil && open ? [t("item.keptUntil"), formatTime(item.holdUntil)] : null,
    ].filter(Boolean);
    document.getElementById("item-fields").replaceChildren(...fields.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]));
    const user = this.state.user;
    this.showActions(item);
    this.claimForm.hidden = !(item.kind === "found" && item.status === "approved" && open
      && user && user.id !== item.createdBy);
    this.claimForm.reset();
    const claimShown = this.showClaim(item);
    // Opened by "This is mine": at the claim form, once it is known whether it shows.
    if (this.toClaim === item.id) {
      this.toClaim = null;
      claimShown.then(() => item.id === this.itemId && this.focusClaim());
    }
    this.showMatches(item);
    this.log.replaceChildren();
    fillNick(this.form.elements.nick, this.state.user);
    if (!this.dialog.open) {
      this.opener = returnPoint(document.activeElement);
      // What the screen behind said was about it, not this item.
      clearAnnouncements();
      this.dialog.showModal();
    }
    this.showOnMap(item);
    // Also when it was open (another item, or this one again): leave() took them out.
    announceWithin(this.dialog);
    this.join();
  }

  join() {
    socket.emit("thread:join", { itemId: this.itemId });
  }

  /** The item's pin and circle on the view's small map: made for the first item, once the
   *  dialog shows (Leaflet measures its box), and used again for every other. */
  showOnMap(item) {
    if (!this.map) {
      this.map = createMap(document.getElementById("item-map"), this.state.config);
      this.where = L.layerGroup().addTo(this.map);
    }
    this.map.invalidateSize();
    this.where.clearLayers();
    const circle = itemCircle(item).addTo(this.where);
    itemPin(item).addTo(this.where);
    this.map.fitBounds(circle.getBounds(), { padding: [16, 16], maxZoom: MAP_MAX_ZOOM, animate: false });
  }

  /** Close report (its reporter and staff, while open) and Print label (staff, found items). */
  showActions(item) {
    const user = this.state.user;
    const buttons = [];
    if (user?.isAdmin && item.kind === "found") {
      buttons.push(h("button", { type: "button", class: "secondary", onclick: () => this.printLabel(item) }, t("common.printLabel")));
    }
    // Where it is kept: its desk's staff move it between bins and send it to another desk;
    // the desk it travels to receives it.
    const held = item.kind === "found" && item.status === "approved" && isOpen(item);
    const button = (words, question, done, secondary = true) =>
      h("button", { type: "button", class: secondary ? "secondary" : null, onclick: () => this.shelved(item, question(), done) }, words);
    const said = { title: item.title };
    if (held && !item.transitTo && worksAt(user, item.siteId)) {
      buttons.push(button(t("shelving.move"), () => moveToBin(item), t("shelving.moved", said)));
      if ((this.state.sites ?? []).length > 1) {
        buttons.push(button(t("shelving.send"), () => sendToDesk(item, this.state.sites), t("shelving.sent", said)));
      }
    }
    if (item.transitTo && worksAt(user, item.transitTo)) {
      buttons.push(button(t("desks.receive"), () => receiveHere(item), t("desks.received", said), false));
    }
    // Its reporter corrects it while it is open; its desk's staff at any time.
    if (user && ((isOpen(item) && user.id === item.createdBy) || worksAt(user, item.siteId))) {
      buttons.push(h("button", { type: "button", class: "secondary", onclick: () => this.edit(item) }, t("edit.button")));
    }
    if (isOpen(item) && user && (user.isAdmin || user.id === item.createdBy)) {
      buttons.push(h("button", { type: "button", class: "danger secondary", onclick: () => this.close(item) }, t("common.closeReport")));
    }
    const actions = document.getElementById("item-actions");
    actions.replaceChildren(...buttons);
    actions.hidden = buttons.length === 0;
  }

  /** Once staff answered a question about where `item` is, shows it as it now is and says
   *  `done`; nothing when they cancelled. */
  async shelved(item, question, done) {
    if (!(await question) || item.id !== this.itemId) return;
    await this.show(item.id);
    showNotice(done);
    document.getElementById("item-title").focus();
  }

  /** The label's screen, after the item's view in the history: the router closes the view. */
  printLabel(item) {
    printLabels([item.id]);
  }

  async edit(item) {
    const edited = await editReport(item);
    if (!edited || item.id !== this.itemId) return;
    await this.show(item.id);
    const said = { title: this.item.title };
    const waits = edited.status === "pending" && item.status !== "pending";
    showNotice(waits ? t("edit.savedForReview", said) : t("edit.saved", said));
    document.getElementById("item-title").focus();
  }

  async close(item) {
    const closed = await closeReport(item);
    if (!closed || item.id !== this.itemId) return;
    await this.show(item.id);
    showNotice(t("notice.closed", { title: item.title }));
    document.getElementById("item-title").focus();
  }

  /** The user's own claim on a found item, if any: its state, Withdraw while it is open,
   *  where to collect the item once it is accepted, its receipt once collected. */
  async showClaim(item) {
    const section = document.getElementById("item-claim");
    section.hidden = true;
    const user = this.state.user;
    if (item.kind !== "found" || !user || user.isAdmin || user.id === item.createdBy) return;
    let claims;
    try {
      claims = await api("GET", `/api/items/${item.id}/claims`);
    } catch {
      return; // The view stands without it; My reports lists the claims.
    }
    if (item.id !== this.itemId || this.state.user?.id !== user.id) return;
    // Only the user's own come; the newest counts (an older one was decided or withdrawn).
    const [claim] = claims;
    if (!claim) return;
    if (claim.status === "open" || claim.status === "accepted") this.claimForm.hidden = true;
    const office = this.state.access?.office;
    const body = [h("p", {}, CLAIM_WORDS[claim.status] ?? claim.status, " ", h("span", { class: "meta" }, t("item.claimedOn", { date: formatTime(claim.created_at) })))];
    if (claim.status === "accepted") {
      // The desk and how to reach it, never the shelf.
      const site = this.siteField(item)?.[1];
      const where = site ? t("item.pickupAt", { desk: site }) : office ? t("claim.collectAt", { office }) : t("item.collectOffice");
      body.push(h("p", { class: "collect" }, where));
    }
    if (claim.status === "cancelled") body.push(h("p", {}, claim.cancellation.reason));
    if (claim.status === "collected") body.push(h("p", {}, receiptLink(claim)));
    if (claim.status === "open") {
      body.push(h("p", { class: "actions" },
        h("button", { type: "button", class: "danger secondary", onclick: () => this.withdraw(item, claim) }, t("common.withdrawClaim"))));
    }
    document.getElementById("item-claim-body").replaceChildren(...body);
    section.hidden = false;
  }

  /** Scrolls to the claim form and focuses its message, or the reader's claim if they made
   *  one (the form is then hidden). */
  focusClaim() {
    const target = !this.claimForm.hidden
      ? this.claimForm.elements.message
      : !document.getElementById("item-claim").hidden ? document.getElementById("item-claim-heading") : null;
    if (!target) return;
    target.scrollIntoView({ block: "center" });
    target.focus({ preventScroll: true });
  }

  async withdraw(item, claim) {
    if (!(await withdrawClaim(claim, item.title))) return;
    if (item.id === this.itemId) await this.show(item.id);
    document.getElementById("item-claim-heading").focus();
  }

  /** Lists the approved items of the other kind that may be the same object, best first,
   *  each with why; none, or the item no longer open: nothing. Its reporter sees the likely
   *  ones (for a lost report with This is mine and Not mine) and the others behind "Less
   *  likely"; anyone else all of them, the likely ones marked. */
  async showMatches(item) {
    const section = document.getElementById("item-matches");
    section.hidden = true;
    // Returned, disposed of or closed: nothing left to match.
    if (!isOpen(item)) return;
    let matches;
    try {
      matches = await fetchMatches(item.id, MATCH_FIELDS);
    } catch (error) {
      if (item.id === this.itemId) showError(error.message);
      return;
    }
    if (item.id !== this.itemId || matches.length === 0) return;
    document.getElementById("matches-heading").textContent = MATCHES_HEADING[item.kind];
    const list = document.getElementById("match-list");
    const rest = document.getElementById("less-likely");
    const restList = document.getElementById("less-likely-list");
    const note = document.getElementById("no-likely");
    const reporter = this.state.user?.id === item.createdBy;
    if (!reporter) {
      list.replaceChildren(...matches.map((match) => this.matchEntry(match, { marked: true })));
      rest.hidden = true;
      note.hidden = true;
      section.hidden = false;
      return;
    }
    const entry = item.kind === "lost" ? (match) => this.suggestionEntry(match) : (match) => this.matchEntry(match);
    const likely = matches.filter((match) => match.likely);
    const others = matches.filter((match) => !match.likely);
    list.replaceChildren(...likely.map(entry));
    note.hidden = likely.length > 0;
    restList.replaceChildren(...others.map(entry));
    rest.hidden = others.length === 0;
    this.lessLikelyButton.textContent = t("item.lessLikely", { count: formatNumber(others.length) });
    this.showLessLikely(false);
    section.hidden = false;
  }

  /** A match as a link with how far and why; `marked`: the likely ones say so. */
  matchEntry(match, { marked = false } = {}) {
    const [distance, why] = this.matchDetails(match);
    return h("li", {}, h("a", { href: `#/items/${match.item.id}` }, match.item.title), distance,
      marked && match.likely ? [" ", likelyBadge()] : null, why);
  }

  /** A match of the reader's lost report, with This is mine and Not mine. */
  suggestionEntry(match) {
    return suggestion(match, {
      title: h("a", { href: `#/items/${match.item.id}` }, match.item.title),
      details: this.matchDetails(match),
      claim: (id) => this.open(id, { claim: true }),
      onChange: (id) => window.dispatchEvent(new CustomEvent(MATCHES_CHANGED, { detail: { id } })),
    });
  }

  matchDetails(match) {
    const why = whyWords(match);
    return [
      h("span", { class: "meta" }, ` · ${t("item.away", { distance: formatDistance(match.distance) })}`),
      why ? h("span", { class: "why" }, why) : null,
    ];
  }

  async claim(event) {
    event.preventDefault();
    const message = this.claimForm.elements.message.value;
    const id = this.itemId;
    if (!(await sendForm(this.claimForm, "POST", `/api/items/${id}/claims`, { message }))) return;
    this.claimForm.hidden = true;
    showNotice(t("item.claimSent"));
    if (id === this.itemId) this.showClaim(this.item);
  }

  leave() {
    if (this.itemId === null) return;
    announceWithin();
    socket.emit("thread:leave", { itemId: this.itemId });
    this.itemId = null;
  }

  /** Back to the screen's address, where the item was opened. Not after Back, which changed
   *  the address first. */
  leaveAddress() {
    if (!itemIn(location.hash)) return;
    closing = new Promise((resolve) =>
      window.addEventListener("popstate", () => {
        closing = null;
        resolve();
      }, { once: true }),
    );
    history.go(-itemDepth());
  }

  say(event) {
    event.preventDefault();
    sendMessage(this.form, this.state.user, "thread:send", { itemId: this.itemId });
  }
}

/** The history step that closes an item, while it is under way. The step is taken after
 *  the click that asked it: an address pushed in between (a card, a link clicked at once)
 *  would be the one it steps back from. */
let closing = null;

/** Settles once no item's closing step is under way: at once, mostly. */
export function closed() {
  return closing ?? Promise.resolve();
}

/** Whether an item's closing step is under way. */
export function closingItem() {
  return closing !== null;
}

/** Where the focus goes back to when an item's view closes (WCAG 2.4.3): what opened it, and
 *  the item its card shows, should the list be drawn again meanwhile; null from the page. */
function returnPoint(element) {
  if (!element || element === document.body) return null;
  return { element, item: element.closest("[data-item]")?.dataset.item };
}

/** Back to `opener` (a `returnPoint`), or its item's card drawn again, or the screen. */
function refocus(opener) {
  const view = document.querySelector("section.view:not([hidden])");
  const again = opener?.item && entryButton(view, opener.item);
  const target = opener?.element.isConnected && opener.element.checkVisibility() ? opener.element : again;
  (target ?? document.getElementById("main")).focus();
}

/** The item an address names: `#/items/ID`, or `#/browse/ID` as earlier releases wrote it
 *  (null: a screen's address). */
export function itemIn(hash) {
  const [, screen, id] = hash.split("/");
  return (screen === "items" || screen === "browse") && /^\d+$/.test(id ?? "") ? Number(id) : null;
}

/** Where the item was: its place in words first, when given, then its coordinates and radius. */
function whereWords(item) {
  const coordinates = t("item.place", { lat: item.lat.toFixed(5), lng: item.lng.toFixed(5), within: formatDistance(item.radius) });
  return item.place ? [h("span", { class: "where-place" }, item.place), h("span", { class: "meta" }, coordinates)] : coordinates;
}

/** How many item addresses in a row the history holds up to this one: one for an address
 *  followed from elsewhere (typed, a link), which the app always has a screen's before. */
function itemDepth() {
  return history.state?.itemDepth ?? 1;
}

/** The disposal of an item in words: "Donated on 3 Feb 2026, 10:15: to the Red Cross shop". */
function disposalWords(item) {
  const how = item.disposal ? methodWords(item.disposal.method) : t("item.disposedOf");
  const words = t("item.disposedOn", { how, date: formatTime(item.disposedAt) });
  return item.disposal?.note ? t("item.withNote", { text: words, note: item.disposal.note }) : words;
}
