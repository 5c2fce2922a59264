// A Web Push receiver for the integration tests (tests/api/push.rs): a push service and the
// device behind it in one process, written from the RFCs, not from our sender. It makes
// DEVICES subscriptions (a P-256 key pair and an auth secret each, as a browser does),
// prints them as one line, `devices [{ endpoint, keys: { p256dh, auth } }, …]`, and then, for
// each message posted to an endpoint:
//   - checks the VAPID authorization (RFC 8292): `vapid t=<JWT>, k=<key>`, an ES256 token
//     signed by that key, for this origin (`aud`), expiring within a day, with a `sub`;
//   - checks `TTL` and `Content-Encoding: aes128gcm`;
//   - decrypts it with `http_ece` (RFC 8188/8291, the reference implementation),
// and prints `push { device, ttl, claims, message }` (the message parsed as JSON) with 201,
// or `refused { device, reason }` with 400. Devices listed in GONE (commas) answer 410, as a
// push service does for an expired subscription.
import { createECDH, createPublicKey, randomBytes, verify } from "node:crypto";
import { createServer } from "node:http";
import ece from "http_ece";

const count = Number(process.env.DEVICES ?? 1);
const gone = new Set((process.env.GONE ?? "").split(",").filter(Boolean).map(Number));
const devices = Array.from({ length: count }, () => {
  const keys = createECDH("prime256v1");
  keys.generateKeys();
  return { keys, auth: randomBytes(16) };
});

const b64url = (buffer) => Buffer.from(buffer).toString("base64url");

/** The token's claims when `authorization` is a good VAPID header for `origin`, else throws. */
function checkVapid(authorization, origin) {
  const match = /^vapid t=([^,\s]+),\s*k=([A-Za-z0-9_-]+)$/.exec(authorization ?? "");
  if (!match) throw new Error(`no vapid authorization: ${authorization}`);
  const [, token, key] = match;
  const [header, claims, signature] = token.split(".");
  const point = Buffer.from(key, "base64url");
  if (point.length !== 65 || point[0] !== 4) throw new Error("k is not an uncompressed P-256 point");
  const publicKey = createPublicKey({
    key: { kty: "EC", crv: "P-256", x: b64url(point.subarray(1, 33)), y: b64url(point.subarray(33)) },
    format: "jwk",
  });
  const signed = Buffer.from(`${header}.${claims}`);
  const good = verify("sha256", signed, { key: publicKey, dsaEncoding: "ieee-p1363" }, Buffer.from(signature, "base64url"));
  if (!good) throw new Error("the token's signature does not check with k");
  const head = JSON.parse(Buffer.from(header, "base64url"));
  if (head.alg !== "ES256") throw new Error(`alg ${head.alg}`);
  const body = JSON.parse(Buffer.from(claims, "base64url"));
  if (body.aud !== origin) throw new Error(`aud ${body.aud}, not ${origin}`);
  const now = Date.now() / 1000;
  if (!(body.exp > now && body.exp <= now + 24 * 3600)) throw new Error(`exp ${body.exp} is not within a day`);
  if (!body.sub) throw new Error("no sub");
  return body;
}

const server = createServer((request, response) => {
  const chunks = [];
  request.on("data", (chunk) => chunks.push(chunk));
  request.on("end", () => {
    const device = Number(/^\/push\/(\d+)$/.exec(request.url)?.[1] ?? -1);
    if (!devices[device] || request.method !== "POST") {
      response.writeHead(404).end();
      return;
    }
    if (gone.has(device)) {
      console.log(`gone ${JSON.stringify({ device })}`);
      response.writeHead(410).end();
      return;
    }
    try {
      const claims = checkVapid(request.headers.authorization, `http://${request.headers.host}`);
      const ttl = Number(request.headers.ttl);
      if (!(ttl > 0)) throw new Error(`TTL ${request.headers.ttl}`);
      if (request.headers["content-encoding"] !== "aes128gcm") throw new Error(`encoding ${request.headers["content-encoding"]}`);
      const plain = ece.decrypt(Buffer.concat(chunks), {
        version: "aes128gcm",
        privateKey: devices[device].keys,
        authSecret: devices[device].auth,
      });
      console.log(`push ${JSON.stringify({ device, ttl, claims, message: JSON.parse(plain.toString("utf8")) })}`);
      response.writeHead(201).end();
    } catch (error) {
      console.log(`refused ${JSON.stringify({ device, reason: String(error.message ?? error) })}`);
      response.writeHead(400).end();
    }
  });
});

server.listen(0, "127.0.0.1", () => {
  const { port } = server.address();
  const subscriptions = devices.map((device, i) => ({
    endpoint: `http://127.0.0.1:${port}/push/${i}`,
    keys: { p256dh: b64url(device.keys.getPublicKey()), auth: b64url(device.auth) },
  }));
  console.log(`devices ${JSON.stringify(subscriptions)}`);
});
