// The one Socket.IO connection of the page (same origin, default transports).
import { io } from "/vendor/socket.io-client/dist/socket.io.esm.min.js";
import { nickFrom, showError } from "./dom.js";

export const socket = io();

socket.on("error", ({ message }) => showError(message));

/** Reconnects so the handshake carries the new session cookie after a login or logout. */
export function reconnect() {
  socket.disconnect();
  socket.connect();
}

/** Emits and resolves with the server's acknowledgement; failures are shown by the `error` event. */
async function send(event, payload) {
  try {
    return await socket.timeout(10_000).emitWithAck(event, payload);
  } catch {
    showError("The message could not be sent. Check your connection and try again.");
    return { ok: false };
  }
}

/** Sends what was typed in a Name / Message form as `event`; clears it once the server took it. */
export async function sendMessage(form, user, event, fields = {}) {
  const text = form.elements.text;
  const ack = await send(event, { ...fields, nick: nickFrom(form.elements.nick, user), text: text.value });
  if (ack.ok) text.value = "";
}
