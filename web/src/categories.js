// The item categories the service keeps (GET /api/categories, kept by administrators on the
// Categories screen), as the browse filter and the report forms offer them and as items name
// them. The service itself accepts any category up to 100 characters: one it does not keep
// reads as typed.
import { h } from "./dom.js";
import { language, t } from "./i18n.js";

/** The catch-all, offered last. */
const CATCH_ALL = "other";

let kept = [];
/** The selects that offer the categories, filled again when they change. */
const offering = new Set();

/** The categories kept, as the service answered them. */
export function categories() {
  return kept;
}

/** Uses `list` from now on, and offers it again in every select that offers categories
 *  (each keeps its choice where it still can). */
export function useCategories(list) {
  kept = list;
  for (const select of offering) {
    if (!select.isConnected) {
      offering.delete(select);
      continue;
    }
    const value = select.value;
    for (const option of select.querySelectorAll("option[data-category]")) option.remove();
    fill(select);
    select.value = value;
  }
}

/** `category`'s name in the reader's language, else its English one. */
export function nameOf(category) {
  return category.names[language()] ?? category.names.en;
}

/** A category as the reader reads it: one the service keeps by its name, any other as it was
 *  typed, none as "uncategorised". */
export function categoryName(cat) {
  if (cat == null || cat === "") return t("common.uncategorised");
  const key = cat.toLowerCase();
  const category = kept.find((c) => c.key === key);
  return category ? nameOf(category) : cat;
}

/** Whether `cat` is a category the office marks sensitive: the public sees its items without
 *  description and photo. */
export function isSensitive(cat) {
  const key = cat?.toLowerCase();
  return kept.some((c) => c.key === key && c.sensitive);
}

/** Appends one option per category to `select`, by name, the catch-all last. */
export function addCategoryOptions(select) {
  offering.add(select);
  fill(select);
}

function fill(select) {
  const collator = new Intl.Collator(language());
  const order = [...kept].sort(
    (a, b) => (a.key === CATCH_ALL) - (b.key === CATCH_ALL) || collator.compare(nameOf(a), nameOf(b)),
  );
  select.append(...order.map((c) => h("option", { value: c.key, "data-category": true }, nameOf(c))));
}
