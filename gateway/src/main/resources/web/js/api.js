// The gateway's HTTP API from the browser: same-origin requests with the login cookie, and the login's CSRF token
// on every request that changes something (the gateway refuses them without it). Errors carry the API's message.

let csrfToken = null;

export function setCsrfToken(token) {
  csrfToken = token;
}

export class ApiError extends Error {
  constructor(status, message, body) {
    super(message);
    this.status = status;
    this.body = body;
  }
}

export async function api(method, path, body) {
  return apiText(method, path, body === undefined ? undefined : JSON.stringify(body));
}

/**
 * The same with a JSON body sent as the text it is, not parsed here first: for text a person typed (a configuration
 * in a text box), so the API judges it and its message says what is wrong, not the browser's parser.
 */
export async function apiText(method, path, text) {
  const headers = {};
  if (text !== undefined) {
    headers['Content-Type'] = 'application/json';
  }
  if (csrfToken && method !== 'GET') {
    headers['X-CSRF-Token'] = csrfToken;
  }
  return answer(await fetch(path, { method, headers, credentials: 'same-origin', body: text }));
}

/** The JSON of an answer, or an ApiError with the API's message. */
async function answer(response) {
  const text = await response.text();
  let json = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    json = null;
  }
  if (!response.ok) {
    throw new ApiError(response.status, (json && json.message) || text || response.statusText, json);
  }
  return json;
}

/** Sends bytes as they are (a file upload): the same cookie, CSRF token and errors as {@link api}. */
export async function upload(path, blob) {
  const headers = { 'Content-Type': 'application/octet-stream' };
  if (csrfToken) {
    headers['X-CSRF-Token'] = csrfToken;
  }
  return answer(await fetch(path, { method: 'PUT', headers, credentials: 'same-origin', body: blob }));
}
