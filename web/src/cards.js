// How an item shows in a list: its thumbnail, title, place and facts, the words for its kind
// and state, and what became of it (returned, disposed of, closed).
import { OUTCOME_FIELDS, outcomeBadge } from "./custody.js";
import { categoryName } from "./categories.js";
import { h, formatTime } from "./dom.js";
import { t } from "./i18n.js";

// Getters: each reads in the language in use.
export const KINDS = { get lost() { return t("kind.lost"); }, get found() { return t("kind.found"); } };
/** Staff words for a report's state, for the review screen. */
export const STATES = {
  get pending() { return t("state.staff.pending"); },
  get approved() { return t("state.staff.approved"); },
  get rejected() { return t("state.staff.rejected"); },
};
/** The same states as everyone else reads them (reporters, visitors). */
export const PUBLIC_STATES = {
  get pending() { return t("state.public.pending"); },
  get approved() { return t("state.public.approved"); },
  get rejected() { return t("state.public.rejected"); },
};

/** The fields a list card shows (with `thumbUrl`, never the photo itself). */
export const CARD_FIELDS = ["id", "title", "place", "cat", "kind", "status", "created_at", "thumbUrl", ...OUTCOME_FIELDS];

/** The item's thumbnail, or a blank square: loaded as it comes near the view, its size set
 *  so the list does not jump as thumbnails arrive. */
export function thumbnail(item, size, alt = "") {
  if (!item.thumbUrl) return h("span", { class: "no-photo" });
  // `loading` before `src`: the browser decides how to load when it sees the address.
  return h("img", { loading: "lazy", decoding: "async", width: size, height: size, alt, src: item.thumbUrl });
}

/** The item's state as a label, coloured by state. */
export function stateLabel(item) {
  return h("span", { class: `state ${item.status}` }, PUBLIC_STATES[item.status] ?? item.status);
}

/** The button of item `id`'s entry under `root` (an item card, a Review card's title): where
 *  the focus goes back to that item once its entry is drawn again; null when none shows. */
export function entryButton(root, id) {
  const entry = root?.querySelector(`[data-item="${CSS.escape(String(id))}"]`);
  return (entry?.matches("button") ? entry : entry?.querySelector("button")) ?? null;
}

/**
 * A list entry that opens the item: thumbnail, title, place, kind · category · date, its state
 * when `showState(item)` says so, what became of it (always), and `extra` children below.
 */
export function itemCard(item, open, { showState = () => true, extra = [] } = {}) {
  return h(
    "li",
    {},
    h(
      "button",
      { type: "button", class: "item-card", "data-item": item.id, onclick: () => open(item.id) },
      thumbnail(item, 64),
      h(
        "span",
        { class: "card-text" },
        h("strong", {}, item.title),
        item.place ? h("span", { class: "card-place" }, item.place) : null,
        h(
          "span",
          { class: "meta" },
          [KINDS[item.kind], categoryName(item.cat), formatTime(item.created_at)].filter(Boolean).join(" · "),
        ),
        showState(item) || outcomeBadge(item)
          ? h("span", { class: "badges" }, showState(item) ? stateLabel(item) : null, outcomeBadge(item))
          : null,
        ...extra,
      ),
    ),
  );
}
