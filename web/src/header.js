// The header on a phone: the menu button opens and closes the menu (the screens, the account,
// the language), which closes again on Escape or when a screen is chosen; and, at every size,
// the room the sticky top bar takes, so that a field moved into view (by Tab, or by focus())
// lands below it.
// On a wide screen the menu's pieces are the header's row, and the button is not shown.
const MENU_OPEN = "open";

export class Header {
  constructor() {
    this.button = document.getElementById("menu-button");
    this.menu = document.getElementById("menu");
    this.button.addEventListener("click", () => {
      this.toggle(!this.isOpen());
      // The menu comes before its button in the page (wide, it is the header's row): the
      // focus goes into it, the current screen's link first.
      if (this.isOpen()) (this.menu.querySelector('a[aria-current="page"]') ?? this.menu.querySelector("a")).focus();
    });
    document.addEventListener("keydown", (event) => {
      if (event.key !== "Escape" || !this.isOpen()) return;
      this.toggle(false);
      this.button.focus();
    });
    const bar = document.getElementById("top-bar");
    new ResizeObserver(() => {
      document.documentElement.style.setProperty("--top-bar-height", `${bar.offsetHeight}px`);
    }).observe(bar);
  }

  isOpen() {
    return this.menu.classList.contains(MENU_OPEN);
  }

  /** Opens (`true`) or closes the menu; on a wide screen its pieces show either way. */
  toggle(open) {
    this.menu.classList.toggle(MENU_OPEN, open);
    this.button.setAttribute("aria-expanded", String(open));
  }
}
