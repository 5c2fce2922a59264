// Browse: the items on a map and, equivalently, in a list, a page at a time (a phone shows
// one of the two, the list first); search, category, kind, state, "near me" and date
// filters, all answered by the service. A search comes best match first, or newest first
// when the reader chooses (the order is offered while the box has words). Items returned,
// disposed of or closed are left out unless "Show closed and returned" is ticked.
import { itemsUrl } from "./api.js";
import { showError } from "./announce.js";
import { CARD_FIELDS, itemCard } from "./cards.js";
import { addCategoryOptions } from "./categories.js";
import { ITEMS_CHANGED } from "./custody.js";
import { debounce } from "./debounce.js";
import { h } from "./dom.js";
import { deskLines } from "./desks.js";
import { currentPosition } from "./geolocation.js";
import { formatDistance, t } from "./i18n.js";
import { L, createMap } from "./map.js";
import { ItemMarkers } from "./markers.js";
import { PAGE_SIZE, Pager } from "./pager.js";

/** What the list and the map show of an item. */
const FIELDS = [...CARD_FIELDS, "lat", "lng", "radius"].join(",");
/** How long typing pauses before the search goes out. */
const TYPING_PAUSE_MS = 300;

export class Browse {
  constructor(state, dialog) {
    this.state = state;
    this.dialog = dialog;
    /** The device's position while "near me" is on. */
    this.here = null;
    this.form = document.getElementById("filters");
    this.nearStatus = document.getElementById("near-status");
    this.pager = new Pager({
      list: document.getElementById("item-list"),
      count: document.getElementById("result-count"),
      empty: t("browse.noItems"),
      render: (item) => itemCard(item, (id) => dialog.open(id), { showState: (i) => i.status !== "approved" }),
      onPage: (items, first) => this.showOnMap(items, first),
    });
    addCategoryOptions(this.form.elements.cat);
    // A service with one desk has nothing to choose between.
    const sites = state.sites ?? [];
    this.form.querySelector(".site-filter").hidden = sites.length < 2;
    this.form.elements.site.append(...sites.map((site) => h("option", { value: site.id }, site.name)));
    // The distances "near me" offers, as the language writes them.
    for (const option of this.form.elements.within.options) option.textContent = formatDistance(Number(option.value));
    const typed = debounce(() => this.search(), TYPING_PAUSE_MS);
    // The order of a search: offered as soon as there are words, and kept while they change.
    this.order = this.form.querySelector(".order");
    this.form.elements.q.addEventListener("input", () => {
      this.showOrder();
      typed();
    });
    // On a phone the filters but the words fold behind a button that says how many are set.
    this.filtersButton = document.getElementById("filters-toggle");
    this.filtersButton.addEventListener("click", () => {
      const open = this.filtersButton.getAttribute("aria-expanded") !== "true";
      this.filtersButton.setAttribute("aria-expanded", String(open));
    });
    this.countFilters();
    this.form.addEventListener("change", ({ target }) => {
      this.countFilters();
      if (target.name === "q") return; // searched as typed
      if (target.name === "near") this.toggleNear();
      else if (target.name !== "within" || this.here) this.search();
    });
    this.form.addEventListener("submit", (event) => event.preventDefault());
    // On a phone the list or the map shows (style.css), the list first.
    this.panes = document.querySelector("#view-browse .browse");
    this.switches = document.querySelectorAll(".browse-switch button");
    for (const button of this.switches) button.addEventListener("click", () => this.showAs(button.dataset.show));
    // Closed or disposed of from an item's view: the list and the map read again.
    const view = document.getElementById("view-browse");
    window.addEventListener(ITEMS_CHANGED, () => this.map && !view.hidden && this.search());
  }

  show() {
    // The box may have kept its words (a reload, Back): the order goes with them.
    this.showOrder();
    if (!this.map) {
      this.map = createMap(document.getElementById("browse-map"), this.state.config);
      this.markers = new ItemMarkers(this.map, (id) => this.dialog.open(id));
      this.nearCircle = L.circle([0, 0], { radius: 0, weight: 2, dashArray: "6 6", fill: false, interactive: false });
    }
    this.map.invalidateSize();
    this.search();
    // Visitors are told where the desks are and how to reach them.
    const sites = this.state.sites ?? [];
    const desks = document.getElementById("browse-desks");
    desks.hidden = Boolean(this.state.user) || sites.length === 0;
    if (!desks.hidden) document.getElementById("browse-desk-list").replaceChildren(...deskLines(sites));
  }

  /** Names the filters' button with how many of them narrow the list. */
  countFilters() {
    const f = this.form.elements;
    const set = [f.cat.value, f.site.value, f.kind.value, f.status.value !== "approved", f.since.value, f.near.checked, f.closed.checked]
      .filter(Boolean).length;
    this.filtersButton.textContent = set ? t("browse.filtersSet", { count: set }) : t("browse.filters");
  }

  /** Offers the order of a search while the box has words. */
  showOrder() {
    this.order.hidden = this.form.elements.q.value.trim() === "";
  }

  /** The list's address for the filters as they stand. */
  query() {
    const f = this.form.elements;
    const q = f.q.value.trim();
    const since = f.since.value ? new Date(`${f.since.value}T00:00`) : null; // the reader's midnight
    return itemsUrl({
      q,
      // Without words the list is newest first anyway: only a search is ordered.
      sort: q ? f.sort.value : "",
      cat: f.cat.value,
      site: f.site.value,
      kind: f.kind.value,
      status: f.status.value,
      since: since && !Number.isNaN(since.getTime()) ? since.toISOString() : "",
      near: this.here ? `${this.here.latitude},${this.here.longitude}` : "",
      within: this.here ? f.within.value : "",
      open: f.closed.checked ? "" : "true",
      fields: FIELDS,
      limit: PAGE_SIZE,
    });
  }

  /** Starts the list over from its first page. */
  search() {
    this.pager.start(this.query());
  }

  async toggleNear() {
    const box = this.form.elements.near;
    if (!box.checked) {
      this.here = null;
      this.nearStatus.textContent = "";
      this.search();
      return;
    }
    this.nearStatus.textContent = t("browse.locating");
    let here;
    try {
      here = await currentPosition();
    } catch (error) {
      box.checked = false;
      this.nearStatus.textContent = t("browse.everywhere", { reason: error.message });
      showError(error.message);
      return;
    }
    // Unticked while the device was looking: nothing to do.
    if (!box.checked) return;
    this.here = here;
    this.nearStatus.textContent = "";
    this.search();
  }

  /** `"list"` or `"map"`: which of the two a phone shows. */
  showAs(what) {
    this.panes.dataset.show = what;
    for (const button of this.switches) button.setAttribute("aria-pressed", String(button.dataset.show === what));
    if (what !== "map") return;
    this.map.invalidateSize();
    if (this.unfitted) this.fitMap();
  }

  showOnMap(items, first) {
    if (first) this.markers.clear();
    this.markers.add(items);
    if (first) this.fitMap();
  }

  /** A new query: the map moves to where its items are, or around the reader searching near
   *  them. A hidden map (a phone showing the list) has no size to fit: it moves once shown. */
  fitMap() {
    if (this.here) {
      const within = Number(this.form.elements.within.value);
      this.nearCircle.setLatLng([this.here.latitude, this.here.longitude]).setRadius(within).addTo(this.map);
    } else {
      this.nearCircle.remove();
    }
    this.unfitted = this.map.getContainer().offsetWidth === 0;
    if (this.unfitted) return;
    // Not animated: Leaflet ignores a new view while a zoom animation runs.
    if (this.here) this.map.fitBounds(this.nearCircle.getBounds(), { animate: false });
    else this.markers.fit();
  }
}
