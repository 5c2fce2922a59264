// An item's change log, for staff on the review screen: who changed what and when, behind a
// "History" button on each card, read again each time it opens.
import { attempt } from "./api.js";
import { lowerMethodWords } from "./custody.js";
import { siteName } from "./desks.js";
import { disclose } from "./disclosure.js";
import { h, formatTime } from "./dom.js";
import { language, t } from "./i18n.js";

const STATUS_WORDS = {
  get approved() { return t("history.approved"); },
  get rejected() { return t("history.rejected"); },
  get pending() { return t("history.pending"); },
};
/** What a correction changed, by the keys it records (the point and radius are one). */
const EDITED_WORDS = {
  title: () => t("history.fieldTitle"),
  desc: () => t("history.fieldDesc"),
  cat: () => t("history.fieldCat"),
  place: () => t("history.fieldPlace"),
  lat: () => t("history.fieldPoint"),
  radius: () => t("history.fieldPoint"),
  photo: () => t("history.fieldPhoto"),
  happenedFrom: () => t("history.fieldWhen"),
  verification: () => t("history.fieldVerification"),
};

/** A correction's fields in words, as a list: "the title, the category and the photo". */
function editedWords(edited) {
  const fields = new Set(Object.keys(edited).flatMap((key) => (Object.hasOwn(EDITED_WORDS, key) ? [EDITED_WORDS[key]()] : [])));
  return fields.size > 0 && t("history.edited", { fields: new Intl.ListFormat(language()).format(fields) });
}

// Words for the fields the service records; any other field shows as `field: value`. The
// desks are named from `state.sites`.
const WORDS = {
  status: (value) => STATUS_WORDS[value],
  reason: (value) => value && t("history.reason", { reason: value }),
  binId: (value) => value != null && t("history.bin", { bin: value }),
  edited: (value) => value && typeof value === "object" && editedWords(value),
  posted: (value) => value?.to && t("history.posted", value),
  sent: (value, state) =>
    value?.to &&
    (value.note
      ? t("history.sentNote", { from: siteName(state, value.from), to: siteName(state, value.to), note: value.note })
      : t("history.sent", { from: siteName(state, value.from), to: siteName(state, value.to) })),
  received: (value, state) => value?.at && t("history.received", { at: siteName(state, value.at), from: siteName(state, value.from) }),
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

/** One entry's `change` in words, e.g. "approved, kept at Desk 4"; `state.sites` names the
 *  desks (else their numbers). */
export function describeChange(change, state = {}) {
  if (typeof change !== "object" || change === null) return String(change);
  return Object.entries(change)
    .map(([key, value]) => (Object.hasOwn(WORDS, key) && WORDS[key](value, state)) || `${key}: ${plain(value)}`)
    .join(", ");
}

function plain(value) {
  return typeof value === "string" ? value : JSON.stringify(value);
}

/** The "History" button for `item`'s card and the panel it opens. */
export function historyToggle(item, state) {
  const list = h("ol", { class: "history-list" });
  const panel = h("div", { id: `history-${item.id}`, class: "history", role: "region", "aria-label": t("history.of", { title: item.title }) }, list);
  const button = h("button", { type: "button", class: "toggle" }, t("history.button"));
  disclose(button, panel, () => load(item.id, list, state));
  return [button, panel];
}

async function load(id, list, state) {
  list.setAttribute("aria-busy", "true");
  const changes = await attempt("GET", `/api/items/${id}/history`);
  list.removeAttribute("aria-busy");
  if (!changes) return;
  const entries = changes.map(({ by, at, change }) =>
    h("li", {},
      h("span", { class: "what" }, describeChange(change, state)),
      h("span", { class: "meta" }, t("history.by", { user: by }), " · ", h("time", { datetime: at }, formatTime(at)))));
  list.replaceChildren(...(entries.length ? entries : [h("li", { class: "hint" }, t("history.none"))]));
}
