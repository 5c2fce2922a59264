// Correcting a report from its view: its reporter while it is open, its desk's staff at any
// time — the title, the description, the category, the place in words, when it was lost or
// found and the photo; staff also the verification details of a found item. (The point on the
// map stays where the report put it: the API changes it, the form does not yet.)
import { attempt, showingErrors } from "./api.js";
import { ask } from "./ask.js";
import { addCategoryOptions } from "./categories.js";
import { h } from "./dom.js";
import { t } from "./i18n.js";
import { scaledPhoto } from "./photo.js";
import { whenBody, whenFieldset } from "./when.js";

/** Asks for `item`'s corrections; resolves with the corrected item (`id`, `status`), or null
 *  when cancelled. Its verification details are asked for when `item` carries the key (staff
 *  read it on found items). */
export function editReport(item) {
  const verifies = item.kind === "found" && "verification" in item;
  const category = h("select", { id: "edit-cat", name: "cat" }, h("option", { value: "" }, t("common.uncategorised")));
  addCategoryOptions(category);
  // One the service keeps is chosen whatever its case; one typed elsewhere stays on offer.
  const kept = item.cat && [...category.options].some((option) => option.value === item.cat.toLowerCase());
  if (item.cat && !kept) category.append(h("option", { value: item.cat }, item.cat));
  category.value = kept ? item.cat.toLowerCase() : item.cat ?? "";
  return ask({
    title: t("edit.heading", { title: item.title }),
    fields: [
      h("label", { for: "edit-title" }, t("common.title")),
      h("input", { id: "edit-title", name: "title", required: true, maxlength: 200, value: item.title, autocomplete: "off" }),
      h("label", { for: "edit-desc" }, t("common.description")),
      h("textarea", { id: "edit-desc", name: "desc", maxlength: 5000, rows: 3 }, item.desc ?? ""),
      h("label", { for: "edit-cat" }, t("common.category")),
      category,
      h("label", { for: "edit-place" }, t("place.label")),
      h("input", { id: "edit-place", name: "place", maxlength: 200, value: item.place ?? "", autocomplete: "off" }),
      whenFieldset(item),
      h("label", { for: "edit-photo" }, t("edit.newPhoto"), " ", h("span", { class: "meta" }, t("common.optional"))),
      h("input", { id: "edit-photo", name: "photo", type: "file", accept: "image/*" }),
      item.photoUrl ? h("label", { class: "check" }, h("input", { type: "checkbox", name: "noPhoto" }), t("edit.removePhoto")) : null,
      // Read only by staff: the item view asked for them, so the field shows for staff alone.
      ...(verifies ? [
        h("label", { for: "edit-verification" }, t("edit.verification")),
        h("textarea", { id: "edit-verification", name: "verification", maxlength: 1000, rows: 2 }, item.verification ?? ""),
      ] : []),
    ],
    confirm: t("common.save"),
    submit: async (form) => {
      const f = form.elements;
      const text = (field) => field.value.trim() || null;
      const body = {
        title: f.title.value,
        desc: text(f.desc),
        // Left as it was, it stays as it was typed.
        cat: (f.cat.value === item.cat?.toLowerCase() ? item.cat : f.cat.value) || null,
        place: text(f.place),
        // A day emptied forgets when; none before, none sent.
        ...whenBody(form, { clear: Boolean(item.happenedFrom) }),
      };
      if (verifies) body.verification = text(f.verification);
      const file = f.photo.files[0];
      if (file) {
        body.imgData = await showingErrors(scaledPhoto(file));
        if (!body.imgData) return null;
      } else if (f.noPhoto?.checked) {
        body.imgData = null;
      }
      return attempt("PATCH", `/api/items/${item.id}/report?fields=id,status`, body);
    },
  });
}
