// Drives the official socket.io-client with its default transports (long-polling, then the
// upgrade to WebSocket) through every event, and prints what it observed as one JSON line.
// Usage: node js_client.mjs <server-url> <item-id>. The assertions live in the Rust test.
import { io } from "socket.io-client";

const [url, itemArg] = process.argv.slice(2);
const itemId = Number(itemArg);
const WAIT_MS = 10_000;

/** Connects, noting the transport the engine opened with (the upgrade may precede `connect`). */
function connect() {
  const socket = io(url, { reconnection: false });
  socket.io.once("open", () => {
    socket.openedWith = socket.io.engine.transport.name;
  });
  return new Promise((resolve, reject) => {
    socket.once("connect", () => resolve(socket));
    socket.once("connect_error", reject);
  });
}

function next(socket, event) {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no '${event}' within ${WAIT_MS} ms`)), WAIT_MS);
    socket.once(event, (payload) => {
      clearTimeout(timer);
      resolve(payload);
    });
  });
}

function upgraded(socket) {
  if (socket.io.engine.transport.name === "websocket") return Promise.resolve();
  return new Promise((resolve) => socket.io.engine.once("upgrade", resolve));
}

const ack = (socket, event, payload) => socket.timeout(WAIT_MS).emitWithAck(event, payload);

const a = await connect();
const b = await connect();
const seen = { firstTransport: a.openedWith };

const history = next(a, "chat:history");
a.emit("chat:join", { nick: "Ann" });
seen.chatHistory = await history;

const chatNew = [next(a, "chat:new"), next(b, "chat:new")];
seen.chatSendAck = await ack(a, "chat:send", { nick: "Ann", text: "hello from the official client" });
seen.chatNew = await Promise.all(chatNew);

const threadHistory = next(b, "thread:history");
seen.threadJoinAck = await ack(b, "thread:join", { itemId, nick: "Bea" });
seen.threadHistory = await threadHistory;

const threadNew = [next(a, "thread:new"), next(b, "thread:new")];
seen.threadSendAck = await ack(a, "thread:send", { itemId, nick: "Ann", text: "is this mine?" });
seen.threadNew = await Promise.all(threadNew);

const error = next(a, "error");
seen.badAck = await ack(a, "chat:send", { nick: "Ann" });
seen.badError = await error;
seen.unknownItemAck = await ack(a, "thread:join", { itemId: 987654321 });
seen.threadLeaveAck = await ack(b, "thread:leave", { itemId });

await Promise.all([upgraded(a), upgraded(b)]);
seen.finalTransport = a.io.engine.transport.name;
a.disconnect();
b.disconnect();
console.log(JSON.stringify(seen));
