// Matches: the items that may be the same object as a report, as the service ranks them
// (GET /api/items/:id/matches: best first, each with a score, whether it is likely and why),
// in a few words each; and what the owner of a lost report does with a likely one: "This is
// mine" (the found item's view, at its claim form) or "Not mine" (taken away from the owner's
// matches at once, with an Undo in its place).
import { api, showingErrors } from "./api.js";
import { h } from "./dom.js";
import { formatNumber, t } from "./i18n.js";

/** The event the window gets when the reader said an item is not theirs, or took it back,
 *  from an item's view (`detail`: the item's id): My reports reads its cards again. */
export const MATCHES_CHANGED = "lostfound:matches-changed";
/** Shared words a match names at most. */
const WORDS_SHOWN = 4;
/** Meaning "carried" a match when it made at least this share of its score: the two say the
 *  same thing, whatever their words (another language, other words for it). */
const MEANING_CARRIED = 0.5;

/** The matches of report `id`, each item with `fields`, best first; throws as api() does. */
export function fetchMatches(id, fields) {
  return api("GET", `/api/items/${id}/matches?fields=${fields}`);
}

/** Why `match` may be the object, in a few words: "Shares: black, wallet · Similar
 *  description"; "" when neither says much (only place and time brought it). */
export function whyWords({ score, why }) {
  if (!why) return "";
  const parts = [];
  const words = why.words ?? [];
  if (words.length > 0) parts.push(t("match.shares", { words: words.slice(0, WORDS_SHOWN).join(", ") }));
  if (score > 0 && why.meaning >= score * MEANING_CARRIED) parts.push(t("match.similar"));
  return parts.join(" · ");
}

/** A score as a percentage, as the language writes it ("78%"). */
export function scorePercent(score) {
  return formatNumber(score, { style: "percent", maximumFractionDigits: 0 });
}

/** The "Likely match" badge. */
export function likelyBadge() {
  return h("span", { class: "state likely" }, t("match.likely"));
}

/**
 * One match offered to the owner of a lost report: a list entry with `title` (a link or a
 * button that opens the found item), `details` (distance, why…) and two buttons named with
 * the item's title: "This is mine", which runs `claim(id)`, and "Not mine". Not mine takes
 * the entry away at once — a note with Undo takes its place and the focus — and tells the
 * service; Undo tells it back and returns the entry. When the service refuses either, its
 * error shows and the entry goes back to how it was. `onChange(id)` hears of each change the
 * service took.
 */
export function suggestion(match, { title, details = [], claim, onChange = () => {} }) {
  const { id, title: name } = match.item;
  const notMine = h("button", {
    type: "button",
    class: "secondary",
    "aria-label": t("match.notMineOf", { title: name }),
    onclick: () => dismiss(),
  }, t("match.notMine"));
  const entry = h("li", { class: "suggestion" },
    h("span", { class: "suggestion-what" }, title, ...details),
    h("span", { class: "suggestion-actions" },
      h("button", { type: "button", "aria-label": t("match.mineOf", { title: name }), onclick: () => claim(id) }, t("item.thisIsMine")),
      notMine));
  const undo = h("button", { type: "button", class: "link", "aria-label": t("match.undoOf", { title: name }), onclick: () => restore() }, t("match.undo"));
  const note = h("li", { class: "suggestion dismissed" }, h("span", { role: "status" }, t("match.dismissed", { title: name })), " ", undo);
  /** Whether the service has it as not theirs, once the request under way is answered:
   *  Undo waits for Not mine's answer, and the other way round. */
  let marked = Promise.resolve(false);

  function dismiss() {
    entry.replaceWith(note);
    undo.focus();
    marked = marked.then(async (was) => {
      if (was) return true;
      const done = await showingErrors(api("POST", `/api/items/${id}/not-mine`, {}));
      if (!done) swap(note, entry, notMine);
      else onChange(id);
      return Boolean(done);
    });
  }

  function restore() {
    swap(note, entry, notMine);
    marked = marked.then(async (was) => {
      if (!was) return false;
      const done = await showingErrors(api("DELETE", `/api/items/${id}/not-mine`));
      if (!done) swap(entry, note, undo);
      else onChange(id);
      return !done;
    });
  }

  return entry;
}

/** Puts `shown` where `gone` is (when `gone` is in the page) and focuses `focus` if the focus
 *  was in `gone`. */
function swap(gone, shown, focus) {
  if (!gone.isConnected) return;
  const hadFocus = gone.contains(document.activeElement);
  gone.replaceWith(shown);
  if (hadFocus) focus.focus();
}
