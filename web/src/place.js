// Picking where an item was lost or found, in a form (the report form, the desk's intake): the
// place in words (building, room, desk) — where a named place the administrators keep,
// chosen as one types, sets the point without a map — and a click on the map, the device's
// location, or coordinates typed in the form's `lat`, `lng` and `radius` fields; the map shows
// the place and its radius, and the form says so above the map when it is sent without one.
import { api } from "./api.js";
import { showError } from "./announce.js";
import { h } from "./dom.js";
import { currentPosition } from "./geolocation.js";
import { t, tn } from "./i18n.js";
import { L, createMap } from "./map.js";

/** Suggestions shown at most. */
const SUGGESTIONS = 8;

/** `text` folded for matching: lower case, without accents. */
const fold = (text) => text.normalize("NFD").replace(/\p{M}/gu, "").toLowerCase();

export class PlacePicker {
  /** `form` has the fields `place`, `lat`, `lng` and `radius`; `mapElement` holds the map
   *  (made the first time the form shows); `locateButton` asks for the device's location. */
  constructor(form, mapElement, locateButton, config) {
    Object.assign(this, { form, mapElement, config });
    for (const name of ["lat", "lng", "radius"]) {
      form.elements[name].addEventListener("input", () => this.draw());
    }
    locateButton.addEventListener("click", () => this.locate());
    // In the page from the start: a live region speaks what changes in it, not what appears.
    this.error = h("p", { id: `${mapElement.id}-error`, class: "field-error", role: "alert" });
    mapElement.before(this.error);
    mapElement.setAttribute("aria-describedby", this.error.id);
    form.addEventListener("reset", () => this.showMissing(false));
    this.namedPlaces = [];
    this.combobox(form.elements.place, mapElement.id);
  }

  /** Makes `input` a combobox (ARIA 1.2, list autocomplete) of the named places its text
   *  matches: arrow keys move through them, Enter or a click takes one, Escape closes. */
  combobox(input, id) {
    this.input = input;
    this.options = h("ul", { id: `${id}-places`, role: "listbox", class: "place-suggestions", "aria-label": t("place.suggestions"), hidden: true });
    this.status = h("p", { class: "visually-hidden", role: "status" });
    // After its label, not in it: the options are no part of the field's name.
    (input.closest("label") ?? input).after(this.options, this.status);
    Object.entries({ role: "combobox", "aria-autocomplete": "list", "aria-expanded": "false", "aria-controls": this.options.id })
      .forEach(([name, value]) => input.setAttribute(name, value));
    input.addEventListener("input", () => this.suggest());
    input.addEventListener("blur", () => this.close());
    input.addEventListener("keydown", (event) => {
      const open = !this.options.hidden;
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        event.preventDefault();
        if (!open) this.suggest();
        else this.move(event.key === "ArrowDown" ? 1 : -1);
      } else if (event.key === "Enter" && open && this.active >= 0) {
        event.preventDefault();
        this.take(this.matches[this.active]);
      } else if (event.key === "Escape" && open) {
        event.preventDefault();
        this.close();
      }
    });
  }

  /** Shows the named places the text matches (all of them for no text), none chosen yet. */
  suggest() {
    const typed = fold(this.input.value.trim());
    this.matches = this.namedPlaces.filter((place) => fold(place.name).includes(typed)).slice(0, SUGGESTIONS);
    this.active = -1;
    this.input.removeAttribute("aria-activedescendant");
    this.options.replaceChildren(...this.matches.map((place, n) =>
      h("li", { id: `${this.options.id}-${n}`, role: "option", "aria-selected": "false",
        // Taken before the input loses its focus to the click.
        onmousedown: (event) => { event.preventDefault(); this.take(place); } }, place.name)));
    const open = this.matches.length > 0;
    this.options.hidden = !open;
    this.input.setAttribute("aria-expanded", String(open));
    if (this.namedPlaces.length > 0) {
      this.status.textContent = open ? tn("place.count", this.matches.length) : t("place.none");
    }
  }

  move(step) {
    const count = this.matches.length;
    this.active = (this.active + step + count) % count;
    for (const [n, option] of [...this.options.children].entries()) option.setAttribute("aria-selected", String(n === this.active));
    const option = this.options.children[this.active];
    this.input.setAttribute("aria-activedescendant", option.id);
    option.scrollIntoView({ block: "nearest" });
  }

  close() {
    this.options.hidden = true;
    this.input.setAttribute("aria-expanded", "false");
    this.input.removeAttribute("aria-activedescendant");
  }

  /** Takes named place `place`: its name in words, its point and reach on the map. */
  take(place) {
    this.input.value = place.name;
    this.close();
    this.set(place.lat, place.lng, place.radius ?? undefined);
    this.map?.setView([place.lat, place.lng], 17);
    this.status.textContent = t("place.taken", { name: place.name });
  }

  /** Call once the form is visible: Leaflet measures its box. */
  show() {
    api("GET", "/api/places").then((places) => { this.namedPlaces = places; }, () => {});
    if (!this.map) {
      this.map = createMap(this.mapElement, this.config);
      this.map.on("click", (event) => this.set(event.latlng.lat, event.latlng.lng));
    }
    this.map.invalidateSize();
  }

  set(lat, lng, radius) {
    this.form.elements.lat.value = lat.toFixed(6);
    this.form.elements.lng.value = lng.toFixed(6);
    if (radius !== undefined) this.form.elements.radius.value = Math.min(100000, Math.round(radius));
    this.draw();
  }

  /** The place as the API takes it: `{ place, lat, lng, radius }` (`place` null if blank). */
  value() {
    const f = this.form.elements;
    return {
      place: f.place.value.trim() || null,
      lat: Number.parseFloat(f.lat.value),
      lng: Number.parseFloat(f.lng.value),
      radius: Number.parseFloat(f.radius.value) || 0,
    };
  }

  /** Draws the place as the fields hold it (none: nothing; after the form's reset, too). */
  draw() {
    const { lat, lng, radius } = this.value();
    this.marker?.remove();
    this.circle?.remove();
    if (!this.map || !Number.isFinite(lat) || !Number.isFinite(lng)) return;
    this.showMissing(false);
    this.marker = L.marker([lat, lng], { title: t("place.chosen"), alt: t("place.chosen") }).addTo(this.map);
    this.circle = L.circle([lat, lng], { radius, weight: 1 }).addTo(this.map);
  }

  /** Whether the form has a place on the map; if not, says so above the map and moves the
   *  focus to it, for the form not to be sent. */
  chosen() {
    // A named place typed out in full, not chosen from the list: it is still that place.
    const typed = fold(this.input.value.trim());
    const named = this.namedPlaces.find((place) => fold(place.name) === typed);
    if (named && !Number.isFinite(this.value().lat)) this.set(named.lat, named.lng, named.radius ?? undefined);
    const { lat, lng } = this.value();
    const missing = !Number.isFinite(lat) || !Number.isFinite(lng);
    this.showMissing(missing);
    if (missing) this.mapElement.focus();
    return !missing;
  }

  /** Says that the place is missing (`true`), or no longer. */
  showMissing(missing) {
    this.error.textContent = missing ? t("place.missing") : "";
    const f = this.form.elements;
    for (const el of [this.mapElement, f.lat, f.lng]) {
      if (missing) el.setAttribute("aria-invalid", "true");
      else el.removeAttribute("aria-invalid");
    }
  }

  async locate() {
    let coords;
    try {
      coords = await currentPosition();
    } catch (error) {
      showError(t("place.pickOnMap", { reason: error.message }));
      return;
    }
    this.set(coords.latitude, coords.longitude, coords.accuracy);
    this.map?.setView([coords.latitude, coords.longitude], 17);
  }
}
