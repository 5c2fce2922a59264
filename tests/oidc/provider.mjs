// A real OpenID Connect provider for lostfound's tests, built on the certified
// `oidc-provider` package. Loopback only (127.0.0.1), plain http, in-memory
// state, a fresh RS256 signing key each start. See README.md beside this file.
//
//   node tests/oidc/provider.mjs
//
// Environment (nothing else configures it):
//   OIDC_CLIENT_ID      required  the one registered client (confidential)
//   OIDC_CLIENT_SECRET  required  its secret; client_secret_basic and client_secret_post both accepted
//   OIDC_REDIRECT_URI   required  its only redirect URI, e.g. http://127.0.0.1:34567/api/oidc/callback
//   OIDC_PORT           optional  port on 127.0.0.1; default 0 = any free port
//   OIDC_TAMPER         optional  audience | nonce | expired | unknown-key: every ID token the token
//                                 endpoint returns gets aud = "someone-else" | a different nonce |
//                                 exp in the past (signed with the provider's key) | a signature by
//                                 a key of its own, whose kid the provider never publishes
//   OIDC_EXTRA_ACCOUNT  optional  JSON {sub, name, email, preferred_username, groups[, login, email_verified]}
//
// Test controls, on the provider's own port (JSON answers):
//   POST /test/accounts/SUB  {"groups": [...]}  sets the groups of account SUB from now on
//   POST /test/rotate-keys                      signs with a new key (new kid) from now on; the
//                                               old one is no longer published
//   GET  /test/jwks-requests                    {"jwksRequests": N}: GETs of /jwks so far
//
// Once listening it prints exactly one line to stdout, `issuer http://127.0.0.1:PORT`, and then runs
// until SIGTERM or SIGINT (exit 0), or until the process that started it is gone. Diagnostics go to
// stderr only, and never include secrets, codes or tokens.
//
// Signing in with a browser (e.g. Playwright), after the relying party redirects to /auth:
//   1. The page "Sign in" (title "Sign in - lostfound test OpenID provider") has one form:
//        text input  name="login", id="login", label "Username"   -> fill with `olivia` (or `sam`)
//        button      id="sign-in", text "Sign in"                  -> click
//      Playwright: await page.getByLabel('Username').fill('olivia');
//                  await page.getByRole('button', { name: 'Sign in' }).click();
//      There is no password field. A `login_hint` request parameter pre-fills the input.
//   2. Consent is granted automatically (no consent page): the browser is redirected straight on to
//      OIDC_REDIRECT_URI?code=...&state=...&iss=...
//   An unknown username re-renders the form with HTTP 401 and the message
//   `Unknown user "<name>"` in <p id="error" role="alert">. The link "Cancel" (id="cancel") ends the
//   request with error=access_denied at the redirect URI.
//   After one sign-in the provider keeps a session (cookie on 127.0.0.1): a later /auth request from
//   the same browser context signs in again without the form, as the same user, unless the relying
//   party sends prompt=login (or max_age=0), or the test uses a fresh browser context.

import http from 'node:http';
import { readFileSync } from 'node:fs';
import { randomBytes } from 'node:crypto';

import { generateKeyPair, exportJWK, SignJWT, decodeJwt, decodeProtectedHeader } from 'jose';
import Provider from 'oidc-provider';

// oidc-provider prints its "NOTICE"s with console.info, i.e. to stdout; stdout is reserved for the
// single `issuer ...` line, so send everything else to stderr.
console.log = (...args) => console.error(...args);
console.info = (...args) => console.error(...args);

function fail(message) {
  process.stderr.write(`oidc provider: ${message}\n`);
  process.exit(2);
}

// ---------------------------------------------------------------------------------------------
// Configuration from the environment

const env = process.env;
const CLIENT_ID = env.OIDC_CLIENT_ID;
const CLIENT_SECRET = env.OIDC_CLIENT_SECRET;
const REDIRECT_URI = env.OIDC_REDIRECT_URI;
if (!CLIENT_ID) fail('OIDC_CLIENT_ID is required');
if (!CLIENT_SECRET) fail('OIDC_CLIENT_SECRET is required');
if (!REDIRECT_URI) fail('OIDC_REDIRECT_URI is required');
if (!URL.canParse(REDIRECT_URI)) fail('OIDC_REDIRECT_URI is not an absolute URL');

const PORT = env.OIDC_PORT === undefined || env.OIDC_PORT === '' ? 0 : Number(env.OIDC_PORT);
if (!Number.isInteger(PORT) || PORT < 0 || PORT > 65535) fail('OIDC_PORT must be a port number (0 = any free port)');

const TAMPER = env.OIDC_TAMPER || '';
if (!['', 'audience', 'nonce', 'expired', 'unknown-key'].includes(TAMPER)) {
  fail('OIDC_TAMPER must be unset, "audience", "nonce", "expired" or "unknown-key"');
}

// ---------------------------------------------------------------------------------------------
// Accounts: accountId (= sub) -> claims, and the names one may type on the sign-in form.

const ACCOUNTS = new Map(); // sub -> claims
const LOGINS = new Map(); // login name -> sub

function addAccount(login, claims) {
  if (LOGINS.has(login)) fail(`login name "${login}" is used by two accounts`);
  ACCOUNTS.set(claims.sub, claims);
  LOGINS.set(login, claims.sub);
}

addAccount('olivia', {
  sub: 'sub-olivia',
  name: 'Olivia Officer',
  email: 'olivia@uni.example',
  email_verified: true,
  preferred_username: 'olivia',
  groups: ['lost-found-staff'],
});
addAccount('sam', {
  sub: 'sub-sam',
  name: 'Sam Student',
  email: 'sam@uni.example',
  email_verified: true,
  preferred_username: 'sam',
  groups: ['students'],
});

if (env.OIDC_EXTRA_ACCOUNT) {
  let extra;
  try {
    extra = JSON.parse(env.OIDC_EXTRA_ACCOUNT);
  } catch {
    fail('OIDC_EXTRA_ACCOUNT is not valid JSON');
  }
  if (!extra || typeof extra !== 'object' || Array.isArray(extra)) fail('OIDC_EXTRA_ACCOUNT must be a JSON object');
  if (typeof extra.sub !== 'string' || !extra.sub) fail('OIDC_EXTRA_ACCOUNT needs a non-empty string "sub"');
  if (ACCOUNTS.has(extra.sub)) fail(`OIDC_EXTRA_ACCOUNT sub "${extra.sub}" is already taken`);
  for (const key of ['name', 'email', 'preferred_username', 'login']) {
    if (extra[key] !== undefined && typeof extra[key] !== 'string') fail(`OIDC_EXTRA_ACCOUNT "${key}" must be a string`);
  }
  if (extra.groups !== undefined
    && !(Array.isArray(extra.groups) && extra.groups.every((g) => typeof g === 'string'))) {
    fail('OIDC_EXTRA_ACCOUNT "groups" must be an array of strings');
  }
  if (extra.email_verified !== undefined && typeof extra.email_verified !== 'boolean') {
    fail('OIDC_EXTRA_ACCOUNT "email_verified" must be a boolean');
  }
  const claims = { sub: extra.sub };
  if (extra.name !== undefined) claims.name = extra.name;
  if (extra.email !== undefined) {
    claims.email = extra.email;
    claims.email_verified = extra.email_verified ?? true;
  }
  if (extra.preferred_username !== undefined) claims.preferred_username = extra.preferred_username;
  claims.groups = extra.groups ?? [];
  // Signs in with its "login" if given, else its sub (a clashing preferred_username is the point
  // of this account, so preferred_username is not a login name).
  addAccount(extra.login ?? extra.sub, claims);
}

async function findAccount(_ctx, id) {
  const claims = ACCOUNTS.get(id);
  if (!claims) return undefined;
  return {
    accountId: id,
    // oidc-provider keeps only the claims the granted scopes allow.
    async claims() {
      return structuredClone(claims);
    },
  };
}

// ---------------------------------------------------------------------------------------------
// Keys. oidc-provider's own keystore is fixed when it is made, so that a rotation can replace the
// key: every ID token it issues is signed again with `signing` (below), and /jwks publishes
// `signing`'s public key only.

async function newSigningKey() {
  const { privateKey, publicKey } = await generateKeyPair('RS256', { extractable: true });
  const kid = `lostfound-test-${randomBytes(6).toString('hex')}`;
  return {
    privateKey,
    privateJwk: { ...(await exportJWK(privateKey)), kid, alg: 'RS256', use: 'sig' },
    publicJwk: { ...(await exportJWK(publicKey)), kid, alg: 'RS256', use: 'sig' },
  };
}

let signing = await newSigningKey();
let jwksRequests = 0;

const configuration = {
  clients: [{
    client_id: CLIENT_ID,
    client_secret: CLIENT_SECRET,
    redirect_uris: [REDIRECT_URI],
    grant_types: ['authorization_code'],
    response_types: ['code'],
    // client_secret_post is accepted as well: oidc-provider treats the two as one family.
    token_endpoint_auth_method: 'client_secret_basic',
    id_token_signed_response_alg: 'RS256',
  }],
  jwks: { keys: [signing.privateJwk] },
  findAccount,
  scopes: ['openid', 'profile', 'email', 'groups'],
  claims: {
    openid: ['sub'],
    profile: ['name', 'preferred_username'],
    email: ['email', 'email_verified'],
    groups: ['groups'],
  },
  // Put the scope-derived claims (name, email, groups, ...) into the ID token too, not only into
  // the userinfo response.
  conformIdTokenClaims: false,
  responseTypes: ['code'],
  pkce: { required: () => true }, // and only S256 is supported
  features: {
    devInteractions: { enabled: false }, // the sign-in page below replaces them
  },
  interactions: {
    url: (_ctx, interaction) => `/interaction/${interaction.uid}`,
  },
  cookies: {
    // Distinct names: cookies ignore ports, so the relying party on another 127.0.0.1 port sees them.
    names: {
      session: 'lostfound_test_op_session',
      interaction: 'lostfound_test_op_interaction',
      resume: 'lostfound_test_op_resume',
    },
    keys: [randomBytes(32).toString('base64url')],
    long: { httpOnly: true, sameSite: 'lax', secure: false },
    short: { httpOnly: true, sameSite: 'lax', secure: false },
  },
  ttl: {
    AccessToken: 3600,
    AuthorizationCode: 60,
    IdToken: 3600,
    Interaction: 600,
    Session: 3600,
    Grant: 3600,
  },
  clientAuthMethods: ['client_secret_basic', 'client_secret_post'],
  clientBasedCORS: () => false,
};

// ---------------------------------------------------------------------------------------------
// The ID token of token responses: signed again with the current key, and tampered with
// (OIDC_TAMPER)

async function resignIdToken(idToken) {
  const header = decodeProtectedHeader(idToken);
  const payload = decodeJwt(idToken);
  const now = Math.floor(Date.now() / 1000);
  let key = signing;
  switch (TAMPER) {
    case '':
      break;
    case 'audience':
      payload.aud = 'someone-else';
      break;
    case 'nonce':
      payload.nonce = `tampered-${randomBytes(12).toString('base64url')}`;
      break;
    case 'expired':
      payload.iat = now - 7200;
      payload.exp = now - 3600;
      if (typeof payload.auth_time === 'number' && payload.auth_time > payload.iat) payload.auth_time = payload.iat;
      break;
    case 'unknown-key':
      key = await newSigningKey();
      break;
    default:
      throw new Error('unreachable');
  }
  return new SignJWT(payload).setProtectedHeader({ ...header, kid: key.publicJwk.kid }).sign(key.privateKey);
}

// ---------------------------------------------------------------------------------------------
// Sign-in page (replaces oidc-provider's devInteractions)

const escapeHtml = (s) => String(s).replace(/[&<>"']/g, (c) => ({
  '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;',
})[c]);

function sendHtml(res, status, body) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'text/html; charset=utf-8');
  res.setHeader('Cache-Control', 'no-store');
  res.setHeader('X-Frame-Options', 'DENY');
  res.end(body);
}

function loginPage({ uid, clientId, value = '', error }) {
  const base = `/interaction/${encodeURIComponent(uid)}`;
  return `<!doctype html>
<html lang="en">
<head><meta charset="utf-8"><title>Sign in - lostfound test OpenID provider</title></head>
<body>
<h1>Sign in</h1>
<p>to continue to <code>${escapeHtml(clientId)}</code> (test provider; accounts: ${[...LOGINS.keys()].map(escapeHtml).join(', ')})</p>
${error ? `<p id="error" role="alert">${escapeHtml(error)}</p>\n` : ''}<form method="post" action="${base}/login" autocomplete="off">
  <label for="login">Username</label>
  <input id="login" name="login" type="text" required autofocus value="${escapeHtml(value)}">
  <button id="sign-in" type="submit">Sign in</button>
</form>
<p><a id="cancel" href="${base}/abort">Cancel</a></p>
</body>
</html>
`;
}

async function readBody(req) {
  let size = 0;
  const chunks = [];
  for await (const chunk of req) {
    size += chunk.length;
    if (size > 16 * 1024) throw Object.assign(new Error('request body too large'), { status: 413 });
    chunks.push(chunk);
  }
  return Buffer.concat(chunks).toString('utf8');
}

async function readForm(req) {
  return new URLSearchParams(await readBody(req));
}

async function grantConsent(provider, interaction) {
  const { prompt: { details }, grantId, session, params } = interaction;
  const grant = grantId
    ? await provider.Grant.find(grantId)
    : new provider.Grant({ accountId: session.accountId, clientId: params.client_id });
  if (details.missingOIDCScope) grant.addOIDCScope(details.missingOIDCScope.join(' '));
  if (details.missingOIDCClaims) grant.addOIDCClaims(details.missingOIDCClaims);
  if (details.missingResourceScopes) {
    for (const [indicator, scopes] of Object.entries(details.missingResourceScopes)) {
      grant.addResourceScope(indicator, scopes.join(' '));
    }
  }
  return grant.save();
}

async function handleInteraction(provider, req, res, uid, action) {
  if (action === '' && req.method === 'GET') {
    const interaction = await provider.interactionDetails(req, res);
    if (interaction.uid !== uid) return sendHtml(res, 400, 'interaction mismatch\n');
    switch (interaction.prompt.name) {
      case 'login':
        return sendHtml(res, 200, loginPage({
          uid, clientId: interaction.params.client_id, value: interaction.params.login_hint ?? '',
        }));
      case 'consent': {
        const grantId = await grantConsent(provider, interaction);
        return provider.interactionFinished(req, res, { consent: { grantId } }, { mergeWithLastSubmission: true });
      }
      default:
        return sendHtml(res, 501, `unsupported prompt ${escapeHtml(interaction.prompt.name)}\n`);
    }
  }
  if (action === '/login' && req.method === 'POST') {
    const form = await readForm(req);
    const interaction = await provider.interactionDetails(req, res);
    if (interaction.uid !== uid || interaction.prompt.name !== 'login') return sendHtml(res, 400, 'not expecting a sign-in\n');
    const login = (form.get('login') ?? '').trim();
    const sub = LOGINS.get(login);
    if (!sub) {
      return sendHtml(res, 401, loginPage({
        uid, clientId: interaction.params.client_id, value: login, error: `Unknown user "${login}"`,
      }));
    }
    return provider.interactionFinished(req, res, { login: { accountId: sub } }, { mergeWithLastSubmission: false });
  }
  if (action === '/abort' && req.method === 'GET') {
    await provider.interactionDetails(req, res);
    return provider.interactionFinished(req, res, {
      error: 'access_denied',
      error_description: 'End-User aborted interaction',
    }, { mergeWithLastSubmission: false });
  }
  res.statusCode = 405;
  return res.end();
}

// ---------------------------------------------------------------------------------------------
// Server

const server = http.createServer();
await new Promise((resolve, reject) => {
  server.once('error', reject);
  server.listen(PORT, '127.0.0.1', resolve);
}).catch((err) => fail(`cannot listen on 127.0.0.1:${PORT}: ${err.message}`));

const issuer = `http://127.0.0.1:${server.address().port}`;
const provider = new Provider(issuer, configuration);

provider.use(async (ctx, next) => {
  await next();
  if (ctx.method === 'POST' && ctx.path === '/token' && ctx.status === 200
    && ctx.body && typeof ctx.body === 'object' && typeof ctx.body.id_token === 'string') {
    ctx.body = { ...ctx.body, id_token: await resignIdToken(ctx.body.id_token) };
  }
});

// Enough to see why a flow failed, and nothing secret (error codes and descriptions only).
for (const event of ['authorization.error', 'grant.error', 'userinfo.error', 'end_session.error']) {
  provider.on(event, (_ctx, err) => {
    process.stderr.write(`oidc provider: ${event}: ${err.error ?? err.name}: ${err.error_description ?? err.message}\n`);
  });
}
provider.on('server_error', (_ctx, err) => {
  process.stderr.write(`oidc provider: server_error: ${err.stack ?? err}\n`);
});

// ---------------------------------------------------------------------------------------------
// The keys published, and the test controls

function sendJson(res, status, body) {
  res.statusCode = status;
  res.setHeader('Content-Type', 'application/json');
  res.setHeader('Cache-Control', 'no-store');
  res.end(`${JSON.stringify(body)}\n`);
}

function sendJwks(res) {
  jwksRequests += 1;
  sendJson(res, 200, { keys: [signing.publicJwk] });
}

const ACCOUNT_CONTROL = /^\/test\/accounts\/([^/]+)$/;

async function handleControl(req, res, pathname) {
  const account = ACCOUNT_CONTROL.exec(pathname);
  if (account && req.method === 'POST') {
    const claims = ACCOUNTS.get(decodeURIComponent(account[1]));
    if (!claims) return sendJson(res, 404, { error: 'no such account' });
    let body;
    try {
      body = JSON.parse(await readBody(req));
    } catch {
      return sendJson(res, 400, { error: 'not JSON' });
    }
    const { groups } = body ?? {};
    if (!Array.isArray(groups) || !groups.every((g) => typeof g === 'string')) {
      return sendJson(res, 400, { error: '"groups" must be an array of strings' });
    }
    claims.groups = groups;
    return sendJson(res, 200, claims);
  }
  if (pathname === '/test/rotate-keys' && req.method === 'POST') {
    signing = await newSigningKey();
    return sendJson(res, 200, { kid: signing.publicJwk.kid });
  }
  if (pathname === '/test/jwks-requests' && req.method === 'GET') {
    return sendJson(res, 200, { jwksRequests });
  }
  return sendJson(res, 404, { error: 'no such control' });
}

const providerCallback = provider.callback();
const INTERACTION = /^\/interaction\/([A-Za-z0-9_-]+)(\/login|\/abort)?$/;

// A sign-in page's or a test control's failure, e.g. SessionNotFound when the interaction cookie
// is missing or expired.
function handleFailure(res, err) {
  const status = err.status ?? err.statusCode ?? 500;
  if (status >= 500) process.stderr.write(`oidc provider: request error: ${err.stack ?? err}\n`);
  if (!res.headersSent) {
    sendHtml(res, status, `<!doctype html><title>Error</title><h1>Error</h1><p id="error">${
      escapeHtml(err.error ?? err.name)}: ${escapeHtml(err.error_description ?? err.message)}</p>\n`);
  } else {
    res.destroy();
  }
}

server.on('request', (req, res) => {
  const { pathname } = new URL(req.url, issuer);
  if (pathname === '/jwks' && req.method === 'GET') {
    sendJwks(res);
    return;
  }
  if (pathname.startsWith('/test/')) {
    handleControl(req, res, pathname).catch((err) => handleFailure(res, err));
    return;
  }
  const match = INTERACTION.exec(pathname);
  if (!match) {
    providerCallback(req, res);
    return;
  }
  handleInteraction(provider, req, res, match[1], match[2] ?? '').catch((err) => handleFailure(res, err));
});

function stop() {
  process.exit(0);
}
process.on('SIGTERM', stop);
process.on('SIGINT', stop);

// Do not outlive the process that started us (e.g. a test binary that was killed): once it is
// gone we are re-parented. (process.ppid is fixed at start-up in Node, so read /proc; elsewhere
// fall back to probing the parent, which a not-yet-reaped zombie parent still passes.)
const parentPid = process.ppid;
function parentGone() {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]) !== parentPid;
  } catch {
    try {
      process.kill(parentPid, 0);
      return false;
    } catch (err) {
      return err.code === 'ESRCH';
    }
  }
}
setInterval(() => {
  if (parentGone()) stop();
}, 500).unref();

process.stdout.write(`issuer ${issuer}\n`);
