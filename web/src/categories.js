// The item categories offered by the browse filter and the report form (the service itself
// accepts any category up to 100 characters).
import { h } from "./dom.js";

const CATEGORIES = ["accessories", "bags", "clothing", "documents", "electronics", "keys", "other"];

/** Appends one option per category to `select`. */
export function addCategoryOptions(select) {
  select.append(...CATEGORIES.map((cat) => h("option", { value: cat }, cat)));
}
