// Accounts, for administrators: everyone who can log in, with their role (member, staff of
// the desks they work at, administrator), email address and whether they are disabled (or, signed up, wait for their email confirmation); a form to
// create one; a search (id, name or email), filters by role and desk, an order, a page at a
// time; and on each account, forms to change its name, email and role or to set a new
// password, Unlock (forget its failed logins, shown only while they lock it) and Disable or
// Enable. Administrators cannot
// demote or disable themselves, so their own account offers neither (nor a reset that would
// end their own session: they change it in My account).
import { attempt, fetchPage, showingErrors } from "./api.js";
import { showNotice } from "./announce.js";
import { confirmFirst } from "./ask.js";
import { debounce } from "./debounce.js";
import { disclose } from "./disclosure.js";
import { h, formatTime } from "./dom.js";
import { sendForm } from "./fields.js";
import { t, tn } from "./i18n.js";
import { latestOnly } from "./latest.js";
import { runsService, siteName } from "./desks.js";

/** Accounts a page. */
const PAGE = 50;

/** Each role as the accounts list names it. */
const ROLES = {
  get member() { return t("accounts.user"); },
  get staff() { return t("common.staff"); },
  get administrator() { return t("accounts.administrator"); },
};

export class Accounts {
  constructor(state) {
    this.state = state;
    this.hint = document.getElementById("accounts-hint");
    this.content = document.getElementById("accounts-content");
    this.list = document.getElementById("account-list");
    this.count = document.getElementById("accounts-count");
    this.form = document.getElementById("account-form");
    this.form.addEventListener("submit", (event) => this.create(event));
    // Changes made in quick succession each read the list: only the last answer shows.
    this.fetch = latestOnly(fetchPage);
    this.filters = document.getElementById("account-filters");
    this.offset = 0;
    // A new search or filter starts from the first page, once the typing stops.
    const search = debounce(() => this.refresh(), 250);
    this.filters.addEventListener("input", () => {
      this.offset = 0;
      search();
    });
    this.filters.addEventListener("submit", (event) => event.preventDefault());
    this.previous = document.getElementById("accounts-previous");
    this.next = document.getElementById("accounts-next");
    this.previous.addEventListener("click", () => this.turn(-PAGE));
    this.next.addEventListener("click", () => this.turn(PAGE));
    /** Each shown account's heading, by id: where focus goes back after a change. */
    this.headings = new Map();
  }

  show() {
    const admin = runsService(this.state.user);
    this.hint.hidden = admin;
    this.content.hidden = !admin;
    if (admin) {
      this.fillDesks();
      this.refresh();
    } else {
      // Nothing an administrator saw or typed stays behind for the next person.
      this.form.reset();
      this.filters.reset();
      this.offset = 0;
      this.list.replaceChildren();
      this.count.textContent = "";
    }
  }

  /** Shows the accounts as they now stand, then focuses the card of `focusId` when given: the
   *  button just pressed is gone with the old list. */
  async refresh(focusId) {
    const f = this.filters.elements;
    const query = new URLSearchParams({ sort: f.sort.value, limit: PAGE, offset: this.offset });
    for (const name of ["q", "role", "site"]) if (f[name].value.trim()) query.set(name, f[name].value.trim());
    const page = await showingErrors(this.fetch(`/api/users?${query}`));
    if (!page) return;
    // Logged out while the list was on its way: it is not for the next person.
    if (!runsService(this.state.user)) return;
    const { items: accounts, total } = page;
    this.headings.clear();
    this.list.replaceChildren(...accounts.map((account) => this.card(account)));
    this.count.textContent = total === 0 ? t("accounts.none")
      : total <= PAGE ? tn("accounts.count", total)
      : t("accounts.shown", { from: this.offset + 1, to: this.offset + accounts.length, total });
    this.previous.hidden = this.offset === 0;
    this.next.hidden = this.offset + accounts.length >= total;
    this.headings.get(focusId)?.focus();
  }

  /** The page `step` accounts on, its first account's heading focused. */
  async turn(step) {
    this.offset = Math.max(0, this.offset + step);
    await this.refresh();
    this.list.querySelector("h4")?.focus();
  }

  /** The desks a filter may choose, the one chosen kept. */
  fillDesks() {
    const select = this.filters.elements.site;
    const chosen = select.value;
    select.replaceChildren(select.options[0], ...(this.state.sites ?? []).map((site) => h("option", { value: site.id }, site.name)));
    select.value = chosen;
  }

  async create(event) {
    event.preventDefault();
    const f = this.form.elements;
    const body = {
      id: f.id.value.trim(),
      name: f.name.value.trim(),
      password: f.password.value,
      isAdmin: f.isAdmin.checked,
      email: f.email.value.trim() || undefined,
    };
    const account = await sendForm(this.form, "POST", "/api/users", body);
    if (!account) return;
    this.form.reset();
    showNotice(t("accounts.created", { id: account.id, name: account.name }));
    this.refresh();
  }

  card(account) {
    const self = account.id === this.state.user.id;
    const path = `/api/users/${encodeURIComponent(account.id)}`;
    const heading = h("h4", { tabindex: -1 }, account.name);
    this.headings.set(account.id, heading);
    const edit = this.editForm(account, path, self);
    const reset = self ? null : this.passwordForm(account, path);
    const act = (method, suffix, body, done) => () => this.change(account, method, path + suffix, body, done);
    return h(
      "li",
      { class: `panel account-card${account.disabled ? " disabled" : ""}` },
      h(
        "div",
        { class: "account-head" },
        heading,
        h("span", { class: `state ${account.isAdmin ? "staff" : "user"}` }, ROLES[account.role] ?? account.role),
        account.disabled ? h("span", { class: "state disabled" }, t("accounts.disabled")) : null,
        // A sign-up whose link was not opened yet: it cannot log in.
        account.verified === false ? h("span", { class: "state pending" }, t("accounts.unverified")) : null,
        account.locked ? h("span", { class: "state disabled" }, t("accounts.locked")) : null,
        // Made for a visitor at the desk: no password, they follow their reports by a link.
        account.visitor ? h("span", { class: "state pending" }, t("accounts.visitor")) : null,
      ),
      h(
        "p",
        { class: "meta" },
        `${account.id}${self ? t("accounts.you") : ""} · ${account.email ?? t("accounts.noEmail")} · `,
        account.phone ? `${account.phone} · ` : null,
        h("span", { class: "nowrap" }, t("accounts.createdOn", { date: formatTime(account.created_at) })),
      ),
      account.sites?.length
        ? h("p", { class: "meta" }, t("accounts.worksAt", { sites: account.sites.map((id) => siteName(this.state, id)).join(", ") }))
        : null,
      h(
        "div",
        { class: "actions" },
        opener(t("accounts.edit"), edit),
        reset && opener(t("accounts.resetPassword"), reset),
        // Only while failed logins lock it: otherwise there is nothing to forget.
        account.locked
          ? h(
              "button",
              {
                type: "button",
                class: "secondary",
                title: t("accounts.unlockTitle"),
                onclick: act("POST", "/unlock", {}, t("accounts.unlocked", { id: account.id })),
              },
              t("accounts.unlock"),
            )
          : null,
        account.disabled
          ? h("button", { type: "button", onclick: act("PATCH", "", { disabled: false }, t("accounts.enabled", { id: account.id })) }, t("accounts.enable"))
          : !self && h("button", { type: "button", class: "danger secondary", onclick: () => this.disable(account, path) }, t("accounts.disable")),
      ),
      edit,
      reset,
    );
  }

  /** Name, email (blank removes it) and, but on one's own account, the role. */
  editForm(account, path, self) {
    const form = h(
      "form",
      { id: `edit-${account.id}`, class: "inline-form", "aria-label": t("accounts.editOf", { id: account.id }) },
      h("label", {}, t("common.name"), h("input", { name: "name", value: account.name, required: true, maxlength: 100, autocomplete: "off" })),
      h("label", {}, t("common.email"), h("input", { name: "email", type: "email", value: account.email ?? "", autocomplete: "off" })),
      self ? null : h("label", { class: "check" }, h("input", { type: "checkbox", name: "isAdmin", checked: account.role === "administrator" }), t("accounts.administrator")),
      h(
        "fieldset",
        { class: "sites" },
        h("legend", {}, t("accounts.sites")),
        ...(this.state.sites ?? []).map((site) =>
          h("label", { class: "check" }, h("input", { type: "checkbox", name: "site", value: site.id, checked: account.sites?.includes(site.id) }), site.name),
        ),
      ),
      h("button", { type: "submit" }, t("common.save")),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const f = form.elements;
      const sites = [...form.querySelectorAll('input[name="site"]:checked')].map((box) => Number(box.value));
      const patch = { name: f.name.value.trim(), email: f.email.value.trim() || null, sites };
      if (!self) patch.isAdmin = f.isAdmin.checked;
      this.change(account, "PATCH", path, patch, t("accounts.saved", { id: account.id }));
    });
    return form;
  }

  passwordForm(account, path) {
    const form = h(
      "form",
      { id: `password-${account.id}`, class: "inline-form", "aria-label": t("accounts.passwordFor", { id: account.id }) },
      h(
        "label",
        {},
        h("span", {}, t("common.newPassword"), " ", h("span", { class: "meta" }, t("common.atLeast8"))),
        h("input", { name: "password", type: "password", required: true, autocomplete: "new-password" }),
      ),
      h("button", { type: "submit" }, t("common.setPassword")),
    );
    form.addEventListener("submit", (event) => {
      event.preventDefault();
      const done = t("accounts.passwordSet", { id: account.id });
      this.change(account, "POST", `${path}/password`, { password: form.elements.password.value }, done);
    });
    return form;
  }

  async disable(account, path) {
    const disabled = await confirmFirst({
      question: t("accounts.disableConfirm", { id: account.id, name: account.name }),
      confirm: t("accounts.disable"),
      act: () => attempt("PATCH", path, { disabled: true }),
    });
    if (!disabled) return;
    showNotice(t("accounts.disabledDone", { id: account.id }));
    this.refresh(account.id);
  }

  /** Makes one change to `account`; once done, says `done` and shows the list anew. */
  async change(account, method, path, body, done) {
    if (!(await attempt(method, path, body))) return;
    showNotice(done);
    this.refresh(account.id);
  }
}

/** A button that opens `form` below the card's buttons, its first field focused; the form's
 *  Cancel closes it and goes back to the button. */
function opener(label, form) {
  const button = h("button", { type: "button", class: "secondary" }, label);
  const open = disclose(button, form, () => form.elements[0].focus());
  const cancel = () => {
    open(false);
    form.reset();
    button.focus();
  };
  form.append(h("button", { type: "button", class: "secondary", onclick: cancel }, t("common.cancel")));
  return button;
}
