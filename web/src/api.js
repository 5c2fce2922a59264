// The HTTP API: JSON in and out, errors as exceptions carrying the service's message, or
// shown to the user in one place (`attempt`, `showingErrors`).
import { showError } from "./announce.js";
import { errorField, t, translateError } from "./i18n.js";

/** The event the window gets when a request is answered 401: the session is gone. */
export const SESSION_ENDED = "lostfound:session-ended";

export class ApiError extends Error {
  /** `field`: the name of the form field the service's refusal is about, when it names one. */
  constructor(status, message, field) {
    super(message);
    this.status = status;
    this.field = field;
  }
}

/** Resolves with the answer's JSON and the response (for its headers). `body` is sent as
 *  JSON, or as it is when its `contentType` is another (a file's text). */
async function request(method, path, body, contentType = "application/json") {
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "Content-Type": contentType },
      body: body === undefined || contentType !== "application/json" ? body : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, t("error.unreachable"));
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    // Not JSON: the message below says what happened.
  }
  if (!response.ok) {
    // A failed login is not the end of a session.
    if (response.status === 401 && path !== "/api/login") window.dispatchEvent(new Event(SESSION_ENDED));
    // The service's own text, in the reader's language when the app knows it.
    let message = data?.error ? translateError(data.error) : t("error.requestFailed", { status: response.status });
    const retry = response.headers.get("Retry-After");
    if (response.status === 429 && retry) message += t("error.wait", { minutes: Math.ceil(retry / 60) });
    throw new ApiError(response.status, message, errorField(data?.error));
  }
  return { data, response };
}

export async function api(method, path, body, contentType) {
  return (await request(method, path, body, contentType)).data;
}

/** What `promise` resolves with; when it fails, its message is shown and the result is
 *  `undefined`: callers stop there. */
export async function showingErrors(promise) {
  try {
    return await promise;
  } catch (error) {
    showError(error.message);
    return undefined;
  }
}

/** `api`, showing its error when it fails (the result is then `undefined`). Every answer
 *  of the API is an object or an array, so a result is truthy exactly when the call worked. */
export function attempt(method, path, body) {
  return showingErrors(api(method, path, body));
}

/** `/api/items` with these parameters; empty ones are left out. Lists always come a page at a
 *  time and name their `fields` (never `imgData`, the whole photo). */
export function itemsUrl(params) {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(params)) {
    if (value !== "" && value != null) query.set(name, value);
  }
  return `/api/items?${query}`;
}

/** One page of a list: its items, the URL of the next page (`Link: <…>; rel="next"`, or
 *  null on the last page) and how many items match over all pages (`X-Total-Count`; past
 *  10,000 an estimate, `X-Total-Count-Estimated`). */
export async function fetchPage(url) {
  const { data, response } = await request("GET", url);
  const next = /<([^>]*)>\s*;\s*rel="?next"?/.exec(response.headers.get("Link") ?? "");
  const total = Number.parseInt(response.headers.get("X-Total-Count"), 10);
  let items = data;
  if (!Array.isArray(items)) {
    // The service answers an empty page as "]" (not "[]"): with nothing to match, that is
    // an empty page; anything else is a list cut short.
    if (total !== 0) throw new ApiError(response.status, t("error.listIncomplete"));
    items = [];
  }
  return {
    items,
    next: next ? next[1] : null,
    total: Number.isNaN(total) ? items.length : total,
    estimated: response.headers.get("X-Total-Count-Estimated") === "true",
  };
}

/** The titles of items named by id (claims name their item so), in one request: a Map from
 *  id to title, `Item ID` for one that cannot be read (deleted since). */
export async function itemTitles(ids) {
  const items = await itemsById(ids);
  return new Map([...items].map(([id, item]) => [id, item.title]));
}

/** Items `ids`, with `fields` besides their id and title, by id, in one request; an item that
 *  cannot be read stands as its id alone. */
export async function itemsById(ids, fields = []) {
  const unique = [...new Set(ids)];
  const items = new Map(unique.map((id) => [id, { id, title: t("item.fallbackTitle", { id }) }]));
  if (unique.length === 0) return items;
  try {
    const { items: found } = await fetchPage(itemsUrl({ ids: unique.join(","), fields: ["id", "title", ...fields].join(","), limit: 200 }));
    for (const item of found) items.set(item.id, item);
  } catch {
    // Ids alone say enough to act on the claims.
  }
  return items;
}
