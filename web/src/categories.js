// The item categories offered by the browse filter and the report form (the service itself
// accepts any category up to 100 characters).
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** The categories offered, as the API stores them, and how each reads. */
const NAMES = {
  accessories: () => t("category.accessories"),
  bags: () => t("category.bags"),
  clothing: () => t("category.clothing"),
  documents: () => t("category.documents"),
  electronics: () => t("category.electronics"),
  keys: () => t("category.keys"),
  other: () => t("category.anyOther"),
};
const CATEGORIES = Object.keys(NAMES);

/** A category as the reader reads it: one of ours translated, any other as it was typed,
 *  none as "uncategorised". */
export function categoryName(cat) {
  if (cat == null || cat === "") return t("common.uncategorised");
  return Object.hasOwn(NAMES, cat) ? NAMES[cat]() : cat;
}

/** Appends one option per category to `select`. */
export function addCategoryOptions(select) {
  select.append(...CATEGORIES.map((cat) => h("option", { value: cat }, categoryName(cat))));
}
