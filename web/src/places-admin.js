// Named places, for administrators (the Desks screen): the buildings, rooms and stops people
// choose by name when they report an item (place.js). Added one at a time, imported from a
// CSV file (`name,lat,lng,radius`), removed.
import { api, attempt, showingErrors } from "./api.js";
import { showError, showNotice } from "./announce.js";
import { confirmFirst } from "./ask.js";
import { h } from "./dom.js";
import { sendForm } from "./fields.js";
import { formatNumber, t, tn, translateError } from "./i18n.js";

export class PlacesAdmin {
  constructor() {
    this.panel = document.getElementById("places-panel");
    this.list = document.getElementById("place-list");
    this.form = document.getElementById("place-form");
    this.form.addEventListener("submit", (event) => this.add(event));
    this.file = document.getElementById("place-file");
    this.file.addEventListener("change", () => this.import());
  }

  /** Shows the panel to an administrator who runs the service (`shown`), with the list. */
  show(shown) {
    this.panel.hidden = !shown;
    if (shown) this.load();
  }

  async load() {
    const places = await showingErrors(api("GET", "/api/places"));
    if (places) this.list.replaceChildren(...places.map((place) => this.row(place)));
  }

  row(place) {
    const coordinate = (n) => formatNumber(n, { maximumFractionDigits: 5 });
    const where = `${coordinate(place.lat)}, ${coordinate(place.lng)}`;
    return h(
      "li",
      {},
      h("strong", {}, place.name),
      " ",
      h("span", { class: "meta" }, place.radius == null ? where : t("places.within", { where, radius: formatNumber(place.radius) })),
      " ",
      h("button", { type: "button", class: "danger secondary", "aria-label": t("places.removeNamed", { name: place.name }), onclick: () => this.remove(place) }, t("places.remove")),
    );
  }

  async add(event) {
    event.preventDefault();
    const f = this.form.elements;
    const body = { name: f.name.value.trim(), lat: Number(f.lat.value), lng: Number(f.lng.value), radius: f.radius.value === "" ? null : Number(f.radius.value) };
    const place = await sendForm(this.form, "POST", "/api/places", body);
    if (!place) return;
    this.form.reset();
    showNotice(t("places.added", { name: place.name }));
    await this.load();
    f.name.focus();
  }

  async import() {
    const file = this.file.files[0];
    if (!file) return;
    const outcome = await showingErrors(api("POST", "/api/places/import", await file.text(), "text/csv"));
    this.file.value = "";
    if (!outcome) return;
    const saved = tn("places.imported", outcome.saved);
    if (outcome.refused.length === 0) showNotice(saved);
    else showError([saved, ...outcome.refused.map(({ line, error }) => t("places.refusedLine", { line, error: translateError(error) }))].join("\n"));
    await this.load();
  }

  async remove(place) {
    const removed = await confirmFirst({
      question: t("places.removeConfirm", { name: place.name }),
      confirm: t("places.remove"),
      act: () => attempt("DELETE", `/api/places/${place.id}`),
    });
    if (!removed) return;
    showNotice(t("places.removed", { name: place.name }));
    await this.load();
    this.form.elements.name.focus();
  }
}
