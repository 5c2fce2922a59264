// Accounts, for administrators: everyone who can log in, with their role (member, staff of
// the desks they work at, administrator), email address and whether they are disabled (or, signed up, wait for their email confirmation); a form to
// create one; and on each account, forms to change its name, email and role or to set a new
// password, Unlock (forget its failed logins) and Disable or Enable. Administrators cannot
// demote or disable themselves, so their own account offers neither (nor a reset that would
// end their own session: they change it in My account).
import { api, attempt, showingErrors } from "./api.js";
import { showNotice } from "./announce.js";
import { confirmFirst } from "./ask.js";
import { disclose } from "./disclosure.js";
import { h, formatTime } from "./dom.js";
import { t, tn } from "./i18n.js";
import { latestOnly } from "./latest.js";
import { runsService, siteName } from "./desks.js";

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
    this.fetch = latestOnly(() => api("GET", "/api/users"));
    /** Each shown account's heading, by id: where focus goes back after a change. */
    this.headings = new Map();
  }

  show() {
    const admin = runsService(this.state.user);
    this.hint.hidden = admin;
    this.content.hidden = !admin;
    if (admin) {
      this.refresh();
    } else {
      // Nothing an administrator saw or typed stays behind for the next person.
      this.form.reset();
      this.list.replaceChildren();
      this.count.textContent = "";
    }
  }

  /** Shows the accounts as they now stand, then focuses the card of `focusId` when given: the
   *  button just pressed is gone with the old list. */
  async refresh(focusId) {
    const accounts = await showingErrors(this.fetch());
    if (!accounts) return;
    // Logged out while the list was on its way: it is not for the next person.
    if (!runsService(this.state.user)) return;
    this.headings.clear();
    this.list.replaceChildren(...accounts.map((account) => this.card(account)));
    this.count.textContent = tn("accounts.count", accounts.length);
    this.headings.get(focusId)?.focus();
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
    const account = await attempt("POST", "/api/users", body);
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
      ),
      h(
        "p",
        { class: "meta" },
        `${account.id}${self ? t("accounts.you") : ""} · ${account.email ?? t("accounts.noEmail")} · `,
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
        h(
          "button",
          {
            type: "button",
            class: "secondary",
            title: t("accounts.unlockTitle"),
            onclick: act("POST", "/unlock", {}, t("accounts.unlocked", { id: account.id })),
          },
          t("accounts.unlock"),
        ),
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
