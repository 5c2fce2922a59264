// A claim's own conversation: its claimant and the desk write to each other, privately
// (never in the item's public thread). Behind a button on each claim, in Review for staff
// and in My reports for the claimant; it reads the messages when opened.
import { attempt } from "./api.js";
import { disclose } from "./disclosure.js";
import { formatTime, h } from "./dom.js";
import { t } from "./i18n.js";

/** The conversation of `claim`, seen by the desk (`desk`: true) or by its claimant. */
export function conversation(claim, { desk }) {
  const panelId = `talk-${claim.id}`;
  const log = h("ol", { class: "log talk-log", "aria-live": "polite", "aria-label": t("talk.messages") });
  const writable = claim.status === "open" || claim.status === "accepted";
  const inputId = `talk-text-${claim.id}`;
  const text = h("textarea", { id: inputId, rows: 2, maxlength: 2000, required: true });
  const form = writable
    ? h("form", { class: "talk-form" },
        h("label", { for: inputId }, desk ? t("talk.toClaimant") : t("talk.toDesk")),
        text,
        h("button", { type: "submit" }, t("common.send")))
    : null;
  const read = async () => {
    const messages = await attempt("GET", `/api/claims/${claim.id}/messages`);
    if (!messages) return;
    const who = (message) => (message.fromDesk ? (desk ? message.author : t("talk.desk")) : desk ? claim.contact.name || claim.claimant : t("talk.you"));
    log.replaceChildren(...(messages.length
      ? messages.map((message) => h("li", { class: message.fromDesk ? "from-desk" : "from-claimant" },
          h("span", { class: "meta" }, `${who(message)} · ${formatTime(message.createdAt)}`), " ",
          h("span", { class: "talk-text" }, message.text)))
      : [h("li", { class: "hint" }, t("talk.none"))]));
  };
  form?.addEventListener("submit", async (event) => {
    event.preventDefault();
    if (!(await attempt("POST", `/api/claims/${claim.id}/messages`, { text: text.value }))) return;
    text.value = "";
    await read();
    text.focus();
  });
  const panel = h("div", { id: panelId, class: "talk" }, log, form);
  const button = h("button", { type: "button", class: "secondary talk-toggle" }, desk ? t("talk.withClaimant") : t("talk.withDesk"));
  disclose(button, panel, read);
  return h("div", { class: "talk-box" }, button, panel);
}
