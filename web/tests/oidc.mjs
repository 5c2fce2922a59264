// The test OpenID provider (tests/oidc/provider.mjs, a real one built on oidc-provider) for
// the single sign-on tests: started for one relying party, stopped with SIGTERM.
import { spawn } from "node:child_process";
import { randomBytes } from "node:crypto";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const PROVIDER = fileURLToPath(new URL("../../tests/oidc/provider.mjs", import.meta.url));

/**
 * Starts the provider with one client, `clientId`, that may come back to `redirectUri` only;
 * with `tamper` (`audience`, `nonce`, `expired` or `unknown-key`: tests/oidc/README.md), its
 * ID tokens are wrong in that way. Resolves with `{ issuer, clientId, clientSecret, stop }` once
 * it listens; `stop()` resolves when it has exited.
 */
export async function startOidcProvider({ redirectUri, clientId = "lostfound", tamper }) {
  if (!existsSync(new URL("../../tests/oidc/node_modules/oidc-provider", import.meta.url))) {
    throw new Error("the test OpenID provider is not installed: run npm ci --prefix tests/oidc");
  }
  const clientSecret = randomBytes(24).toString("hex");
  const child = spawn(process.execPath, [PROVIDER], {
    env: {
      ...process.env,
      OIDC_CLIENT_ID: clientId,
      OIDC_CLIENT_SECRET: clientSecret,
      OIDC_REDIRECT_URI: redirectUri,
      ...(tamper && { OIDC_TAMPER: tamper }),
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const exited = new Promise((resolve) => child.once("exit", resolve));
  const issuer = await new Promise((resolve, reject) => {
    let out = "";
    let err = "";
    child.stderr.on("data", (chunk) => (err += chunk));
    child.stdout.on("data", (chunk) => {
      out += chunk;
      const found = /^issuer (\S+)\n/.exec(out);
      if (found) resolve(found[1]);
    });
    exited.then((code) => reject(new Error(`the OpenID provider exited (${code}): ${err}`)));
  });
  return {
    issuer,
    clientId,
    clientSecret,
    stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      return exited;
    },
  };
}
