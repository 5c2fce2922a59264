// A question in a modal dialog: a few fields, a button that answers it and Cancel (or Escape,
// or ×); or, before something that cannot be undone, the question alone (`confirmFirst`). The answer is sent before the dialog closes: when the service refuses it, the error
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
  const cancel = h("button", { type: "button", class: "secondary", onclick: () => dialog.close() }, t("common.cancel"));
  const form = h(
    "form",
    { class: "stack" },
    intro ? h("p", { id: `${id}-intro`, class: "ask-intro" }, intro) : null,
    ...fields,
    h("p", { class: "actions" }, button, cancel),
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
      // Back where the question came from; once answered, the caller may move it on, as
      // what was pressed may be going.
      if (focusBefore?.isConnected) focusBefore.focus();
      resolve(result || null);
    });
    document.body.append(dialog);
    dialog.showModal();
    announceWithin(dialog);
    // A question without fields starts on Cancel: Enter alone never destroys anything.
    (form.querySelector("input, select, textarea") ?? cancel).focus();
  });
}

/**
 * Asks `question` in the app's own dialog before something that cannot be undone, `detail`
 * below it; `act()` runs when `confirm` (a red button) is pressed and resolves truthy once
 * done — its error shows in the dialog otherwise. Resolves with that result, or null.
 */
export function confirmFirst({ question, detail, confirm, act }) {
  return ask({ title: question, intro: detail, fields: [], confirm, danger: true, submit: act });
}
