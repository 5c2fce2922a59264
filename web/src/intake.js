// Intake, for staff at the desk (#/intake): a found item handed in — title, description,
// category, the desk that takes it (theirs; asked when they work at several) and the bin it
// goes in, or where it is kept in words, a photo, where (in words and on the map) and when it
// was found and who handed it in (private to staff) — published at once. Then its number, to write on the
// item, and its label to print.
import { api, showingErrors } from "./api.js";
import { showNotice } from "./announce.js";
import { addCategoryOptions } from "./categories.js";
import { runsService } from "./desks.js";
import { h } from "./dom.js";
import { sendForm } from "./fields.js";
import { t } from "./i18n.js";
import { printLabels } from "./labels.js";
import { showOnly, showOutcome } from "./panels.js";
import { scaledPhoto } from "./photo.js";
import { PlacePicker } from "./place.js";
import { whenBody, whenFieldset } from "./when.js";

export class Intake {
  constructor(state) {
    this.state = state;
    this.hint = document.getElementById("intake-hint");
    this.form = document.getElementById("intake-form");
    this.done = document.getElementById("intake-done");
    addCategoryOptions(this.form.elements.cat);
    this.form.querySelector("[data-when]").replaceWith(whenFieldset());
    this.form.elements.site.addEventListener("change", () => this.fillBins());
    this.form.elements.bin.addEventListener("change", () => {
      // A bin names where it is kept.
      this.form.elements.storagePlace.disabled = Boolean(this.form.elements.bin.value);
    });
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
    this.fillDesks();
  }

  /** The desks this person takes items in at: their own, or every desk for an administrator;
   *  asked only when there is a choice. The one chosen stays chosen for the next item. */
  fillDesks() {
    const user = this.state.user;
    const desks = (this.state.sites ?? []).filter((site) => runsService(user) || user.sites?.includes(site.id));
    const select = this.form.elements.site;
    const chosen = Number(select.value) || desks[0]?.id;
    select.replaceChildren(...desks.map((site) => h("option", { value: site.id, selected: site.id === chosen }, site.name)));
    document.getElementById("intake-desk").hidden = desks.length < 2;
    this.fillBins();
  }

  /** The chosen desk's bins; none asked for at a desk without bins. */
  async fillBins() {
    const site = Number(this.form.elements.site.value);
    const select = this.form.elements.bin;
    const bins = site ? await showingErrors(api("GET", `/api/sites/${site}/bins`)) : [];
    if (!bins || Number(this.form.elements.site.value) !== site) return;
    const chosen = Number(select.value);
    select.replaceChildren(
      h("option", { value: "" }, t("desks.noBin")),
      ...bins.map((bin) => h("option", { value: bin.id, selected: bin.id === chosen }, `${bin.code} · ${bin.name}`)),
    );
    document.getElementById("intake-bin").hidden = bins.length === 0;
    this.form.elements.storagePlace.disabled = Boolean(select.value);
  }

  reset() {
    this.form.reset();
    this.place.draw();
    this.logged = null;
  }

  /** The form emptied, but for the desk, the bin, where and on which day it was found: a
   *  batch handed in together (a lecture hall's end-of-day box) is likely all theirs. */
  resetKeepingDesk() {
    const f = this.form.elements;
    const kept = ["site", "bin", "place", "lat", "lng", "radius", "happenedDate"].map((name) => [name, f[name].value]);
    this.form.reset();
    for (const [name, value] of kept) f[name].value = value;
    this.place.draw();
    f.storagePlace.disabled = Boolean(f.bin.value);
  }

  /** Back to an empty form for the next item. */
  again() {
    this.resetKeepingDesk();
    this.logged = null;
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
      storagePlace: f.bin.value ? null : text(f.storagePlace),
      siteId: Number(f.site.value) || undefined,
      binId: Number(f.bin.value) || undefined,
      ...this.place.value(),
      finder: finder.name || finder.contact ? finder : null,
      verification: text(f.verification),
      ...whenBody(this.form),
    };
    const file = f.photo.files[0];
    if (file) {
      body.imgData = await showingErrors(scaledPhoto(file));
      if (!body.imgData) return;
    }
    // Only what the result needs back: without `fields` the answer carries the whole photo.
    const item = await sendForm(this.form, "POST", "/api/items?fields=id,title,storagePlace", body);
    if (!item) return;
    this.logged = item;
    document.getElementById("intake-number").textContent = `#${item.id}`;
    document.getElementById("intake-summary").textContent = item.storagePlace
      ? t("intake.publishedAt", { title: item.title, place: item.storagePlace })
      : t("intake.published", { title: item.title });
    document.getElementById("intake-view").href = `#/items/${item.id}`;
    this.resetKeepingDesk();
    showOutcome(this.done, [this.form, this.done]);
    showNotice(t("intake.logged", { id: item.id, title: item.title }));
  }
}
