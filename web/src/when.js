// When a thing was lost or found, in a form (report, intake, a correction): the day and,
// when known, the hours between which, in the reader's own time; sent as `happenedFrom` and
// `happenedUntil` (a whole day when no hours are given). And how a report's reads in its view.
import { h } from "./dom.js";
import { formatDay, language, t } from "./i18n.js";

let fieldsets = 0;

/** The fieldset of `happenedDate`, `happenedFrom` and `happenedUntil` (the hours), filled
 *  from `item` when it says. */
export function whenFieldset(item = {}) {
  const id = `when-${++fieldsets}`;
  const from = item.happenedFrom ? new Date(item.happenedFrom) : null;
  const until = item.happenedUntil ? new Date(item.happenedUntil) : null;
  const whole = from && until && isWholeDay(from, until);
  const input = (name, type, value, extra = {}) => h("input", { id: `${id}-${name}`, name, type, value: value ?? "", ...extra });
  return h(
    "fieldset",
    { class: "when" },
    h("legend", {}, t("when.legend"), " ", h("span", { class: "meta" }, t("common.optional"))),
    h("label", { for: `${id}-happenedDate` }, t("when.date")),
    input("happenedDate", "date", from && localDate(from), { max: localDate(new Date()) }),
    h(
      "div",
      { class: "row" },
      h("label", { for: `${id}-happenedFrom` }, t("when.from"), input("happenedFrom", "time", from && !whole ? localTime(from) : "")),
      h("label", { for: `${id}-happenedUntil` }, t("when.until"), input("happenedUntil", "time", until && !whole ? localTime(until) : "")),
    ),
    h("p", { class: "hint" }, t("when.hint")),
  );
}

/** What the fieldset says, as the API takes it: `{ happenedFrom, happenedUntil }` (RFC 3339),
 *  or, without a day, nothing — or, with `clear`, `{ happenedFrom: null }` (a correction
 *  that forgets it). Without hours, the whole day; with a start alone, until the day ends. */
export function whenBody(form, { clear = false } = {}) {
  const f = form.elements;
  const day = f.happenedDate.value;
  if (!day) return clear ? { happenedFrom: null } : {};
  const at = (time, fallback) => new Date(`${day}T${time || fallback}`);
  return {
    happenedFrom: at(f.happenedFrom.value, "00:00").toISOString(),
    happenedUntil: at(f.happenedUntil.value, "23:59:59.999").toISOString(),
  };
}

/** When `item` was lost or found, in words ("12 Mar 2026", "12 Mar 2026, 14:00 – 16:00"), or
 *  null when its reporter did not say. */
export function whenWords(item) {
  if (!item.happenedFrom) return null;
  const from = new Date(item.happenedFrom);
  const until = new Date(item.happenedUntil ?? item.happenedFrom);
  if (isWholeDay(from, until)) return formatDay(from);
  const format = new Intl.DateTimeFormat(language(), { dateStyle: "medium", timeStyle: "short" });
  return from.getTime() === until.getTime() ? format.format(from) : format.formatRange(from, until);
}

/** Whether the window is one whole day of the reader's. */
function isWholeDay(from, until) {
  const end = new Date(from);
  end.setHours(23, 59, 59, 999);
  return from.getHours() === 0 && from.getMinutes() === 0 && until.getTime() === end.getTime();
}

const pad = (n) => String(n).padStart(2, "0");

/** The reader's own date, as a date input takes it: "2026-03-12". */
function localDate(date) {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())}`;
}

/** The reader's own time, as a time input takes it: "14:05". */
function localTime(date) {
  return `${pad(date.getHours())}:${pad(date.getMinutes())}`;
}
