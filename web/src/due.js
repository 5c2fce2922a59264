// The due list, on the review screen: found items kept past their holding period that nobody
// claimed, oldest report last like every list, a page at a time; each offers its label and
// "Dispose…", which records what the office did with it and takes it off the list.
import { itemsUrl } from "./api.js";
import { showNotice } from "./announce.js";
import { thumbnail } from "./cards.js";
import { disposeItem, methodWords } from "./custody.js";
import { h, formatTime } from "./dom.js";
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
      empty: "Nothing is due: every found item is within its holding period.",
      render: (item) => this.row(item),
    });
  }

  refresh() {
    this.pager.start(itemsUrl({ due: "true", fields: FIELDS, limit: PAGE_SIZE }));
  }

  clear() {
    this.pager.clear();
  }

  row(item) {
    const facts = [item.cat ?? "uncategorised", `reported ${formatTime(item.created_at)}`];
    if (item.holdUntil) facts.push(`kept until ${formatTime(item.holdUntil)}`);
    return h(
      "li",
      { class: "review-card due-card" },
      thumbnail(item, 64, ""),
      h(
        "div",
        {},
        h("h4", {}, h("button", { type: "button", class: "link", onclick: () => this.dialog.open(item.id) }, item.title)),
        h("p", { class: "meta" }, `#${item.id} · ${facts.join(" · ")}`),
        h("p", { class: "meta" }, item.storagePlace ? `Kept at ${item.storagePlace}` : "Storage place not recorded"),
        h(
          "div",
          { class: "actions" },
          h("button", { type: "button", onclick: () => this.dispose(item) }, "Dispose…"),
          h("button", { type: "button", class: "secondary", onclick: () => printLabels([item.id]) }, "Print label"),
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
    const how = disposed.disposal ? methodWords(disposed.disposal.method).toLowerCase() : "disposed of";
    showNotice(`“${item.title}” is recorded as ${how} and leaves the due list.`);
  }
}
