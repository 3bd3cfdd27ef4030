// The JSON API and the table's websocket: one client that reconnects with
// backoff and keeps the newest state by version (PROTOCOL.md).

function csrfToken() {
  const match = document.cookie.match(/(?:^|;\s*)csrftoken=([^;]+)/);
  return match ? decodeURIComponent(match[1]) : "";
}

/** Call the JSON API; resolve with the body, reject with {code, message}. */
export async function api(path, body = undefined) {
  const options = { credentials: "same-origin", headers: { Accept: "application/json" } };
  if (body !== undefined) {
    options.method = "POST";
    options.headers["Content-Type"] = "application/json";
    options.headers["X-CSRFToken"] = csrfToken();
    options.body = JSON.stringify(body);
  }
  let response;
  try {
    response = await fetch(path, options);
  } catch (error) {
    throw { code: "network", message: "The server cannot be reached. Check your connection." };
  }
  let data = null;
  try {
    data = await response.json();
  } catch (error) {
    data = null;
  }
  if (!response.ok) {
    const err = (data && data.error) || {};
    throw { code: err.code || String(response.status), message: err.message || `Request failed (${response.status}).` };
  }
  return data;
}

/** The session's player, or null: GET /api/session/. */
export async function currentPlayer() {
  const data = await api("/api/session/");
  return data.player;
}

/** Become a guest player with this name: POST /api/session/. */
export async function setName(name) {
  const data = await api("/api/session/", { name });
  return data.player;
}

/**
 * The table's websocket. Calls `onState(msg)` with each state not older than the
 * last one, `onChat(msg)`, `onChatHidden(msg)` (staff hid a line: `msg.at` names
 * it), `onError(msg)` and `onStatus("open" | "lost")`.
 * After a drop it reconnects by itself (0.5 s, 1 s, 2 s ... up to 8 s, with
 * jitter); the server sends the state on connect, so a reconnect is a resync.
 * A server too busy to take the socket now closes it with 4503 after an error
 * carrying `retry_after` (seconds): the client comes back then (±10 %), not
 * sooner, so that a crowd reconnecting at once is spread over the time the
 * server needs to serve it. The backoff starts again from 0.5 s only once a
 * state has arrived (a refused socket did open).
 */
export class TableClient {
  constructor(path, handlers) {
    this.path = path;
    this.handlers = handlers;
    this.version = -1;
    this.delay = 500;
    this.ws = null;
    this.closed = false;
    this.nextId = 1;
    this.timer = null;
    this.retryAfter = null; // seconds, from a busy server's refusal (close code 4503)
    this.connect();
    // A tab that wakes from sleep may hold a socket that died silently.
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.sync();
    });
  }

  url() {
    const scheme = location.protocol === "https:" ? "wss:" : "ws:";
    return `${scheme}//${location.host}${this.path}`;
  }

  connect() {
    clearTimeout(this.timer);
    const ws = new WebSocket(this.url());
    this.ws = ws;
    ws.onopen = () => {
      this.handlers.onStatus?.("open");
    };
    ws.onmessage = (event) => this.receive(event.data);
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      if (event.code === 4012) this.delay = 500; // the server is restarting: reconnect soon
      this.handlers.onStatus?.("lost");
      let wait;
      if (event.code === 4503 && this.retryAfter !== null) {
        wait = this.retryAfter * 1000 * (0.9 + Math.random() * 0.2); // the slot the server gave us
      } else {
        wait = this.delay * (0.75 + Math.random() * 0.5);
        this.delay = Math.min(this.delay * 2, 8000);
      }
      this.retryAfter = null;
      this.timer = setTimeout(() => this.connect(), wait);
    };
  }

  /** Drop the socket and open a new one now (after a name change, say). */
  reconnect() {
    this.delay = 500;
    const old = this.ws;
    this.ws = null;
    if (old) old.close();
    this.connect();
  }

  receive(text) {
    let msg;
    try {
      msg = JSON.parse(text);
    } catch (error) {
      return;
    }
    if (msg.type === "state") {
      this.delay = 500; // served: the next drop starts the backoff afresh
      if (msg.version < this.version) return;
      this.version = msg.version;
      this.handlers.onState?.(msg);
    } else if (msg.type === "chat") {
      this.handlers.onChat?.(msg);
    } else if (msg.type === "hint") {
      this.handlers.onHint?.(msg);
    } else if (msg.type === "chat_hidden") {
      this.handlers.onChatHidden?.(msg);
    } else if (msg.type === "error") {
      if (typeof msg.retry_after === "number") this.retryAfter = msg.retry_after;
      if (msg.code === "stale_version") this.sync();
      this.handlers.onError?.(msg);
    } else {
      this.handlers.onOther?.(msg); // messages a page module handles (evening.js: stood_in)
    }
  }

  /** Send a message; false when the socket is not open. */
  send(msg) {
    if (!this.ws || this.ws.readyState !== WebSocket.OPEN) return false;
    this.ws.send(JSON.stringify(msg));
    return true;
  }

  /** Send a move at the version this client saw; returns the message id. */
  move(move) {
    const id = `c-${this.nextId++}`;
    this.send({ type: "move", move, version: this.version, id });
    return id;
  }

  sync() {
    this.send({ type: "sync" });
  }
}
