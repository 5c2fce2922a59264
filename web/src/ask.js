// A question in a modal dialog: a few fields, a button that answers it and Cancel (or Escape,
// or ×). The answer is sent before the dialog closes: when the service refuses it, the error
// shows inside the dialog and what was typed stays, to correct or cancel.
import { announceWithin } from "./announce.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

let asked = 0;

/**
 * Opens the dialog: heading `title`, `intro` (text or nodes) below it, `fields` (labelled
 * controls, built by the caller) and the `confirm` button (`danger`: red). `submit(form)`
 * runs when it is pressed and resolves with a truthy result once the service took the answer,
 * or a falsy one (the error shown) to keep the dialog open. Resolves with that result, or
 * null when cancelled. Focus goes to the first field, and back to where it was on cancel.
 */
export function ask({ title, intro, fields, confirm, danger = false, submit }) {
  const id = `ask-${++asked}`;
  const button = h("button", { type: "submit", class: danger ? "danger" : null }, confirm);
  const form = h(
    "form",
    { class: "stack" },
    intro ? h("p", { id: `${id}-intro` }, intro) : null,
    ...fields,
    h("p", { class: "actions" }, button, h("button", { type: "button", class: "secondary", onclick: () => dialog.close() }, t("common.cancel"))),
  );
  const dialog = h(
    "dialog",
    { class: "ask-dialog", "aria-labelledby": `${id}-title`, "aria-describedby": intro ? `${id}-intro` : null },
    h(
      "div",
      { class: "dialog-head" },
      h("h2", { id: `${id}-title` }, title),
      h("button", { type: "button", class: "close", "aria-label": t("common.close"), onclick: () => dialog.close() }, "×"),
    ),
    form,
  );
  // Errors show in the dialog above everything else while it is open, then back where they
  // were (the page, or an item's view this dialog opened over).
  const regions = document.getElementById("messages").parentElement;
  const focusBefore = document.activeElement;
  let result = null;
  return new Promise((resolve) => {
    form.addEventListener("submit", async (event) => {
      event.preventDefault();
      button.disabled = true;
      try {
        result = await submit(form);
      } finally {
        button.disabled = false;
      }
      if (result) dialog.close();
    });
    dialog.addEventListener("close", () => {
      announceWithin(regions);
      dialog.remove();
      // Cancelled: back where the question came from. Answered: the caller decides, as
      // what was pressed may be gone.
      if (!result && focusBefore?.isConnected) focusBefore.focus();
      resolve(result || null);
    });
    document.body.append(dialog);
    dialog.showModal();
    announceWithin(dialog);
    form.querySelector("input, select, textarea")?.focus();
  });
}
