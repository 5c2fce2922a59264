// Intake, for staff at the desk (#/intake): a found item handed in — title, description,
// category, where it is kept, a photo, where it was found (in words and on the map) and who
// handed it in (private to staff) — published at once. Then its number, to write on the
// item, and its label to print.
import { attempt, showingErrors } from "./api.js";
import { showNotice } from "./announce.js";
import { addCategoryOptions } from "./categories.js";
import { t } from "./i18n.js";
import { printLabels } from "./labels.js";
import { showOnly, showOutcome } from "./panels.js";
import { scaledPhoto } from "./photo.js";
import { PlacePicker } from "./place.js";

export class Intake {
  constructor(state) {
    this.state = state;
    this.hint = document.getElementById("intake-hint");
    this.form = document.getElementById("intake-form");
    this.done = document.getElementById("intake-done");
    addCategoryOptions(this.form.elements.cat);
    this.place = new PlacePicker(this.form, document.getElementById("intake-map"), document.getElementById("intake-locate"), state.config);
    this.form.addEventListener("submit", (event) => this.submit(event));
    document.getElementById("intake-print").addEventListener("click", () => printLabels([this.logged.id]));
    document.getElementById("intake-again").addEventListener("click", () => this.again());
  }

  show() {
    const admin = Boolean(this.state.user?.isAdmin);
    this.hint.hidden = admin;
    if (!admin) {
      // Nothing typed about a finder stays behind for the next person at this computer.
      this.reset();
      showOnly(null, [this.form, this.done]);
      return;
    }
    if (this.done.hidden) {
      showOnly(this.form, [this.form, this.done]);
      this.place.show();
    }
  }

  reset() {
    this.form.reset();
    this.place.draw();
    this.logged = null;
  }

  /** Back to an empty form for the next item. */
  again() {
    this.reset();
    showOnly(this.form, [this.form, this.done]);
    this.place.show();
    this.form.elements.title.focus();
  }

  async submit(event) {
    event.preventDefault();
    if (!this.place.chosen()) return;
    const f = this.form.elements;
    const text = (field) => field.value.trim() || null;
    const finder = { name: text(f.finderName), contact: text(f.finderContact) };
    const body = {
      kind: "found",
      status: "approved",
      title: f.title.value,
      desc: text(f.desc),
      cat: f.cat.value || null,
      storagePlace: text(f.storagePlace),
      ...this.place.value(),
      finder: finder.name || finder.contact ? finder : null,
    };
    const file = f.photo.files[0];
    if (file) {
      body.imgData = await showingErrors(scaledPhoto(file));
      if (!body.imgData) return;
    }
    // Only what the result needs back: without `fields` the answer carries the whole photo.
    const item = await attempt("POST", "/api/items?fields=id,title,storagePlace", body);
    if (!item) return;
    this.logged = item;
    document.getElementById("intake-number").textContent = `#${item.id}`;
    document.getElementById("intake-summary").textContent = item.storagePlace
      ? t("intake.publishedAt", { title: item.title, place: item.storagePlace })
      : t("intake.published", { title: item.title });
    document.getElementById("intake-view").href = `#/items/${item.id}`;
    this.form.reset();
    this.place.draw();
    showOutcome(this.done, [this.form, this.done]);
    showNotice(t("intake.logged", { id: item.id, title: item.title }));
  }
}
