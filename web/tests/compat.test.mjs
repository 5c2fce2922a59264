// Clients written for the service this contract comes from: UniLost's page loads the
// Socket.IO client from /socket.io/socket.io.js (as a Socket.IO server serves it), reports
// with `imgData: ""` when no photo is chosen, and puts each new message on top of a history
// that comes newest first. A page here does the same, with the real client script.
import { test } from "node:test";
import assert from "node:assert/strict";
import { io } from "socket.io-client";
import { TIMEOUT, noPageErrors, signIn, useService } from "./harness.mjs";

/** Two chat messages, the newer second, sent by a client in Node before the tests. */
async function seedChat({ base }) {
  const socket = io(base, { transports: ["websocket"] });
  for (const text of ["first", "second"]) {
    const ack = await socket.timeout(TIMEOUT).emitWithAck("chat:send", { nick: "Seed", text });
    assert.deepEqual(ack, { ok: true });
  }
  socket.close();
}

const service = useService({ prepare: seedChat });

test("the Socket.IO client served at /socket.io/socket.io.js connects, upgrades and chats", async () => {
  const page = await service.open("/healthz");
  await page.addScriptTag({ url: "/socket.io/socket.io.js" });
  const seen = await page.evaluate(
    (timeout) =>
      new Promise((resolve, reject) => {
        setTimeout(() => reject(new Error("no chat:new within the time allowed")), timeout);
        // Its defaults: long-polling first, then the upgrade to WebSocket.
        const socket = window.io();
        const seen = { transports: [] };
        socket.io.on("open", () => {
          seen.transports.push(socket.io.engine.transport.name);
          socket.io.engine.once("upgrade", (transport) => seen.transports.push(transport.name));
        });
        socket.on("connect", () => socket.emit("chat:join", { nick: "UniLost" }));
        socket.on("chat:history", (msgs) => {
          seen.history = msgs.map((m) => m.text);
          socket.emit("chat:send", { nick: "UniLost", text: "third", ts: new Date().toISOString() });
        });
        socket.on("chat:new", (msg) => {
          seen.new = msg;
          const upgraded = () => seen.transports.includes("websocket");
          if (upgraded()) return resolve(seen);
          socket.io.engine.once("upgrade", () => resolve(seen));
        });
      }),
    TIMEOUT,
  );
  assert.deepEqual(seen.transports, ["polling", "websocket"]);
  // The history the service keeps, newest first, as UniLost's page expects it.
  assert.deepEqual(seen.history.slice(0, 2), ["second", "first"]);
  assert.equal(seen.new.nick, "UniLost");
  assert.equal(seen.new.text, "third");
  noPageErrors(page);
});

test("a report without a photo, sent as UniLost's page sends it, is taken", async () => {
  const call = await signIn(service.base, "alice", "alice-demo-pass");
  const item = await call("POST", "/api/items", {
    title: "Black wallet", desc: "", cat: "", imgData: "", storagePlace: "", lat: 51.52, lng: -0.13, radius: 50,
  });
  assert.equal(item.imgData, null);
  assert.equal(item.status, "pending");
});
