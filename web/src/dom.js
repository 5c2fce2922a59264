// Small DOM helpers. User-provided text only ever becomes text nodes, never HTML.

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

/** Shows an error to everyone, screen readers included. */
export function showError(message) {
  show(document.getElementById("messages"), message, "error");
}

/** Shows a success or information notice. */
export function showNotice(message) {
  show(document.getElementById("notices"), message, "notice");
}

function show(region, message, kind) {
  const note = h("p", { class: kind }, message);
  region.replaceChildren(note);
  setTimeout(() => note.remove(), 8000);
}

export function formatTime(ts) {
  const date = new Date(ts);
  return Number.isNaN(date.getTime()) ? "" : date.toLocaleString();
}

export const CATEGORIES = ["accessories", "bags", "clothing", "documents", "electronics", "keys", "other"];

/** The nick to send with messages: the one typed, else the user's name, else Anonymous. */
export function nickFrom(input, user) {
  const typed = input.value.trim();
  if (typed) localStorage.setItem("nick", typed);
  return typed || user?.name || "Anonymous";
}

/** Fills a nick field from what was used last or the user's name. */
export function prefillNick(input, user) {
  if (!input.value) input.value = localStorage.getItem("nick") || user?.name || "";
}
