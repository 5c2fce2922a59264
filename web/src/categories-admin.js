// Categories, for administrators (#/categories): what people choose from when they report an
// item, each with its name in every language the app speaks, how long found items of it
// are kept, and whether the public sees them without description and photo. Added, changed and removed here; every form of the page offers the new list at
// once (categories.js).
import { api, attempt, showingErrors } from "./api.js";
import { showNotice } from "./announce.js";
import { ask, confirmFirst } from "./ask.js";
import { categories, nameOf, useCategories } from "./categories.js";
import { runsService } from "./desks.js";
import { h } from "./dom.js";
import { LANGUAGES, language, t, tn } from "./i18n.js";

/** Each language of the app by its name in the reader's ("Korean", "coreano", "한국어"). */
function languageNames() {
  const names = new Intl.DisplayNames([language()], { type: "language" });
  return Object.keys(LANGUAGES).map((lang) => [lang, names.of(lang)]);
}

export class CategoriesAdmin {
  constructor(state) {
    this.state = state;
    this.hint = document.getElementById("categories-hint");
    this.content = document.getElementById("categories-content");
    this.list = document.getElementById("category-list");
    document.getElementById("category-add").addEventListener("click", () => this.edit(null));
  }

  show() {
    const manager = runsService(this.state.user);
    this.hint.hidden = manager;
    this.content.hidden = !manager;
    if (manager) this.load();
  }

  /** Reads the list again (another administrator may have changed it) and shows it; after a
   *  change, the focus goes to the changed category's button, or to "Add a category" when it
   *  is gone (`focusKey` undefined: where it is). */
  async load(focusKey) {
    const list = await showingErrors(api("GET", "/api/categories"));
    if (!list) return;
    useCategories(list);
    const order = [...categories()].sort((a, b) => nameOf(a).localeCompare(nameOf(b)));
    this.list.replaceChildren(...order.map((category) => this.row(category)));
    if (focusKey === undefined) return;
    const changed = [...this.list.querySelectorAll("button[data-key]")].find((b) => b.dataset.key === focusKey);
    (changed ?? document.getElementById("category-add")).focus();
  }

  row(category) {
    const names = languageNames().map(([lang, name]) =>
      h("li", {}, `${name[0].toUpperCase()}${name.slice(1)}: `, h("span", { lang }, category.names[lang] ?? t("categories.asEnglish"))));
    return h(
      "li",
      { class: "panel category" },
      h("h3", {}, nameOf(category)),
      h("ul", { class: "meta names", "aria-label": t("categories.names") }, ...names),
      h("p", {}, category.holdDays == null ? t("categories.keptAsDesk") : tn("categories.keptFor", category.holdDays)),
      category.sensitive ? h("p", {}, t("categories.sensitiveShown")) : null,
      h("p", { class: "meta" }, t("categories.storedAs", { key: category.key })),
      h(
        "p",
        { class: "actions" },
        h("button", { type: "button", class: "secondary", "data-key": category.key, onclick: () => this.edit(category) }, t("categories.change")),
        h("button", { type: "button", class: "danger secondary", onclick: () => this.remove(category) }, t("categories.remove")),
      ),
    );
  }

  /** Asks for a new category (`category` null) or `category`'s names, period and mark. */
  async edit(category) {
    const field = (name, label, attrs) => [
      h("label", { for: `category-${name}` }, label),
      h("input", { id: `category-${name}`, name, autocomplete: "off", ...attrs }),
    ];
    const names = languageNames().flatMap(([lang, name]) =>
      field(lang, t("categories.nameIn", { language: name }), {
        lang,
        maxlength: 100,
        required: lang === "en",
        value: category?.names[lang] ?? "",
      }));
    const saved = await ask({
      title: category ? t("categories.changeOf", { name: nameOf(category) }) : t("categories.new"),
      intro: t("categories.namesHint"),
      fields: [
        ...names,
        ...field("holdDays", t("categories.holdDays"), {
          type: "number", min: 0, max: 3650, step: 1, value: category?.holdDays ?? "", "aria-describedby": "category-hold-hint",
        }),
        h("p", { id: "category-hold-hint", class: "meta" }, t("categories.holdDaysHint")),
        h("label", { class: "check" },
          h("input", { type: "checkbox", name: "sensitive", checked: category?.sensitive, "aria-describedby": "category-sensitive-hint" }),
          t("categories.sensitive")),
        h("p", { id: "category-sensitive-hint", class: "meta" }, t("categories.sensitiveHint")),
      ],
      confirm: category ? t("common.save") : t("categories.add"),
      submit: (form) => {
        const f = form.elements;
        const body = {
          names: Object.fromEntries(Object.keys(LANGUAGES).map((lang) => [lang, f[lang].value.trim()]).filter(([, name]) => name)),
          holdDays: f.holdDays.value === "" ? null : Number(f.holdDays.value),
          sensitive: f.sensitive.checked,
        };
        return category ? attempt("PATCH", `/api/categories/${encodeURIComponent(category.key)}`, body) : attempt("POST", "/api/categories", body);
      },
    });
    if (!saved) return;
    showNotice(category ? t("categories.saved", { name: nameOf(saved) }) : t("categories.added", { name: nameOf(saved) }));
    await this.load(saved.key);
  }

  async remove(category) {
    const removed = await confirmFirst({
      question: t("categories.removeConfirm", { name: nameOf(category) }),
      detail: t("categories.removeDetail"),
      confirm: t("categories.remove"),
      act: () => attempt("DELETE", `/api/categories/${encodeURIComponent(category.key)}`),
    });
    if (!removed) return;
    showNotice(t("categories.removed", { name: nameOf(category) }));
    await this.load(null);
  }
}
