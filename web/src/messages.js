// Messages of the global chat and of item threads: shown in a log, sent from a Name /
// Message form.
import { h, formatTime } from "./dom.js";
import { nickFrom } from "./nick.js";
import { send } from "./socket.js";

/** Replaces the log's messages with a history (oldest first), the newest in view. */
export function showHistory(log, msgs) {
  log.replaceChildren(...msgs.map(entry));
  log.scrollTop = log.scrollHeight;
}

/** Adds a live message at the end of the log and scrolls the log (not the page) to it. */
export function appendMessage(log, msg) {
  log.append(entry(msg));
  log.scrollTop = log.scrollHeight;
}

/** Sends what was typed in a Name / Message form as `event`; clears it once the server took it. */
export async function sendMessage(form, user, event, fields = {}) {
  const text = form.elements.text;
  const ack = await send(event, { ...fields, nick: nickFrom(form.elements.nick, user), text: text.value });
  if (ack.ok) text.value = "";
}

function entry(msg) {
  return h(
    "li",
    {},
    h("span", { class: "nick" }, msg.nick),
    " ",
    h("span", { class: "text" }, msg.text),
    " ",
    h("time", { datetime: msg.ts }, formatTime(msg.ts)),
  );
}
