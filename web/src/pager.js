// A list of items loaded a page at a time: the first page when a query starts, the next one
// (the answer's `Link: rel="next"`) when the end of the list comes into view, or when "Show
// more" is pressed; and how many are shown of how many match.
import { fetchPage } from "./api.js";
import { showError } from "./announce.js";
import { entryButton } from "./cards.js";
import { h } from "./dom.js";
import { formatNumber, t, tn } from "./i18n.js";
import { latestOnly } from "./latest.js";

/** Items a page: a screenful or two of the list, and its thumbnails, at a time. */
export const PAGE_SIZE = 24;

export class Pager {
  /**
   * `list` (a <ul>) gets `render(item)` for each item, `count` (an element) the "N of TOTAL"
   * text, or `empty` when nothing matches. `onPage(items, first)` hears of every page.
   */
  constructor({ list, count, render, empty = t("pager.nothing"), onPage = () => {} }) {
    Object.assign(this, { list, count, render, empty, onPage });
    this.items = [];
    this.next = null;
    this.total = 0;
    /** Whether the total is the service's estimate. */
    this.estimated = false;
    /** Each shown item's entry, by id. */
    this.entries = new Map();
    this.loading = false;
    // A query started while a page is on its way makes that page's answer stale: dropped.
    this.fetch = latestOnly(fetchPage);
    this.more = h("button", { type: "button", class: "more", hidden: true, onclick: () => this.loadNext() }, t("pager.more"));
    list.after(this.more);
    // The button is the sentinel: nearly in view means the reader is at the end of the list.
    // (scrollMargin reaches into a scrolling list pane, rootMargin below the window's edge.)
    this.observer = new IntersectionObserver(
      (entries) => entries.some((entry) => entry.isIntersecting) && this.loadNext(),
      { rootMargin: "0px 0px 300px 0px", scrollMargin: "300px" },
    );
    this.observer.observe(this.more);
  }

  /** Starts over from the first page of `url`; settles once it is shown. */
  start(url) {
    this.next = null;
    return this.load(url, true);
  }

  /** Empties the list (an answer already on its way still lands, unless a query starts). */
  clear() {
    this.items = [];
    this.entries.clear();
    this.next = null;
    this.total = 0;
    this.estimated = false;
    this.list.replaceChildren();
    this.count.textContent = "";
    this.more.hidden = true;
  }

  /** The list drawn anew with `entries`. With the focus on an item's entry (given back there
   *  when the item's view closed), the focus stays with that item (WCAG 2.4.3). */
  redraw(entries) {
    const focused = this.list.contains(document.activeElement) && document.activeElement.closest("[data-item]")?.dataset.item;
    this.list.replaceChildren(...entries);
    if (focused) entryButton(this.list, focused)?.focus();
  }

  loadNext() {
    if (this.next && !this.loading) this.load(this.next, false);
  }

  async load(url, first) {
    this.loading = true;
    this.list.setAttribute("aria-busy", "true");
    let page;
    try {
      page = await this.fetch(url);
    } catch (error) {
      this.loading = false;
      this.list.removeAttribute("aria-busy");
      showError(error.message);
      return;
    }
    this.loading = false;
    this.list.removeAttribute("aria-busy");
    if (first) {
      this.items = [];
      this.entries.clear();
    }
    this.items.push(...page.items);
    this.next = page.next;
    this.total = page.total;
    const rendered = page.items.map((item) => {
      const entry = this.render(item);
      this.entries.set(item.id, entry);
      return entry;
    });
    if (first) this.redraw(rendered);
    else this.list.append(...rendered);
    this.estimated = page.estimated;
    this.count.textContent = countText(this.items.length, page.total, this.estimated, this.empty);
    this.more.hidden = !this.next;
    this.onPage(page.items, first);
    // The observer speaks only when the button enters or leaves the view: when a page was not
    // enough to push it out, looking again asks for the next one.
    this.observer.unobserve(this.more);
    this.observer.observe(this.more);
  }

  /** Takes item `id` out of the list and its count (it no longer matches: it was acted on);
   *  returns the entry that followed it, or else the one before (null: none), for the focus. */
  remove(id) {
    const entry = this.entries.get(id);
    if (!entry) return null;
    const neighbour = entry.nextElementSibling ?? entry.previousElementSibling;
    entry.remove();
    this.entries.delete(id);
    this.items = this.items.filter((item) => item.id !== id);
    this.total = Math.max(0, this.total - 1);
    this.count.textContent = countText(this.items.length, this.total, this.estimated, this.empty);
    return neighbour;
  }
}

/** "24 of 162 items", or "24 of about 71,000 items" past what the service counts exactly. */
function countText(shown, total, estimated, empty) {
  if (total === 0) return empty;
  if (shown >= total) return tn("items.count", total);
  const values = { shown: formatNumber(shown) };
  return estimated ? tn("items.shownOfAbout", total, values) : tn("items.shownOf", total, values);
}
