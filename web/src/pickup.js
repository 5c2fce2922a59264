// The pickup of an accepted claim, at the desk: staff record the handover (the ID checked,
// and who collected when not the claimant) or call it off with a reason the claimant is
// told; a collected claim has a receipt to print, for the claimant and the desk.
import { attempt } from "./api.js";
import { showNotice } from "./announce.js";
import { h } from "./dom.js";
import { language, t } from "./i18n.js";

/** A link to the receipt of collected `claim`, a printable page in the reader's language. */
export function receiptLink(claim) {
  const href = `/api/claims/${claim.id}/receipt?lang=${language()}`;
  return h("a", { href, target: "_blank", rel: "noopener" }, t("pickup.receipt"));
}

/** Staff's two forms on accepted `claim` (on the item titled `title`): the handover and
 *  calling the pickup off; `done` runs after either. */
export function pickupForms(claim, title, done) {
  const id = (name) => `pickup-${name}-${claim.id}`;
  const idChecked = h("input", { id: id("id"), required: true, maxlength: 200, autocomplete: "off" });
  const proxy = h("input", { id: id("proxy"), maxlength: 200, autocomplete: "off" });
  const handover = h("form", { class: "pickup-form", "aria-label": t("pickup.handoverOf", { title }) },
    h("label", { for: id("id") }, t("pickup.idChecked")), idChecked,
    h("label", { for: id("proxy") }, t("pickup.collectedBy")), proxy,
    h("button", { type: "submit" }, t("pickup.handOver")));
  handover.addEventListener("submit", async (event) => {
    event.preventDefault();
    const body = { idChecked: idChecked.value, collectedBy: proxy.value.trim() || null };
    if (!(await attempt("POST", `/api/claims/${claim.id}/handover`, body))) return;
    showNotice(t("pickup.handedOver", { title, user: claim.claimant }));
    done();
  });
  const reason = h("input", { id: id("reason"), required: true, maxlength: 200 });
  const cancel = h("form", { class: "pickup-form", "aria-label": t("pickup.cancelOf", { title }) },
    h("label", { for: id("reason") }, t("pickup.reason")), reason,
    h("button", { type: "submit", class: "danger secondary" }, t("pickup.cancel")));
  cancel.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!(await attempt("POST", `/api/claims/${claim.id}/cancel`, { reason: reason.value }))) return;
    showNotice(t("pickup.cancelled", { title }));
    done();
  });
  return h("div", { class: "pickup" }, handover, cancel);
}

/** What became of a settled claim, in a line: who handed it over, to whom, on which ID; or
 *  who called the pickup off and why. */
export function settledLine(claim, formatTime) {
  if (claim.handover) {
    const { by, at, collectedBy, idChecked } = claim.handover;
    const parts = [t("review.handedOverBy", { user: by, date: formatTime(at) })];
    if (collectedBy) parts.push(t("pickup.collectedFor", { name: collectedBy, user: claim.claimant }));
    if (idChecked) parts.push(t("pickup.idShown", { id: idChecked }));
    return parts.join(" · ");
  }
  if (claim.cancellation) {
    const { by, at, reason } = claim.cancellation;
    return t("pickup.cancelledBy", { user: by, date: formatTime(at), reason });
  }
  return null;
}
