// Staff's questions about where a found item is: which bin of its desk it goes in, which
// desk it is sent to (with a note), and which bin it is received into when it arrives.
import { api, attempt, showingErrors } from "./api.js";
import { ask } from "./ask.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";

/** A select of site `siteId`'s bins (and "no bin"), labelled `label`; its bins are read
 *  first (null, the error shown, when they cannot be). */
async function binPicker(siteId, label, current) {
  const bins = await showingErrors(api("GET", `/api/sites/${siteId}/bins`));
  if (!bins) return null;
  const id = `bin-${siteId}-${Date.now()}`;
  return [
    h("label", { for: id }, label),
    h(
      "select",
      { id, name: "bin" },
      h("option", { value: "" }, t("desks.noBin")),
      ...bins.map((bin) => h("option", { value: bin.id, selected: bin.id === current }, `${bin.code} · ${bin.name}`)),
    ),
  ];
}

/** Asks which bin of its desk `item` goes in; resolves with the item, or null when cancelled. */
export async function moveToBin(item) {
  const fields = await binPicker(item.siteId, t("shelving.bin"), item.binId);
  if (!fields) return null;
  return ask({
    title: t("shelving.moveTitle", { title: item.title }),
    fields,
    confirm: t("shelving.move"),
    submit: (form) => {
      const bin = form.elements.bin.value;
      return attempt("PATCH", `/api/items/${item.id}?fields=id`, { binId: bin ? Number(bin) : null });
    },
  });
}

/** The sending question's fields: which of `sites` (the desk to send to) and a note. */
export function sendingFields(sites) {
  return [
    h("label", { for: "send-to" }, t("shelving.to")),
    h("select", { id: "send-to", name: "to" }, ...sites.map((site) => h("option", { value: site.id }, site.name))),
    h("label", { for: "send-note" }, t("shelving.note"), " ", h("span", { class: "meta" }, t("common.optional"))),
    h("input", { id: "send-note", name: "note", maxlength: 500, autocomplete: "off" }),
  ];
}

/** The transfer the form of `sendingFields` describes, as the API takes it. */
export function sendingBody(form) {
  return { to: Number(form.elements.to.value), note: form.elements.note.value.trim() || undefined };
}

/** Asks which other desk `item` is sent to, and a note. */
export function sendToDesk(item, sites) {
  return ask({
    title: t("shelving.sendTitle", { title: item.title }),
    intro: t("shelving.sendIntro"),
    fields: sendingFields(sites.filter((site) => site.id !== item.siteId)),
    confirm: t("shelving.send"),
    submit: (form) => attempt("POST", `/api/items/${item.id}/transfer?fields=id`, sendingBody(form)),
  });
}

/** Asks which bin `item`, on its way here, is received into. */
export async function receiveHere(item) {
  const fields = await binPicker(item.transitTo, t("shelving.bin"));
  if (!fields) return null;
  return ask({
    title: t("shelving.receiveTitle", { title: item.title }),
    fields,
    confirm: t("desks.receive"),
    submit: (form) => {
      const bin = form.elements.bin.value;
      return attempt("POST", `/api/items/${item.id}/receive?fields=id`, bin ? { binId: Number(bin) } : {});
    },
  });
}
