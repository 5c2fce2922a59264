// Several found items chosen in a list of Review (its reports, the due list) and what staff
// do with them at once: print their labels on one sheet, dispose of them, or send them to
// another desk. Each item goes through the same request as its own button, one after
// another: what the service refuses for one is said by its title, and the rest still happen.
import { api } from "./api.js";
import { showError, showNotice } from "./announce.js";
import { ask } from "./ask.js";
import { disposalBody, disposalFields } from "./custody.js";
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { printLabels } from "./labels.js";
import { sendingBody, sendingFields } from "./shelving.js";

let selections = 0;

export class Selection {
  /**
   * Draws its buttons in `bar`, for the rows of `list`. `sites()` gives the desks items may be sent to; `changed(ids)`
   * runs after an action changed items `ids` (disposed of or sent), for the list to read them
   * again.
   */
  constructor({ bar, list, sites, changed }) {
    this.key = ++selections;
    this.list = list;
    this.sites = sites;
    this.changed = changed;
    /** The items chosen, by id: `{ id, title, siteId }`. */
    this.chosen = new Map();
    this.count = h("span", { class: "meta chosen-count", role: "status" });
    this.print = h("button", { type: "button", onclick: () => printLabels([...this.chosen.keys()]) });
    this.dispose = h("button", { type: "button", class: "secondary", onclick: () => this.disposeAll() });
    this.send = h("button", { type: "button", class: "secondary", onclick: () => this.sendAll() });
    this.clearButton = h("button", { type: "button", class: "secondary", onclick: () => this.clear() }, t("chosen.clear"));
    bar.replaceChildren(this.count, this.print, this.dispose, this.send, this.clearButton);
    this.update();
  }

  /** The checkbox that chooses `item` (`{ id, title, siteId }`), for its row. */
  box(item) {
    const box = h("input", {
      type: "checkbox",
      "data-chosen": item.id,
      "aria-label": t("chosen.chooseFor", { title: item.title }),
      checked: this.chosen.has(item.id),
      onchange: () => {
        if (box.checked) this.chosen.set(item.id, item);
        else this.chosen.delete(item.id);
        this.update();
      },
    });
    return h("label", { class: "check" }, box, t("chosen.choose"));
  }

  /** Forgets every choice. */
  clear() {
    this.chosen.clear();
    for (const box of this.list.querySelectorAll("input[data-chosen]")) box.checked = false;
    this.update();
  }

  /** Forgets item `id` (gone from the list). */
  forget(id) {
    this.chosen.delete(id);
    this.update();
  }

  update() {
    const n = this.chosen.size;
    this.count.textContent = n === 0 ? t("chosen.none") : tn("chosen.count", n);
    this.print.textContent = n === 0 ? t("chosen.print") : tn("chosen.printCount", n);
    this.dispose.textContent = n === 0 ? t("chosen.dispose") : tn("chosen.disposeCount", n);
    this.send.textContent = n === 0 ? t("chosen.send") : tn("chosen.sendCount", n);
    for (const button of [this.print, this.dispose, this.send]) button.disabled = n === 0;
    // With one desk there is nowhere to send them.
    this.send.hidden = this.sites().length < 2;
    this.clearButton.hidden = n === 0;
  }

  async disposeAll() {
    const items = [...this.chosen.values()];
    await this.each({
      items,
      title: tn("chosen.disposeTitle", items.length),
      intro: t("dispose.intro"),
      fields: disposalFields(`chosen-${this.key}`),
      confirm: t("dispose.confirm"),
      request: (item, form) => api("POST", `/api/items/${item.id}/disposal?fields=id`, disposalBody(form)),
      done: (n) => tn("chosen.disposed", n),
    });
  }

  async sendAll() {
    const items = [...this.chosen.values()];
    // Items of one desk go elsewhere; from several desks, to any (one already there is refused).
    const from = new Set(items.map((item) => item.siteId));
    const sites = this.sites().filter((site) => from.size !== 1 || !from.has(site.id));
    await this.each({
      items,
      title: tn("chosen.sendTitle", items.length),
      intro: t("shelving.sendIntro"),
      fields: sendingFields(sites),
      confirm: t("shelving.send"),
      request: (item, form) => api("POST", `/api/items/${item.id}/transfer?fields=id`, sendingBody(form)),
      done: (n) => tn("chosen.sent", n),
    });
  }

  /** Asks the question, then sends `request(item, form)` for each of `items` in turn. When
   *  none is done the errors show in the dialog, which stays open; otherwise it closes, says
   *  how many were done (`done(n)`) and which were refused, and why, and the choice starts
   *  afresh. */
  async each({ items, title, intro, fields, confirm, request, done }) {
    let refused = [];
    const doneItems = await ask({
      title,
      intro: h("span", {}, intro, " ", t("chosen.which", { titles: items.map((item) => item.title).join(", ") })),
      fields,
      confirm,
      submit: async (form) => {
        const ok = [];
        refused = [];
        for (const item of items) {
          try {
            await request(item, form);
            ok.push(item);
          } catch (error) {
            refused.push(t("chosen.refusedOne", { title: item.title, error: error.message }));
          }
        }
        if (ok.length === 0) showError(refused.join(" "));
        return ok.length ? ok : null;
      },
    });
    if (!doneItems) return;
    showNotice(done(doneItems.length));
    if (refused.length) showError(t("chosen.refused", { list: refused.join(" ") }));
    this.clear();
    this.changed(doneItems.map((item) => item.id));
  }
}
