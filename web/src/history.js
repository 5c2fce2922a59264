// An item's change log, for staff on the review screen: who changed what and when, behind a
// "History" button on each card, read again each time it opens.
import { attempt } from "./api.js";
import { lowerMethodWords } from "./custody.js";
import { disclose } from "./disclosure.js";
import { h, formatTime } from "./dom.js";
import { t } from "./i18n.js";

const STATUS_WORDS = {
  get approved() { return t("history.approved"); },
  get rejected() { return t("history.rejected"); },
  get pending() { return t("history.pending"); },
};
// Words for the fields the service records; any other field shows as `field: value`.
const WORDS = {
  status: (value) => STATUS_WORDS[value],
  storagePlace: (value) => (value ? t("history.keptAt", { place: value }) : t("history.placeCleared")),
  deleted: (value) => value === true && t("history.deleted"),
  created: () => t("history.reported"),
  handedOver: (value) =>
    value?.to &&
    (value.collectedBy
      ? t("history.handedOverProxy", { to: value.to, claim: value.claim, name: value.collectedBy })
      : value.claim ? t("history.handedOverClaim", { to: value.to, claim: value.claim }) : t("history.handedOver", { to: value.to })),
  promised: (value) => value?.to && t("history.promised", { to: value.to, claim: value.claim }),
  pickupCancelled: (value) => value?.reason && t("history.pickupCancelled", { claim: value.claim, reason: value.reason }),
  disposal: (value) =>
    value?.method &&
    (value.note
      ? t("history.disposedNote", { how: lowerMethodWords(value.method), note: value.note })
      : t("history.disposed", { how: lowerMethodWords(value.method) })),
  closed: (value) =>
    value && typeof value === "object" && (value.reason ? t("history.closedReason", { reason: value.reason }) : t("history.closed")),
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
  const panel = h("div", { id: `history-${item.id}`, class: "history", role: "region", "aria-label": t("history.of", { title: item.title }) }, list);
  const button = h("button", { type: "button", class: "toggle" }, t("history.button"));
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
      h("span", { class: "meta" }, t("history.by", { user: by }), " · ", h("time", { datetime: at }, formatTime(at)))));
  list.replaceChildren(...(entries.length ? entries : [h("li", { class: "hint" }, t("history.none"))]));
}
