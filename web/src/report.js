// Report: lost or found, title, description, category, a photo scaled down in the browser, the
// place in words, and on the map (picked there, from the device's location, or typed) with a
// radius, without which it is not sent; and when, if the reporter knows. Staff taking a lost
// report at the desk for a visitor without an account add the visitor's name, email and
// phone. Visitors see a panel that asks them to log in or create an account.
import { showingErrors } from "./api.js";
import { showNotice } from "./announce.js";
import { addCategoryOptions } from "./categories.js";
import { deskLines } from "./desks.js";
import { sendForm } from "./fields.js";
import { t } from "./i18n.js";
import { scaledPhoto } from "./photo.js";
import { PlacePicker } from "./place.js";
import { declinePush, mayOfferPush, turnOnPush } from "./push.js";
import { whenBody, whenFieldset } from "./when.js";

export class Report {
  constructor(state) {
    this.state = state;
    this.form = document.getElementById("report-form");
    addCategoryOptions(this.form.elements.cat);
    this.form.querySelector("[data-when]").replaceWith(whenFieldset());
    this.visitorFields = document.getElementById("report-visitor-fields");
    for (const radio of this.form.elements.kind) radio.addEventListener("change", () => this.showVisitorFields());
    this.form.addEventListener("submit", (event) => this.submit(event));
    this.place = new PlacePicker(this.form, document.getElementById("report-map"), document.getElementById("use-location"), state.config);
    this.offer = document.getElementById("push-offer");
    document.getElementById("push-offer-yes").addEventListener("click", () => this.answerOffer(true));
    document.getElementById("push-offer-no").addEventListener("click", () => this.answerOffer(false));
  }

  /** After a lost report of one's own: news of it is what notifications on this device are
   *  for, so this is when they are offered (once: "Not now" is kept). */
  async offerPush() {
    this.offer.hidden = !(await mayOfferPush());
  }

  async answerOffer(yes) {
    if (yes) {
      showNotice((await turnOnPush()) ? t("push.turnedOn") : t("push.notTurnedOn"));
    } else {
      declinePush();
    }
    this.offer.hidden = true;
    this.form.elements.title.focus();
  }

  show() {
    const loggedIn = Boolean(this.state.user);
    this.offer.hidden = true;
    // Visitors are asked to log in or sign up instead, and told where the desks are: without
    // an account (sign-up off), staff take the report there.
    document.getElementById("report-visitor").hidden = loggedIn;
    const signup = Boolean(this.state.access.signup);
    document.getElementById("report-signup").hidden = !signup;
    document.getElementById("report-visitor-text").textContent = signup ? t("report.visitor") : t("report.visitorAtDesk");
    document.getElementById("report-desks").replaceChildren(...deskLines(this.state.sites ?? []));
    this.form.hidden = !loggedIn;
    this.showVisitorFields();
    if (loggedIn) this.place.show();
  }

  /** A visitor's fields are for staff, taking a lost report at the desk. */
  showVisitorFields() {
    this.visitorFields.hidden = !(this.state.user?.isAdmin && this.form.elements.kind.value === "lost");
  }

  /** The visitor the report is taken for (`{ name, email, phone }`), or null when none is
   *  named. */
  visitor() {
    const f = this.form.elements;
    if (this.visitorFields.hidden) return null;
    const [name, email, phone] = [f.visitorName, f.visitorEmail, f.visitorPhone].map((field) => field.value.trim());
    return name || email || phone ? { name, email, phone: phone || undefined } : null;
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
    // Taken at the desk: reviewed as it is taken.
    const visitor = this.visitor();
    if (visitor) Object.assign(body, { visitor, status: "approved" });
    const file = f.photo.files[0];
    if (file) {
      body.imgData = await showingErrors(scaledPhoto(file));
      if (!body.imgData) return;
    }
    // Only what the notice needs back: without `fields` the answer carries the whole photo.
    const item = await sendForm(this.form, "POST", "/api/items?fields=id,title", body);
    if (!item) return;
    this.form.reset();
    this.place.draw();
    if (!visitor && body.kind === "lost") this.offerPush();
    showNotice(visitor ? t("report.doneVisitor", { title: item.title, name: visitor.name, email: visitor.email }) : t("report.done", { title: item.title }));
  }
}
