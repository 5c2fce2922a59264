// The pickup of an accepted claim, at the desk: staff record the handover (the ID checked,
// and who collected when not the claimant) or call it off with a reason the claimant is
// told; a collected claim has a receipt to print, for the claimant and the desk. Or its
// posting: the claimant gives an address, staff set the postage, record its payment and send
// it with a tracking number.
import { attempt } from "./api.js";
import { showNotice } from "./announce.js";
import { formatTime, h } from "./dom.js";
import { language, t } from "./i18n.js";

/** A link to the receipt of collected `claim`, a printable page in the reader's language. */
export function receiptLink(claim) {
  const href = `/api/claims/${claim.id}/receipt?lang=${language()}`;
  return h("a", { href, target: "_blank", rel: "noopener" }, t("pickup.receipt"));
}

/** A labelled form of `fields` ([name, label, attributes]) that posts its values (`body`
 *  turns them into the request's body) to `path`, says `done` and runs `after`. */
function actionForm({ claim, name, label, fields, path, body, done, after, button = "" }) {
  const id = (field) => `${name}-${field}-${claim.id}`;
  const inputs = Object.fromEntries(fields.map(([field, , attrs]) =>
    [field, h(attrs?.rows ? "textarea" : "input", { id: id(field), maxlength: 200, autocomplete: "off", ...attrs })]));
  const form = h("form", { class: "pickup-form", "aria-label": label },
    ...fields.flatMap(([field, text]) => [h("label", { for: id(field) }, text), inputs[field]]),
    h("button", { type: "submit", class: button || null }, label));
  form.addEventListener("submit", async (event) => {
    event.preventDefault();
    const values = Object.fromEntries(Object.entries(inputs).map(([field, input]) => [field, input.value]));
    if (!(await attempt("POST", `/api/claims/${claim.id}/${path}`, body(values)))) return;
    showNotice(done);
    after();
  });
  return form;
}

/** The claimant's form on accepted `claim`: have the item posted to an address. */
export function postRequestForm(claim, title, after) {
  return actionForm({
    claim, name: "post", label: t("post.ask"), path: "post", after,
    fields: [["address", t("post.address"), { rows: 3, required: true, maxlength: 500 }]],
    body: ({ address }) => ({ address }),
    done: t("post.asked", { title }),
  });
}

/** Staff's forms on accepted `claim` whose posting was asked for: the postage, its payment,
 *  the parcel sent — each when it is next. */
export function postForms(claim, title, after) {
  const { fee, payment } = claim.post;
  const forms = [h("p", { class: "post-address" }, t("post.to"), " ", h("span", {}, claim.post.address))];
  if (!payment) {
    forms.push(actionForm({
      claim, name: "fee", label: t("post.setFee"), path: "post/fee", after,
      fields: [["fee", t("post.feeLabel"), { maxlength: 100 }]],
      body: ({ fee: amount }) => ({ fee: amount.trim() || null }),
      done: t("post.feeSet", { title }),
    }));
  }
  if (fee?.amount && !payment) {
    forms.push(actionForm({
      claim, name: "paid", label: t("post.recordPayment"), path: "post/payment", after,
      fields: [["note", t("post.paidHow"), { required: true }]],
      body: ({ note }) => ({ note }),
      done: t("post.paymentRecorded", { title }),
    }));
  }
  if (fee && (!fee.amount || payment)) {
    forms.push(actionForm({
      claim, name: "sent", label: t("post.markSent"), path: "post/sent", after,
      fields: [["carrier", t("post.carrier"), { required: true, maxlength: 100 }], ["tracking", t("post.tracking"), { required: true, maxlength: 100 }]],
      body: ({ carrier, tracking }) => ({ carrier, tracking }),
      done: t("post.sentNotice", { title, user: claim.claimant }),
    }));
  }
  return forms;
}

/** Where a posting stands, in a line for the claimant and staff. */
export function postLine(claim) {
  const { fee, payment, sent } = claim.post ?? {};
  if (!claim.post) return null;
  if (sent) return t("post.sentLine", { carrier: sent.carrier, tracking: sent.tracking });
  if (!fee) return t("post.waitingFee");
  if (!fee.amount) return t("post.free");
  return payment ? t("post.paidLine", { fee: fee.amount }) : t("post.toPay", { fee: fee.amount });
}

/** Staff's two forms on accepted `claim` (on the item titled `title`): the handover and
 *  calling the pickup off; `done` runs after either. */
export function pickupForms(claim, title, after) {
  const handover = actionForm({
    claim, name: "pickup", label: t("pickup.handOver"), path: "handover", after,
    fields: [["idChecked", t("pickup.idChecked"), { required: true }], ["collectedBy", t("pickup.collectedBy")]],
    body: ({ idChecked, collectedBy }) => ({ idChecked, collectedBy: collectedBy.trim() || null }),
    done: t("pickup.handedOver", { title, user: claim.claimant }),
  });
  const cancel = actionForm({
    claim, name: "cancel", label: t("pickup.cancel"), path: "cancel", after, button: "danger secondary",
    fields: [["reason", t("pickup.reason"), { required: true }]],
    body: ({ reason }) => ({ reason }),
    done: t("pickup.cancelled", { title }),
  });
  return h("div", { class: "pickup" }, handover, ...(claim.post ? postForms(claim, title, after) : []), cancel);
}

/** What became of a settled claim, in a line: who handed it over, to whom, on which ID; or
 *  who called the pickup off and why. */
export function settledLine(claim) {
  if (claim.handover) {
    const { by, at, collectedBy, idChecked } = claim.handover;
    const parts = [t("review.handedOverBy", { user: by, date: formatTime(at) })];
    if (collectedBy) parts.push(t("pickup.collectedFor", { name: collectedBy, user: claim.claimant }));
    if (idChecked) parts.push(t("pickup.idShown", { id: idChecked }));
    return parts.join(" · ");
  }
  if (claim.post?.sent) {
    const { by, at } = claim.post.sent;
    return `${t("post.sentBy", { user: by, date: formatTime(at) })} · ${postLine(claim)}`;
  }
  if (claim.cancellation) {
    const { by, at, reason } = claim.cancellation;
    return t("pickup.cancelledBy", { user: by, date: formatTime(at), reason });
  }
  return null;
}
