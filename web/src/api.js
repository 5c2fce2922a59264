// The HTTP API: JSON in and out, errors as exceptions carrying the service's message.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

/** Resolves with the answer's JSON and the response (for its headers). */
async function request(method, path, body) {
  let response;
  try {
    response = await fetch(path, {
      method,
      credentials: "same-origin",
      headers: body === undefined ? {} : { "Content-Type": "application/json" },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
  } catch {
    throw new ApiError(0, "The service cannot be reached. Check your connection and try again.");
  }
  let data = null;
  try {
    data = await response.json();
  } catch {
    // Not JSON: the message below says what happened.
  }
  if (!response.ok) {
    let message = data?.error ?? `Request failed (${response.status})`;
    const retry = response.headers.get("Retry-After");
    if (response.status === 429 && retry) message += ` (wait ${Math.ceil(retry / 60)} min)`;
    throw new ApiError(response.status, message);
  }
  return { data, response };
}

export async function api(method, path, body) {
  return (await request(method, path, body)).data;
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
 *  null on the last page) and how many items match over all pages (`X-Total-Count`). */
export async function fetchPage(url) {
  const { data, response } = await request("GET", url);
  const next = /<([^>]*)>\s*;\s*rel="?next"?/.exec(response.headers.get("Link") ?? "");
  const total = Number.parseInt(response.headers.get("X-Total-Count"), 10);
  let items = data;
  if (!Array.isArray(items)) {
    // The service answers an empty page as "]" (not "[]"): with nothing to match, that is
    // an empty page; anything else is a list cut short.
    if (total !== 0) throw new ApiError(response.status, "The list could not be read completely. Try again.");
    items = [];
  }
  return { items, next: next ? next[1] : null, total: Number.isNaN(total) ? items.length : total };
}

/** An item's title by id, for lists that name items by id (claims); `Item ID` when it cannot
 *  be read (deleted since). */
export async function itemTitle(id) {
  try {
    return (await api("GET", `/api/items/${id}?fields=title`)).title;
  } catch {
    return `Item ${id}`;
  }
}
