// A button that shows and hides the panel below it (a form, a list), and says which with
// aria-expanded, so screen readers announce it as a collapsible section.

/** Makes `button` show and hide `panel` (which has an id), closed to start with; `onOpen()`
 *  runs each time it opens. Returns a function that opens (true) or closes (false) it. */
export function disclose(button, panel, onOpen = () => {}) {
  const set = (open) => {
    panel.hidden = !open;
    button.setAttribute("aria-expanded", String(open));
    if (open) onOpen();
  };
  button.setAttribute("aria-controls", panel.id);
  button.addEventListener("click", () => set(panel.hidden));
  set(false);
  return set;
}
