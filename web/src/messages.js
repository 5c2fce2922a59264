// Messages of the global chat and of item threads: shown in a log, sent from a Name /
// Message form. A message sent from a staff account says so; one from any other account has
// a quiet mark (a name typed by a visitor has none). Staff delete messages; a message deleted
// anywhere leaves every log it is shown in.
import { attempt } from "./api.js";
import { showNotice } from "./announce.js";
import { confirmFirst } from "./ask.js";
import { h, formatTime } from "./dom.js";
import { t } from "./i18n.js";
import { nickFrom } from "./nick.js";
import { send, socket } from "./socket.js";

socket.on("message:deleted", ({ id }) => removeEntry(id));

/** Replaces the log's messages with a history (the service sends it newest first; the log
 *  reads oldest first, as live messages are added at its end), the newest in view. `viewer`
 *  is the logged-in user, if any: staff get a Delete button on each message. */
export function showHistory(log, msgs, viewer) {
  log.replaceChildren(...msgs.toReversed().map((msg) => entry(msg, viewer)));
  log.scrollTop = log.scrollHeight;
}

/** Adds a live message at the end of the log and scrolls the log (not the page) to it. */
export function appendMessage(log, msg, viewer) {
  log.append(entry(msg, viewer));
  log.scrollTop = log.scrollHeight;
}

/** Sends what was typed in a Name / Message form as `event`; clears it once the server took it. */
export async function sendMessage(form, user, event, fields = {}) {
  const text = form.elements.text;
  const ack = await send(event, { ...fields, nick: nickFrom(form.elements.nick, user), text: text.value });
  if (ack.ok) text.value = "";
}

function entry(msg, viewer) {
  return h(
    "li",
    { "data-id": msg.id },
    h("span", { class: "nick" }, msg.nick),
    sender(msg.user),
    " ",
    h("span", { class: "text" }, msg.text),
    " ",
    h("time", { datetime: msg.ts }, formatTime(msg.ts)),
    viewer?.isAdmin && msg.id != null
      ? h("button", { type: "button", class: "danger secondary small", "aria-label": t("chat.deleteOf", { nick: msg.nick }), onclick: () => remove(msg) }, t("common.delete"))
      : null,
  );
}

/** Who sent it, as the service knows: staff, an account, or (nothing) a visitor. */
function sender(user) {
  if (user?.isAdmin) return [" ", h("span", { class: "state staff" }, t("common.staff"))];
  if (user) return h("span", { class: "signed", title: t("chat.signed") }, "✓", h("span", { class: "visually-hidden" }, ` ${t("chat.loggedIn")}`));
  return null;
}

async function remove(msg) {
  const deleted = await confirmFirst({
    question: t("chat.deleteConfirm", { nick: msg.nick }),
    detail: `“${msg.text}”`,
    confirm: t("common.delete"),
    act: () => attempt("DELETE", `/api/messages/${msg.id}`),
  });
  if (!deleted) return;
  removeEntry(msg.id);
  showNotice(t("chat.deleted"));
}

/** Takes message `id` out of every log showing it; a Delete button that had the focus hands
 *  it to the next message's (or the one before). */
function removeEntry(id) {
  for (const li of document.querySelectorAll(`.log > li[data-id="${Number(id)}"]`)) {
    if (li.contains(document.activeElement)) {
      (li.nextElementSibling ?? li.previousElementSibling)?.querySelector("button")?.focus();
    }
    li.remove();
  }
}
