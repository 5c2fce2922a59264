// An item's change log, for staff on the review screen: who changed what and when, behind a
// "History" button on each card, read again each time it opens.
import { attempt } from "./api.js";
import { methodWords } from "./custody.js";
import { disclose } from "./disclosure.js";
import { h, formatTime } from "./dom.js";

const STATUS_WORDS = { approved: "approved", rejected: "rejected", pending: "set back to pending review" };
// Words for the fields the service records; any other field shows as `field: value`.
const WORDS = {
  status: (value) => STATUS_WORDS[value],
  storagePlace: (value) => (value ? `kept at ${value}` : "storage place cleared"),
  deleted: (value) => value === true && "deleted",
  created: () => "reported",
  handedOver: (value) => value?.to && `handed over to ${value.to}${value.claim ? ` (claim ${value.claim})` : ""}`,
  disposal: (value) =>
    value?.method && `disposed of: ${methodWords(value.method).toLowerCase()}${value.note ? ` (${value.note})` : ""}`,
  closed: (value) => value && typeof value === "object" && `closed${value.reason ? `: ${value.reason}` : ""}`,
};

/** One entry's `change` in words, e.g. "approved, kept at Desk 4". */
export function describeChange(change) {
  if (typeof change !== "object" || change === null) return String(change);
  return Object.entries(change)
    .map(([key, value]) => (Object.hasOwn(WORDS, key) && WORDS[key](value)) || `${key}: ${plain(value)}`)
    .join(", ");
}

function plain(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The "History" button for `item`'s card and the panel it opens. */
export function historyToggle(item) {
  const list = h("ol", { class: "history-list" });
  const panel = h("div", { id: `history-${item.id}`, class: "history", role: "region", "aria-label": `History of ${item.title}` }, list);
  const button = h("button", { type: "button", class: "toggle" }, "History");
  disclose(button, panel, () => load(item.id, list));
  return [button, panel];
}

async function load(id, list) {
  list.setAttribute("aria-busy", "true");
  const changes = await attempt("GET", `/api/items/${id}/history`);
  list.removeAttribute("aria-busy");
  if (!changes) return;
  const entries = changes.map(({ by, at, change }) =>
    h("li", {},
      h("span", { class: "what" }, describeChange(change)),
      h("span", { class: "meta" }, `by ${by} · `, h("time", { datetime: at }, formatTime(at)))));
  list.replaceChildren(...(entries.length ? entries : [h("li", { class: "hint" }, "No changes recorded.")]));
}
