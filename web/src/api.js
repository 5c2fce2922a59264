// The HTTP API: JSON in and out, errors as exceptions carrying the service's message.

export class ApiError extends Error {
  constructor(status, message) {
    super(message);
    this.status = status;
  }
}

export async function api(method, path, body) {
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
  return data;
}
