// Report: lost or found, title, description, category, a photo scaled down in the browser, the
// place in words, and on the map (picked there, from the device's location, or typed) with a
// radius, without which it is not sent; and when, if the reporter knows. Visitors see a panel that asks them to log in or
// create an account.
import { attempt, showingErrors } from "./api.js";
import { showNotice } from "./announce.js";
import { addCategoryOptions } from "./categories.js";
import { deskLines } from "./desks.js";
import { t } from "./i18n.js";
import { scaledPhoto } from "./photo.js";
import { PlacePicker } from "./place.js";
import { whenBody, whenFieldset } from "./when.js";

export class Report {
  constructor(state) {
    this.state = state;
    this.form = document.getElementById("report-form");
    addCategoryOptions(this.form.elements.cat);
    this.form.querySelector("[data-when]").replaceWith(whenFieldset());
    this.form.addEventListener("submit", (event) => this.submit(event));
    this.place = new PlacePicker(this.form, document.getElementById("report-map"), document.getElementById("use-location"), state.config);
  }

  show() {
    const loggedIn = Boolean(this.state.user);
    // Visitors are asked to log in or sign up instead, and told where the desks are: without
    // an account (sign-up off), staff take the report there.
    document.getElementById("report-visitor").hidden = loggedIn;
    const signup = Boolean(this.state.access.signup);
    document.getElementById("report-signup").hidden = !signup;
    document.getElementById("report-visitor-text").textContent = signup ? t("report.visitor") : t("report.visitorAtDesk");
    document.getElementById("report-desks").replaceChildren(...deskLines(this.state.sites ?? []));
    this.form.hidden = !loggedIn;
    if (loggedIn) this.place.show();
  }

  async submit(event) {
    event.preventDefault();
    if (!this.place.chosen()) return;
    const f = this.form.elements;
    const body = {
      kind: f.kind.value,
      title: f.title.value,
      desc: f.desc.value || null,
      cat: f.cat.value || null,
      ...this.place.value(),
      ...whenBody(this.form),
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
    this.place.draw();
    showNotice(t("report.done", { title: item.title }));
  }
}
