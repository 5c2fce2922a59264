// Screens that show one panel at a time: a form, then what came of it (or why it is not
// offered).
import { clearErrors } from "./announce.js";

/** Shows `panel` and hides the others of `all`. */
export function showOnly(panel, all) {
  for (const other of all) other.hidden = other !== panel;
}

/** Shows `panel`, what came of a form that worked, alone of `all`. An error still showing was
 *  about an earlier try: it goes. With `focus`, the keyboard and screen readers go to the
 *  panel (it has tabindex="-1"), so it is read out. */
export function showOutcome(panel, all, { focus = true } = {}) {
  clearErrors();
  showOnly(panel, all);
  if (focus) panel.focus();
}
