// What became of a report: returned to its owner, disposed of by the office (how), or closed
// by its reporter or staff; the badges that say so, and the two questions that end a report:
// closing it (with an optional reason) and, for a found item nobody claimed in time,
// recording its disposal. Also withdrawing one's claim on an item.
import { attempt } from "./api.js";
import { showNotice } from "./announce.js";
import { ask } from "./ask.js";
import { h } from "./dom.js";

/** The ways the office disposes of an item, as the API names them and in words. */
export const DISPOSAL_METHODS = {
  donated: "Donated",
  auctioned: "Auctioned",
  destroyed: "Destroyed",
  "returned-to-finder": "Returned to finder",
  transferred: "Transferred",
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

/** The outcome in words ("Returned", "Disposed: donated", "Closed"), or null while open. */
export function outcomeWords(item) {
  if (item.returnedAt) return "Returned";
  if (item.disposedAt) return item.disposal ? `Disposed: ${methodWords(item.disposal.method).toLowerCase()}` : "Disposed";
  if (item.closedAt) return "Closed";
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
    title: `Close “${item.title}”?`,
    intro:
      item.kind === "found"
        ? "A closed report no longer shows when people browse, and nobody can claim it. Open claims on it are turned down."
        : "A closed report no longer shows when people browse. Do this when you have it back, or no longer look for it.",
    fields: [
      h(
        "label",
        { for: reasonId },
        h("span", {}, "Why ", h("span", { class: "meta" }, "(optional)")),
        h("input", { id: reasonId, name: "reason", maxlength: 500, placeholder: "e.g. Found it myself", autocomplete: "off" }),
      ),
    ],
    confirm: "Close report",
    danger: true,
    submit: (form) => {
      const reason = form.elements.reason.value.trim();
      return attempt("POST", `/api/items/${item.id}/close?fields=id,title,closedAt`, reason ? { reason } : {});
    },
  });
  if (closed) changed(item.id, "closed");
  return closed;
}

/** Asks how and records the disposal of found item `item`; resolves with the item as it is
 *  now, or null when cancelled. */
export async function disposeItem(item) {
  const methodId = `dispose-method-${item.id}`;
  const noteId = `dispose-note-${item.id}`;
  const disposed = await ask({
    title: `Dispose of “${item.title}”`,
    intro: "Record what the office did with it. It leaves the due list, and open claims on it are turned down.",
    fields: [
      h(
        "label",
        { for: methodId },
        "What was done with it",
        h(
          "select",
          { id: methodId, name: "method", required: true },
          h("option", { value: "" }, "Choose…"),
          ...Object.entries(DISPOSAL_METHODS).map(([value, words]) => h("option", { value }, words)),
        ),
      ),
      h(
        "label",
        { for: noteId },
        h("span", {}, "Note ", h("span", { class: "meta" }, "(optional: to whom, a reference)")),
        h("textarea", { id: noteId, name: "note", rows: 3, maxlength: 500 }),
      ),
    ],
    confirm: "Record disposal",
    submit: (form) => {
      const note = form.elements.note.value.trim();
      const body = { method: form.elements.method.value, ...(note ? { note } : {}) };
      return attempt("POST", `/api/items/${item.id}/disposal?fields=id,title,disposedAt,disposal`, body);
    },
  });
  if (disposed) changed(item.id, "disposed");
  return disposed;
}

/** Withdraws `claim` (on the item titled `title`) after a confirmation; resolves true once
 *  withdrawn. */
export async function withdrawClaim(claim, title) {
  if (!window.confirm(`Withdraw your claim on “${title}”? Staff will no longer consider it.`)) return false;
  if (!(await attempt("DELETE", `/api/claims/${claim.id}`))) return false;
  showNotice(`Your claim on “${title}” is withdrawn.`);
  return true;
}
