// Desks, for staff (#/desks): the service's sites, one shown at a time — where it is, when it
// is open, what to bring; its storage bins (added, renamed, removed and labelled by its own
// staff); and what travels to and from it, received here into a bin. Administrators also add
// and remove desks. A bin's page (#/desks/bin/ID, what its label's QR code opens) lists what
// it holds.
import { api, attempt, showingErrors } from "./api.js";
import { showNotice } from "./announce.js";
import { confirmFirst } from "./ask.js";
import { h } from "./dom.js";
import { t, tn } from "./i18n.js";
import { latestOnly } from "./latest.js";
import { PlacesAdmin } from "./places-admin.js";

const ITEM_FIELDS = "id,title,siteId,transitTo,storagePlace";
/** What the desk form edits, by the site's keys (and the form's field names). */
const SITE_FIELDS = ["name", "place", "hours", "contact", "collect", "lat", "lng", "holdDays"];

/** Whether `user` runs the whole service. */
export function runsService(user) {
  return user?.role === "administrator";
}

/** Whether `user` does the office's work at site `siteId`: an administrator anywhere, staff
 *  at their own sites. */
export function worksAt(user, siteId) {
  return runsService(user) || Boolean(user?.sites?.includes(siteId));
}

/** Fills `select` with "All desks" and each of `sites`, keeping what it showed when it can,
 *  else choosing the desk `user`'s work starts at: a staff member's first, for an
 *  administrator every desk. Shown only when there is a choice. */
export function fillDeskChoice(select, sites, user) {
  const before = select.options.length ? select.value : null;
  select.replaceChildren(
    h("option", { value: "" }, t("browse.allSites")),
    ...sites.map((site) => h("option", { value: site.id }, site.name)),
  );
  const known = (value) => value === "" || sites.some((site) => String(site.id) === value);
  select.value = before !== null && known(before) ? before : String(runsService(user) ? "" : user?.sites?.[0] ?? "");
  select.closest("label").hidden = sites.length < 2;
}

/** Each desk as a visitor reads it: its name, where it is, when it is open and how to reach
 *  it, one list item each. */
export function deskLines(sites) {
  return sites.map((site) =>
    h("li", {}, h("strong", {}, site.name), ...[site.place, site.hours, site.contact].filter(Boolean).flatMap((part) => [" · ", part])));
}

/** Site `id`'s name, or its number when the list does not have it. */
export function siteName(state, id) {
  return state.sites?.find((site) => site.id === id)?.name ?? `#${id}`;
}

export class Desks {
  constructor(state) {
    this.places = new PlacesAdmin();
    this.state = state;
    this.hint = document.getElementById("desks-hint");
    this.content = document.getElementById("desks-content");
    this.picker = document.getElementById("desk-picker");
    this.about = document.getElementById("desk-about");
    this.bins = document.getElementById("desk-bins");
    this.binForm = document.getElementById("bin-form");
    this.incoming = document.getElementById("desk-incoming");
    this.outgoing = document.getElementById("desk-outgoing");
    this.siteForm = document.getElementById("site-form");
    this.binPage = document.getElementById("bin-page");
    this.fetch = latestOnly((path) => api("GET", path));
    this.picker.addEventListener("change", () => this.load());
    this.binForm.addEventListener("submit", (event) => this.addBin(event));
    this.siteForm.addEventListener("submit", (event) => this.saveSite(event));
    /** The desk the form changes; null: it adds one. */
    this.editing = null;
    document.getElementById("site-form-cancel").addEventListener("click", () => this.editSite(null));
  }

  show() {
    const staff = Boolean(this.state.user?.isAdmin);
    this.hint.hidden = staff;
    this.content.hidden = !staff;
    this.binPage.hidden = true;
    if (!staff) return;
    const bin = /^#\/desks\/bin\/(\d+)$/.exec(location.hash);
    if (bin) {
      this.content.hidden = true;
      this.showBin(Number(bin[1]));
      return;
    }
    this.siteForm.hidden = !runsService(this.state.user);
    this.places.show(runsService(this.state.user));
    this.fillPicker();
    this.load();
  }

  /** The desks to choose from, the user's own first chosen. */
  fillPicker() {
    const chosen = Number(this.picker.value) || this.state.user.sites?.[0] || this.state.sites[0]?.id;
    this.picker.replaceChildren(
      ...this.state.sites.map((site) => h("option", { value: site.id, selected: site.id === chosen }, site.name)),
    );
  }

  site() {
    return this.state.sites.find((site) => site.id === Number(this.picker.value));
  }

  async load() {
    const site = this.site();
    if (!site) return;
    const mine = worksAt(this.state.user, site.id);
    this.binForm.hidden = !mine;
    const [bins, transfers] = await Promise.all([
      showingErrors(api("GET", `/api/sites/${site.id}/bins`)),
      showingErrors(this.fetch(`/api/sites/${site.id}/transfers?fields=${ITEM_FIELDS}`)),
    ]);
    if (!bins || !transfers || this.site()?.id !== site.id) return;
    this.bins.replaceChildren(...(bins.length ? bins.map((bin) => this.binRow(bin, mine)) : [h("li", { class: "meta" }, t("desks.noBins"))]));
    this.about.replaceChildren(...this.aboutSite(site));
    this.showTransfers(transfers, bins, mine);
  }

  aboutSite(site) {
    const lines = [
      [t("desks.place"), site.place],
      [t("desks.hours"), site.hours],
      [t("desks.contact"), site.contact],
      [t("desks.collect"), site.collect],
      [t("desks.keepsFor"), site.holdDays == null ? null : tn("desks.days", site.holdDays)],
    ].filter(([, value]) => value);
    const parts = [h("dl", { class: "fields" }, ...lines.flatMap(([k, v]) => [h("dt", {}, k), h("dd", {}, v)]))];
    if (this.state.user.sites?.includes(site.id)) parts.unshift(h("p", { class: "meta" }, t("desks.yours")));
    if (runsService(this.state.user)) {
      parts.push(h("div", { class: "actions" },
        h("button", { type: "button", class: "secondary", onclick: () => this.editSite(site) }, t("desks.change")),
        this.state.sites.length > 1 ? h("button", { type: "button", class: "danger secondary", onclick: () => this.removeSite(site) }, t("desks.remove")) : null));
    }
    return parts;
  }

  binRow(bin, mine) {
    const path = `/api/bins/${bin.id}`;
    const rename = h(
      "form",
      { class: "inline-form", hidden: true, "aria-label": t("desks.renameOf", { code: bin.code }) },
      h("label", {}, t("desks.binName"), h("input", { name: "name", value: bin.name, required: true, maxlength: 200 })),
      h("button", { type: "submit" }, t("common.save")),
    );
    rename.addEventListener("submit", async (event) => {
      event.preventDefault();
      if (!(await attempt("PATCH", path, { name: rename.elements.name.value.trim() }))) return;
      showNotice(t("desks.binSaved", { code: bin.code }));
      this.load();
    });
    return h(
      "li",
      { class: "panel bin" },
      h("p", {}, h("strong", {}, bin.code), " ", bin.name),
      h(
        "div",
        { class: "actions" },
        h("a", { href: `#/desks/bin/${bin.id}` }, t("desks.binItems")),
        h("a", { href: `${path}/label.svg`, target: "_blank", rel: "noopener" }, t("desks.binLabel", { code: bin.code })),
        mine && h("button", { type: "button", class: "secondary", "aria-expanded": "false", onclick: (event) => toggle(event.currentTarget, rename) }, t("desks.rename")),
        mine && h("button", { type: "button", class: "danger secondary", onclick: () => this.removeBin(bin) }, t("desks.removeBin")),
      ),
      rename,
    );
  }

  showTransfers({ incoming, outgoing }, bins, mine) {
    const row = (item, extra) => h("li", {}, h("a", { href: `#/items/${item.id}` }, `#${item.id} ${item.title}`), " ", extra);
    const receive = (item) => {
      if (!mine) return h("span", { class: "meta" }, t("desks.from", { site: siteName(this.state, item.siteId) }));
      const select = h(
        "select",
        { name: "bin", "aria-label": t("desks.intoBin", { title: item.title }) },
        h("option", { value: "" }, t("desks.noBin")),
        ...bins.map((bin) => h("option", { value: bin.id }, `${bin.code} · ${bin.name}`)),
      );
      const form = h(
        "form",
        { class: "inline-form" },
        h("span", { class: "meta" }, t("desks.from", { site: siteName(this.state, item.siteId) })),
        select,
        h("button", { type: "submit" }, t("desks.receive")),
      );
      form.addEventListener("submit", async (event) => {
        event.preventDefault();
        const body = select.value ? { binId: Number(select.value) } : {};
        if (!(await attempt("POST", `/api/items/${item.id}/receive`, body))) return;
        showNotice(t("desks.received", { title: item.title }));
        this.load();
      });
      return form;
    };
    const none = () => [h("li", { class: "meta" }, t("desks.nothing"))];
    this.incoming.replaceChildren(...(incoming.length ? incoming.map((item) => row(item, receive(item))) : none()));
    this.outgoing.replaceChildren(
      ...(outgoing.length
        ? outgoing.map((item) => row(item, h("span", { class: "meta" }, t("desks.to", { site: siteName(this.state, item.transitTo) }))))
        : none()),
    );
  }

  async addBin(event) {
    event.preventDefault();
    const f = this.binForm.elements;
    const body = { code: f.code.value.trim(), name: f.name.value.trim() || undefined };
    const bin = await attempt("POST", `/api/sites/${this.site().id}/bins`, body);
    if (!bin) return;
    this.binForm.reset();
    showNotice(t("desks.binAdded", { code: bin.code }));
    this.load();
  }

  async removeBin(bin) {
    const removed = await confirmFirst({
      question: t("desks.removeBinConfirm", { code: bin.code }),
      confirm: t("desks.removeBin"),
      act: () => attempt("DELETE", `/api/bins/${bin.id}`),
    });
    if (!removed) return;
    showNotice(t("desks.binRemoved", { code: bin.code }));
    this.load();
  }

  /** Fills the desk form with `site`'s details to change them; null: back to adding one. */
  editSite(site) {
    this.editing = site;
    const f = this.siteForm.elements;
    this.siteForm.reset();
    if (site) {
      for (const name of SITE_FIELDS) f[name].value = site[name] ?? "";
    }
    this.siteForm.querySelector("h3").textContent = site ? t("desks.changeOf", { name: site.name }) : t("desks.new");
    this.siteForm.querySelector("button[type=submit]").textContent = site ? t("common.save") : t("desks.add");
    document.getElementById("site-form-cancel").hidden = !site;
    if (site) f.name.focus();
  }

  /** Adds a desk, or saves the one being changed (an empty field clears it). */
  async saveSite(event) {
    event.preventDefault();
    const f = this.siteForm.elements;
    const editing = this.editing;
    const body = {};
    for (const name of SITE_FIELDS) {
      const value = f[name].value.trim();
      const given = f[name].type === "number" ? (value === "" ? null : Number(value)) : value || null;
      // A new desk leaves out what is empty; a change clears it.
      if (given !== null || editing) body[name] = given;
    }
    const site = await attempt(editing ? "PATCH" : "POST", editing ? `/api/sites/${editing.id}` : "/api/sites", body);
    if (!site) return;
    this.state.sites = editing ? this.state.sites.map((s) => (s.id === site.id ? site : s)) : [...this.state.sites, site];
    this.editSite(null);
    this.picker.value = "";
    this.fillPicker();
    this.picker.value = String(site.id);
    showNotice(editing ? t("desks.saved", { name: site.name }) : t("desks.added", { name: site.name }));
    this.load();
  }

  async removeSite(site) {
    const removed = await confirmFirst({
      question: t("desks.removeConfirm", { name: site.name }),
      confirm: t("desks.remove"),
      act: () => attempt("DELETE", `/api/sites/${site.id}`),
    });
    if (!removed) return;
    this.state.sites = this.state.sites.filter((s) => s.id !== site.id);
    this.picker.value = "";
    this.fillPicker();
    showNotice(t("desks.removed", { name: site.name }));
    this.load();
  }

  /** A bin's page: its code, name and desk, and what it holds. */
  async showBin(id) {
    const [bin, items] = await Promise.all([
      showingErrors(api("GET", `/api/bins/${id}`)),
      showingErrors(api("GET", `/api/items?bin=${id}&fields=id,title,created_at`)),
    ]);
    if (!bin || !items) return;
    const heading = h("h3", { tabindex: -1 }, t("desks.binHeading", { code: bin.code, name: bin.name }));
    this.binPage.replaceChildren(
      heading,
      h("p", { class: "meta" }, siteName(this.state, bin.siteId), " · ", tn("desks.holds", items.length)),
      h("ul", { class: "bin-items" }, ...items.map((item) => h("li", {}, h("a", { href: `#/items/${item.id}` }, `#${item.id} ${item.title}`)))),
      h("a", { href: "#/desks" }, t("desks.back")),
    );
    this.binPage.hidden = false;
    heading.focus();
  }
}

/** Shows or hides `form` under the button that opens it, saying which. */
function toggle(button, form) {
  form.hidden = !form.hidden;
  button.setAttribute("aria-expanded", String(!form.hidden));
  if (!form.hidden) form.querySelector("input")?.focus();
}
