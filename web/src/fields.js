// Errors by their fields (WCAG 3.3.1, 3.3.3): a field a form cannot be sent with is marked
// invalid (`aria-invalid`), its message sits right below it and describes it
// (`aria-describedby`), and the focus goes to it, so a screen reader reads both. The message
// stays until the field is changed so that it passes. The browser's own checks (required,
// an email address, a number's range) say so in the reader's language instead of the
// browser's bubble, which vanishes; so does a refusal of the service that names a field.
import { showError } from "./announce.js";
import { api } from "./api.js";
import { t } from "./i18n.js";

/** What the browser's check found wrong with `field`, in the reader's language. */
function checkMessage(field) {
  const v = field.validity;
  if (v.valueMissing) return field.type === "radio" ? t("field.choose") : t("field.required");
  if (v.typeMismatch && field.type === "email") return t("field.email");
  if (v.badInput) return t("field.number");
  if (v.rangeUnderflow || v.rangeOverflow) return t("field.range", { min: field.min, max: field.max });
  if (v.tooShort) return t("field.tooShort", { min: field.minLength });
  return field.validationMessage;
}

/** Where a field's message goes: after its label (or its group's, for a choice of radio
 *  buttons), outside it, so that it is the field's description and not part of its name. */
function anchorOf(field) {
  return (field.type === "radio" && field.closest("fieldset")) || field.closest("label") || field;
}

/** The fields a message describes: every radio button of a group, else the field alone. */
function fieldsOf(field) {
  return field.type === "radio" && field.form ? [...field.form.querySelectorAll(`input[type=radio][name="${field.name}"]`)] : [field];
}

let nextId = 0;

/** Shows `message` by `field` and marks it invalid, replacing what it said before. */
export function markInvalid(field, message) {
  const anchor = anchorOf(field);
  let note = anchor.nextElementSibling?.classList.contains("field-error") ? anchor.nextElementSibling : null;
  if (!note) {
    note = document.createElement("p");
    note.className = "field-error";
    note.id = `field-error-${++nextId}`;
    anchor.after(note);
  }
  note.textContent = message;
  for (const each of fieldsOf(field)) {
    each.setAttribute("aria-invalid", "true");
    const described = new Set((each.getAttribute("aria-describedby") ?? "").split(" ").filter(Boolean));
    described.add(note.id);
    each.setAttribute("aria-describedby", [...described].join(" "));
  }
}

/** Takes `field`'s message away: it passes now. */
export function clearInvalid(field) {
  const note = anchorOf(field).nextElementSibling;
  if (!note?.classList.contains("field-error")) return;
  for (const each of fieldsOf(field)) {
    each.removeAttribute("aria-invalid");
    const described = (each.getAttribute("aria-describedby") ?? "").split(" ").filter((id) => id && id !== note.id);
    if (described.length) each.setAttribute("aria-describedby", described.join(" "));
    else each.removeAttribute("aria-describedby");
  }
  note.remove();
}

/** Takes every message of `form` away (it was sent, or emptied). */
export function clearForm(form) {
  for (const field of form.querySelectorAll("[aria-invalid=true]")) clearInvalid(field);
}

/** Shows the browser's checks by their fields, for every form of the page: once, at start. */
export function watchFieldChecks() {
  let focused = false;
  // The browser checks a form's fields in order as it is sent, each failing one firing
  // `invalid`: each shows its message, the first takes the focus. (Microtasks run between
  // the events: only a task comes after the last.)
  document.addEventListener("invalid", (event) => {
    const field = event.target;
    event.preventDefault();
    markInvalid(field, checkMessage(field));
    if (focused) return;
    focused = true;
    field.focus();
    setTimeout(() => (focused = false));
  }, true);
  // A field with a message is checked again as it changes: the message goes once it passes,
  // or says what is still wrong.
  const recheck = (event) => {
    const field = event.target;
    if (field.getAttribute?.("aria-invalid") !== "true" || !field.willValidate) return;
    if (field.checkValidity()) clearInvalid(field);
  };
  document.addEventListener("input", recheck, true);
  document.addEventListener("change", recheck, true);
  // A form emptied starts anew.
  document.addEventListener("reset", (event) => clearForm(event.target), true);
}

/** `api` for a form's request: when the service refuses it for one of the form's fields,
 *  the message shows by that field, which takes the focus; any other failure shows as an
 *  error. The result is undefined when it failed. */
export async function sendForm(form, method, path, body) {
  try {
    const result = await api(method, path, body);
    clearForm(form);
    return result;
  } catch (error) {
    const field = error.field && form.elements.namedItem(error.field);
    if (field instanceof HTMLElement && !field.hidden && field.closest("[hidden]") === null) {
      markInvalid(field, error.message);
      field.focus();
    } else {
      showError(error.message);
    }
    return undefined;
  }
}
