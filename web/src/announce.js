// Errors and notices: shown to everyone and announced to screen readers by the live regions
// of index.html (#messages, #notices), in the flow at the top of the page or the dialog open,
// so they cover nothing (style.css).
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** Shows an error; it is announced at once. */
export function showError(message) {
  show("messages", message, "error");
}

/** Shows a success or information notice. An error still showing was about what came before
 *  (a login that failed, a form sent with a mistake): it goes, so the two never contradict. */
export function showNotice(message) {
  clearErrors();
  show("notices", message, "notice");
}

/** Shows `message` in region `regionId`, in place of what it said. It stays until it is
 *  dismissed, the next outcome replaces it, or another screen is shown: no time limit to read
 *  it (WCAG 2.2.1). */
function show(regionId, message, kind) {
  const dismiss = h("button", { type: "button", class: "dismiss", "aria-label": t("announce.dismiss") }, "×");
  const note = h("p", { class: kind }, h("span", {}, message), dismiss);
  dismiss.addEventListener("click", () => {
    // Dismissed from the keyboard: the focus stays in the dialog or the screen (WCAG 2.4.3).
    const back = note.closest("dialog") ?? document.getElementById("main");
    const focused = document.activeElement === dismiss;
    note.remove();
    if (focused) back.focus();
  });
  document.getElementById(regionId).replaceChildren(note);
}

/** Takes away the error showing, if any: what it was about has worked out since. */
export function clearErrors() {
  document.getElementById("messages").replaceChildren();
}

/** Takes away what shows: another screen is shown, and they were about the one before. */
export function clearAnnouncements() {
  clearErrors();
  document.getElementById("notices").replaceChildren();
}

/** Moves the regions to the top of `parent`: an open modal dialog makes the rest of the page
 *  inert, so its errors must show inside it. Without `parent`, back to their place in the
 *  page's top bar once it closes. */
export function announceWithin(parent = document.getElementById("announce-home")) {
  parent.prepend(document.getElementById("messages"), document.getElementById("notices"));
}
