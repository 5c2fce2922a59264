// A tiny SMTP sink for the browser tests: it takes every message the service sends, keeps it
// in memory, and hands the messages to a given address to the test in the order they came.
// It speaks just enough SMTP for a client that needs no TLS and no login (lettre over plain
// smtp://): the greeting, EHLO/HELO, MAIL, RCPT, DATA, RSET, NOOP and QUIT.
import { createServer } from "node:net";

/**
 * Starts the sink on a free port of 127.0.0.1. Resolves with `{ port, next, close }`:
 * `next(address)` resolves with the oldest message to `address` that no earlier `next` took,
 * waiting for one to come (at most `timeout` ms); a message is `{ to, subject, body, link }`, its
 * body decoded to text and `link` the first link back to the service in it (or null).
 */
export async function startSmtpSink({ timeout = 10_000 } = {}) {
  /** Messages not taken yet, oldest first. */
  const inbox = [];
  /** Waiting `next` calls: { address, take }. */
  const waiting = [];
  const sockets = new Set();

  const deliver = (message) => {
    const waiter = waiting.find((w) => message.to.includes(w.address));
    if (waiter) {
      waiting.splice(waiting.indexOf(waiter), 1);
      waiter.take(message);
    } else {
      inbox.push(message);
    }
  };

  const server = createServer((socket) => {
    sockets.add(socket);
    socket.on("close", () => sockets.delete(socket));
    socket.on("error", () => {}); // a client that goes away mid-way is no failure of the test
    socket.setEncoding("latin1"); // bytes as they are; the body is decoded below
    let buffer = "";
    let envelope = { to: [] };
    let data = null; // the lines of DATA while it is being read
    const reply = (line) => socket.write(`${line}\r\n`);
    reply("220 sink.test ESMTP test sink");
    socket.on("data", (chunk) => {
      buffer += chunk;
      let end;
      while ((end = buffer.indexOf("\r\n")) >= 0) {
        const line = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        if (data) {
          if (line === ".") {
            deliver(parseMessage(envelope.to, data.join("\r\n")));
            data = null;
            envelope = { to: [] };
            reply("250 2.0.0 stored");
          } else {
            data.push(line.startsWith("..") ? line.slice(1) : line);
          }
          continue;
        }
        const verb = line.slice(0, 4).toUpperCase();
        if (verb === "EHLO" || verb === "HELO") reply("250 sink.test");
        else if (verb === "MAIL") {
          envelope = { to: [] };
          reply("250 2.1.0 OK");
        } else if (verb === "RCPT") {
          const address = /<([^>]*)>/.exec(line)?.[1] ?? "";
          envelope.to.push(address.toLowerCase());
          reply("250 2.1.5 OK");
        } else if (verb === "DATA") {
          data = [];
          reply("354 end with <CRLF>.<CRLF>");
        } else if (verb === "QUIT") {
          reply("221 2.0.0 bye");
          socket.end();
        } else if (verb === "RSET") {
          envelope = { to: [] };
          reply("250 2.0.0 OK");
        } else if (verb === "NOOP") reply("250 2.0.0 OK");
        else reply("502 5.5.1 not implemented");
      }
    });
  });
  await new Promise((resolve, reject) => {
    server.once("error", reject);
    server.listen(0, "127.0.0.1", resolve);
  });

  return {
    port: server.address().port,
    next(address) {
      address = address.toLowerCase();
      const index = inbox.findIndex((message) => message.to.includes(address));
      if (index >= 0) return Promise.resolve(inbox.splice(index, 1)[0]);
      return new Promise((resolve, reject) => {
        const waiter = {
          address,
          take: (message) => {
            clearTimeout(timer);
            resolve(message);
          },
        };
        const timer = setTimeout(() => {
          waiting.splice(waiting.indexOf(waiter), 1);
          reject(new Error(`no mail to ${address} within ${timeout} ms`));
        }, timeout);
        waiting.push(waiter);
      });
    },
    /** The messages to `address` that came and were not taken: none, when nothing more came. */
    untaken(address) {
      return inbox.filter((message) => message.to.includes(address.toLowerCase()));
    },
    close() {
      for (const socket of sockets) socket.destroy();
      return new Promise((resolve) => server.close(resolve));
    },
  };
}

/** A message's recipients, subject, body as text (quoted-printable or base64 undone) and its
 *  first link to a page of the app (`…/#/…`). */
function parseMessage(to, raw) {
  const split = raw.indexOf("\r\n\r\n");
  const head = raw.slice(0, split).replace(/\r\n[ \t]+/g, " "); // unfold header lines
  const headers = new Map();
  for (const line of head.split("\r\n")) {
    const colon = line.indexOf(":");
    headers.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
  }
  const encoded = raw.slice(split + 4);
  const encoding = (headers.get("content-transfer-encoding") ?? "7bit").toLowerCase();
  let bytes;
  if (encoding === "quoted-printable") {
    // Soft line breaks ("=" at a line's end) join lines; "=XX" is one byte.
    const joined = encoded.replace(/=\r\n/g, "");
    bytes = Buffer.from(joined.replace(/=([0-9A-Fa-f]{2})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16))), "latin1");
  } else if (encoding === "base64") {
    bytes = Buffer.from(encoded.replace(/\s+/g, ""), "base64");
  } else {
    bytes = Buffer.from(encoded, "latin1");
  }
  const body = bytes.toString("utf8").replace(/\r\n/g, "\n");
  const link = /https?:\/\/\S+\/#\/\S+/.exec(body)?.[0] ?? null;
  return { to, subject: decodeWords(headers.get("subject") ?? ""), body, link };
}

/** A header's encoded words (`=?utf-8?b?…?=`, `=?utf-8?q?…?=`) as text. */
function decodeWords(value) {
  return value.replace(/=\?([^?]+)\?([bqBQ])\?([^?]*)\?=\s*/g, (_, charset, kind, text) => {
    const bytes = kind.toLowerCase() === "b"
      ? Buffer.from(text, "base64")
      : Buffer.from(text.replace(/_/g, " ").replace(/=([0-9A-Fa-f]{2})/g, (_, hex) => String.fromCharCode(Number.parseInt(hex, 16))), "latin1");
    return bytes.toString("utf8");
  });
}
