// What became of a report: returned to its owner, disposed of by the office (how), or closed
// by its reporter or staff; the badges that say so, and the two questions that end a report:
// closing it (with an optional reason) and, for a found item nobody claimed in time,
// recording its disposal. Also withdrawing one's claim on an item.
import { attempt } from "./api.js";
import { showNotice } from "./announce.js";
import { ask, confirmFirst } from "./ask.js";
import { h } from "./dom.js";
import { language, t } from "./i18n.js";

/** The ways the office disposes of an item, as the API names them and in words. */
export const DISPOSAL_METHODS = {
  get donated() { return t("disposal.donated"); },
  get auctioned() { return t("disposal.auctioned"); },
  get destroyed() { return t("disposal.destroyed"); },
  get "returned-to-finder"() { return t("disposal.returnedToFinder"); },
  get transferred() { return t("disposal.transferred"); },
};

/** The fields that say what became of an item (ask for them with the others). */
export const OUTCOME_FIELDS = ["returnedAt", "disposedAt", "disposal", "closedAt"];

/** The event the window gets when an item was closed or disposed of here, with `detail`
 *  `{ id, change }` (`closed` or `disposed`): lists showing it read it again. */
export const ITEMS_CHANGED = "lostfound:items-changed";

/** An item still on the shelf or still looked for: neither returned, disposed of nor closed. */
export function isOpen(item) {
  return !item.returnedAt && !item.disposedAt && !item.closedAt;
}

/** How a disposal's method reads, e.g. "Returned to finder". */
export function methodWords(method) {
  return DISPOSAL_METHODS[method] ?? method;
}

/** A disposal's method in lower case, within a sentence ("Disposed: donated"). */
export function lowerMethodWords(method) {
  return methodWords(method).toLocaleLowerCase(language());
}

/** The outcome in words ("Returned", "Disposed: donated", "Closed"), or null while open. */
export function outcomeWords(item) {
  if (item.returnedAt) return t("outcome.returned");
  if (item.disposedAt) {
    return item.disposal ? t("outcome.disposedHow", { how: lowerMethodWords(item.disposal.method) }) : t("outcome.disposed");
  }
  if (item.closedAt) return t("outcome.closed");
  return null;
}

/** The outcome as a badge, or null while the item is open. */
export function outcomeBadge(item) {
  const words = outcomeWords(item);
  if (!words) return null;
  const kind = item.returnedAt ? "returned" : item.disposedAt ? "disposed" : "closed";
  return h("span", { class: `state ${kind}` }, words);
}

function changed(id, change) {
  window.dispatchEvent(new CustomEvent(ITEMS_CHANGED, { detail: { id, change } }));
}

/** Asks for the reason and closes report `item` (`{ id, title, kind }`); resolves with the
 *  closed item, or null when cancelled. */
export async function closeReport(item) {
  const reasonId = `close-reason-${item.id}`;
  const closed = await ask({
    title: t("close.title", { title: item.title }),
    intro:
      item.kind === "found"
        ? t("close.introFound")
        : t("close.introLost"),
    fields: [
      h(
        "label",
        { for: reasonId },
        h("span", {}, t("close.why"), " ", h("span", { class: "meta" }, t("common.optional"))),
        h("input", { id: reasonId, name: "reason", maxlength: 500, placeholder: t("close.placeholder"), autocomplete: "off" }),
      ),
    ],
    confirm: t("common.closeReport"),
    danger: true,
    submit: (form) => {
      const reason = form.elements.reason.value.trim();
      return attempt("POST", `/api/items/${item.id}/close?fields=id,title,closedAt`, reason ? { reason } : {});
    },
  });
  if (closed) changed(item.id, "closed");
  return closed;
}

/** The disposal question's fields (what was done, a note), their ids made from `key`. */
export function disposalFields(key) {
  const methodId = `dispose-method-${key}`;
  const noteId = `dispose-note-${key}`;
  return [
    h(
      "label",
      { for: methodId },
      t("dispose.what"),
      h(
        "select",
        { id: methodId, name: "method", required: true },
        h("option", { value: "" }, t("dispose.choose")),
        ...Object.entries(DISPOSAL_METHODS).map(([value, words]) => h("option", { value }, words)),
      ),
    ),
    h(
      "label",
      { for: noteId },
      h("span", {}, t("dispose.note"), " ", h("span", { class: "meta" }, t("dispose.noteHint"))),
      h("textarea", { id: noteId, name: "note", rows: 3, maxlength: 500 }),
    ),
  ];
}

/** The disposal the form of `disposalFields` describes, as the API takes it. */
export function disposalBody(form) {
  const note = form.elements.note.value.trim();
  return { method: form.elements.method.value, ...(note ? { note } : {}) };
}

/** Asks how and records the disposal of found item `item`; resolves with the item as it is
 *  now, or null when cancelled. */
export async function disposeItem(item) {
  const disposed = await ask({
    title: t("dispose.title", { title: item.title }),
    intro: t("dispose.intro"),
    fields: disposalFields(item.id),
    confirm: t("dispose.confirm"),
    submit: (form) => attempt("POST", `/api/items/${item.id}/disposal?fields=id,title,disposedAt,disposal`, disposalBody(form)),
  });
  if (disposed) changed(item.id, "disposed");
  return disposed;
}

/** Withdraws `claim` (on the item titled `title`) after a confirmation; resolves true once
 *  withdrawn. */
export async function withdrawClaim(claim, title) {
  const withdrawn = await confirmFirst({
    question: t("claim.withdrawConfirm", { title }),
    confirm: t("common.withdrawClaim"),
    act: () => attempt("DELETE", `/api/claims/${claim.id}`),
  });
  if (!withdrawn) return false;
  showNotice(t("claim.withdrawn", { title }));
  return true;
}
