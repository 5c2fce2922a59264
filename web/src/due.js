// The due list, on the review screen: found items kept past their holding period that nobody
// claimed, oldest report last like every list, a page at a time; each offers its label and
// "Dispose…", which records what the office did with it and takes it off the list, and may be
// chosen with others to print, dispose of or send elsewhere at once.
import { itemsUrl } from "./api.js";
import { showNotice } from "./announce.js";
import { thumbnail } from "./cards.js";
import { categoryName } from "./categories.js";
import { disposeItem, lowerMethodWords } from "./custody.js";
import { h, formatTime } from "./dom.js";
import { t } from "./i18n.js";
import { printLabels } from "./labels.js";
import { PAGE_SIZE, Pager } from "./pager.js";
import { Selection } from "./selection.js";

const FIELDS = "id,title,cat,created_at,holdUntil,storagePlace,kind,siteId,thumbUrl";

export class DueList {
  /** `sites()` gives the desks items may be sent to; `changed()` runs once several were
   *  disposed of or sent at once. */
  constructor({ dialog, sites, changed }) {
    this.dialog = dialog;
    this.heading = document.getElementById("due-heading");
    const list = document.getElementById("due-list");
    this.pager = new Pager({ list, count: document.getElementById("due-count"), empty: t("due.empty"), render: (item) => this.row(item) });
    this.chosen = new Selection({ bar: document.getElementById("due-chosen"), list, sites, changed });
  }

  /** From the first page, of desk `site` ("": every desk). */
  refresh(site) {
    this.pager.start(itemsUrl({ due: "true", site, fields: FIELDS, limit: PAGE_SIZE }));
  }

  clear() {
    this.pager.clear();
    this.chosen.clear();
  }

  row(item) {
    const facts = [categoryName(item.cat), t("due.reported", { date: formatTime(item.created_at) })];
    if (item.holdUntil) facts.push(t("due.keptUntil", { date: formatTime(item.holdUntil) }));
    return h(
      "li",
      { class: "review-card due-card" },
      thumbnail(item, 64, ""),
      h(
        "div",
        {},
        h("h4", {}, h("button", { type: "button", class: "link", onclick: () => this.dialog.open(item.id) }, item.title)),
        h("p", { class: "meta" }, `#${item.id} · ${facts.join(" · ")}`),
        h("p", { class: "meta" }, item.storagePlace ? t("due.keptAt", { place: item.storagePlace }) : t("due.noPlace")),
        h(
          "div",
          { class: "actions" },
          h("button", { type: "button", onclick: () => this.dispose(item) }, t("due.dispose")),
          h("button", { type: "button", class: "secondary", onclick: () => printLabels([item.id]) }, t("common.printLabel")),
          this.chosen.box(item),
        ),
      ),
    );
  }

  async dispose(item) {
    const disposed = await disposeItem(item);
    if (!disposed) return;
    this.chosen.forget(item.id);
    const next = this.pager.remove(item.id);
    // The focus was on the row's button, now gone: the next row's, or the list's heading.
    (next?.querySelector("button:not(.link)") ?? this.heading).focus();
    const how = disposed.disposal ? lowerMethodWords(disposed.disposal.method) : t("due.disposedOf");
    showNotice(t("due.done", { title: item.title, how }));
  }
}
