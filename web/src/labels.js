// Labels for the shelf (#/labels/7,12,31): one 62 × 29 mm label per item — number, title,
// date, storage place and a QR code, drawn by the service (/api/items/ID/label.svg) — laid out
// on a sheet, or one a page for a 62 mm label printer, then the browser's print dialog.
import { itemTitles } from "./api.js";
import { showError } from "./announce.js";
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";

/** How many labels one sheet takes (the list of items named in one request). */
const MAX_LABELS = 200;
/** Asked for by printLabels: the next labels view prints once its images are in. */
let printWhenReady = false;

/** Shows the labels of `ids` and opens the print dialog once they are loaded. */
export function printLabels(ids) {
  printWhenReady = true;
  location.hash = `#/labels/${ids.join(",")}`;
}

export class Labels {
  constructor(state) {
    this.state = state;
    this.sheet = document.getElementById("labels-sheet");
    this.count = document.getElementById("labels-count");
    this.paper = document.getElementById("labels-paper");
    this.paper.addEventListener("change", () => this.sheet.classList.toggle("roll", this.paper.value === "roll"));
    document.getElementById("labels-print").addEventListener("click", () => window.print());
    document.getElementById("labels-back").addEventListener("click", () => {
      // Back to the screen that asked for them; opened from a link, to Review.
      if (this.cameFromApp) history.back();
      else location.hash = "#/review";
    });
  }

  async show(arg = "") {
    const admin = Boolean(this.state.user?.isAdmin);
    const print = printWhenReady;
    this.cameFromApp = print;
    printWhenReady = false;
    document.getElementById("labels-hint").hidden = admin;
    document.getElementById("labels-content").hidden = !admin;
    this.sheet.replaceChildren();
    this.count.textContent = "";
    if (!admin) return;
    const ids = [...new Set(arg.split(",").map(Number).filter((id) => Number.isInteger(id) && id > 0))].slice(0, MAX_LABELS);
    if (ids.length === 0) {
      this.count.textContent = t("labels.noneChosen");
      return;
    }
    const titles = await itemTitles(ids);
    const images = ids.map((id) =>
      h("img", { src: `/api/items/${id}/label.svg`, alt: t("labels.alt", { id, title: titles.get(id) }), width: 234, height: 110 }));
    this.sheet.replaceChildren(...images.map((img) => h("li", {}, img)));
    this.count.textContent = tn("labels.count", ids.length);
    const loaded = await Promise.all(images.map((img) => img.decode().then(() => true, () => false)));
    if (loaded.includes(false)) {
      showError(t("labels.failed"));
      return;
    }
    if (print && location.hash.startsWith("#/labels/")) window.print();
  }
}
