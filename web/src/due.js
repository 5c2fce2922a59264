// The due list, on the review screen: found items kept past their holding period that nobody
// claimed, oldest report last like every list, a page at a time; each offers its label and
// "Dispose…", which records what the office did with it and takes it off the list.
import { itemsUrl } from "./api.js";
import { showNotice } from "./announce.js";
import { thumbnail } from "./cards.js";
import { categoryName } from "./categories.js";
import { disposeItem, lowerMethodWords } from "./custody.js";
import { h, formatTime } from "./dom.js";
import { t } from "./i18n.js";
import { printLabels } from "./labels.js";
import { PAGE_SIZE, Pager } from "./pager.js";

const FIELDS = "id,title,cat,created_at,holdUntil,storagePlace,kind,thumbUrl";

export class DueList {
  constructor(dialog) {
    this.dialog = dialog;
    this.heading = document.getElementById("due-heading");
    this.pager = new Pager({
      list: document.getElementById("due-list"),
      count: document.getElementById("due-count"),
      empty: t("due.empty"),
      render: (item) => this.row(item),
    });
  }

  /** From the first page, of desk `site` ("": every desk). */
  refresh(site) {
    this.pager.start(itemsUrl({ due: "true", site, fields: FIELDS, limit: PAGE_SIZE }));
  }

  clear() {
    this.pager.clear();
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
        ),
      ),
    );
  }

  async dispose(item) {
    const disposed = await disposeItem(item);
    if (!disposed) return;
    const next = this.pager.remove(item.id);
    // The focus was on the row's button, now gone: the next row's, or the list's heading.
    (next?.querySelector("button:not(.link)") ?? this.heading).focus();
    const how = disposed.disposal ? lowerMethodWords(disposed.disposal.method) : t("due.disposedOf");
    showNotice(t("due.done", { title: item.title, how }));
  }
}
