// Building the page's elements. User-provided text only ever becomes text nodes, never HTML.
import { formatDate } from "./i18n.js";

/** Creates an element; string children become text nodes, `on*` attributes listeners. */
export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs)) {
    if (value == null || value === false) continue;
    if (key.startsWith("on")) el.addEventListener(key.slice(2), value);
    else if (key === "class") el.className = value;
    else el.setAttribute(key, value === true ? "" : String(value));
  }
  for (const child of children.flat()) {
    if (child != null && child !== false) el.append(child instanceof Node ? child : String(child));
  }
  return el;
}

/** A timestamp from the service in the reader's language, without seconds; blank if it
 *  cannot be read. */
export function formatTime(ts) {
  return formatDate(ts);
}
