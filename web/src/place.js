// Picking where an item was lost or found, in a form (the report form, the desk's intake): the
// place in words (building, room, desk), and a click on the map, the device's location, or
// coordinates typed in the form's `lat`, `lng` and `radius` fields; the map shows the place
// and its radius, and the form says so above the map when it is sent without one.
import { showError } from "./announce.js";
import { h } from "./dom.js";
import { currentPosition } from "./geolocation.js";
import { t } from "./i18n.js";
import { L, createMap } from "./map.js";

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
  }

  /** Call once the form is visible: Leaflet measures its box. */
  show() {
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
