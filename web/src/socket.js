// The one Socket.IO connection of the page (same origin, default transports: it starts on
// long-polling and upgrades to WebSocket when it can). It asks for each message's `id` and
// `user` (the account that sent it), and so hears of deleted messages (`message:deleted`).
import { io } from "/vendor/socket.io-client/dist/socket.io.esm.min.js";
import { showError } from "./announce.js";
import { t, translateError } from "./i18n.js";

export const socket = io({ auth: { fields: ["id", "user"] } });

socket.on("error", ({ message }) => showError(translateError(message)));

/** Reconnects so the handshake carries the new session cookie after a login or logout. */
export function reconnect() {
  socket.disconnect();
  socket.connect();
}

/** Emits and resolves with the server's acknowledgement; failures are shown by the `error` event. */
export async function send(event, payload) {
  try {
    return await socket.timeout(10_000).emitWithAck(event, payload);
  } catch {
    showError(t("error.messageNotSent"));
    return { ok: false };
  }
}
