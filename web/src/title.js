// Each screen its own page title (WCAG 2.4.2): what is shown first, then the service's name,
// so that tabs, the history and a screen reader's list of windows tell screens apart.
import { t } from "./i18n.js";

/** Titles the page after `shown` (a screen's heading, an item's title). */
export function showTitle(shown) {
  document.title = `${shown} – ${t("app.title")}`;
}
