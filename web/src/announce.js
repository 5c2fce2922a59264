// Errors and notices: shown to everyone and announced to screen readers by the live regions
// of index.html (#messages, #notices).
import { h } from "./dom.js";

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

/** Takes away the error showing, if any: what it was about has worked out since. */
export function clearErrors() {
  document.getElementById("messages").replaceChildren();
}

/** Moves the regions to the top of `parent`: an open modal dialog makes the rest of the page
 *  inert, so its errors must show inside it. Without `parent`, back to their place in the
 *  page's top bar once it closes. */
export function announceWithin(parent = document.getElementById("announce-home")) {
  parent.prepend(document.getElementById("messages"), document.getElementById("notices"));
}

function show(regionId, message, kind) {
  const note = h("p", { class: kind }, message);
  document.getElementById(regionId).replaceChildren(note);
  setTimeout(() => note.remove(), 8000);
}
