// Report: lost or found, title, description, category, a photo scaled down in the browser, a
// place picked on the map or from the device's location (or typed), and a radius. Visitors
// see a panel that asks them to log in or create an account.
import { attempt, showingErrors } from "./api.js";
import { showError, showNotice } from "./announce.js";
import { addCategoryOptions } from "./categories.js";
import { h } from "./dom.js";
import { currentPosition } from "./geolocation.js";
import { L, createMap } from "./map.js";

/** Photos are sent as JPEG no larger than this (the service accepts up to 5 MiB). */
const MAX_PHOTO_BYTES = 1.5 * 1024 * 1024;
const MAX_PHOTO_SIDE = 1600;

export class Report {
  constructor(state) {
    this.state = state;
    this.form = document.getElementById("report-form");
    addCategoryOptions(this.form.elements.cat);
    this.form.addEventListener("submit", (event) => this.submit(event));
    for (const name of ["lat", "lng", "radius"]) {
      this.form.elements[name].addEventListener("input", () => this.drawPlace());
    }
    document.getElementById("use-location").addEventListener("click", () => this.locate());
  }

  show() {
    const loggedIn = Boolean(this.state.user);
    // Visitors are asked to log in or sign up instead.
    document.getElementById("report-visitor").hidden = loggedIn;
    document.getElementById("report-signup").hidden = !this.state.access.signup;
    this.form.hidden = !loggedIn;
    if (!loggedIn) return;
    if (!this.map) {
      this.map = createMap(document.getElementById("report-map"), this.state.config);
      this.map.on("click", (event) => this.setPlace(event.latlng.lat, event.latlng.lng));
    }
    this.map.invalidateSize();
  }

  setPlace(lat, lng, radius) {
    this.form.elements.lat.value = lat.toFixed(6);
    this.form.elements.lng.value = lng.toFixed(6);
    if (radius !== undefined) this.form.elements.radius.value = Math.min(100000, Math.round(radius));
    this.drawPlace();
  }

  drawPlace() {
    const lat = Number.parseFloat(this.form.elements.lat.value);
    const lng = Number.parseFloat(this.form.elements.lng.value);
    const radius = Number.parseFloat(this.form.elements.radius.value) || 0;
    this.marker?.remove();
    this.circle?.remove();
    if (!Number.isFinite(lat) || !Number.isFinite(lng)) return;
    this.marker = L.marker([lat, lng], { title: "Chosen place", alt: "Chosen place" }).addTo(this.map);
    this.circle = L.circle([lat, lng], { radius, weight: 1 }).addTo(this.map);
  }

  async locate() {
    let coords;
    try {
      coords = await currentPosition();
    } catch (error) {
      showError(`${error.message} Pick the place on the map.`);
      return;
    }
    this.setPlace(coords.latitude, coords.longitude, coords.accuracy);
    this.map.setView([coords.latitude, coords.longitude], 17);
  }

  async submit(event) {
    event.preventDefault();
    const f = this.form.elements;
    const body = {
      kind: f.kind.value,
      title: f.title.value,
      desc: f.desc.value || null,
      cat: f.cat.value || null,
      lat: Number.parseFloat(f.lat.value),
      lng: Number.parseFloat(f.lng.value),
      radius: Number.parseFloat(f.radius.value) || 0,
    };
    const file = f.photo.files[0];
    if (file) {
      body.imgData = await showingErrors(scaledPhoto(file));
      if (!body.imgData) return;
    }
    // Only what the notice needs back: without `fields` the answer carries the whole photo.
    const item = await attempt("POST", "/api/items?fields=id,title", body);
    if (!item) return;
    this.form.reset();
    this.drawPlace();
    showNotice(`Thank you. “${item.title}” is reported and waits for review.`);
  }
}

/** The photo as a JPEG data URL, scaled down until it fits MAX_PHOTO_BYTES. */
async function scaledPhoto(file) {
  const url = URL.createObjectURL(file);
  try {
    const image = await new Promise((resolve, reject) => {
      const img = new Image();
      img.onload = () => resolve(img);
      img.onerror = () => reject(new Error("That file is not a photo this browser can read."));
      img.src = url;
    });
    let scale = Math.min(1, MAX_PHOTO_SIDE / Math.max(image.naturalWidth, image.naturalHeight));
    for (;;) {
      const canvas = h("canvas", {
        width: Math.max(1, Math.round(image.naturalWidth * scale)),
        height: Math.max(1, Math.round(image.naturalHeight * scale)),
      });
      canvas.getContext("2d").drawImage(image, 0, 0, canvas.width, canvas.height);
      const dataUrl = canvas.toDataURL("image/jpeg", 0.85);
      if ((dataUrl.length * 3) / 4 <= MAX_PHOTO_BYTES) return dataUrl;
      scale *= 0.75;
    }
  } finally {
    URL.revokeObjectURL(url);
  }
}
