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
      this.delay = 500;
      this.handlers.onStatus?.("open");
    };
    ws.onmessage = (event) => this.receive(event.data);
    ws.onclose = (event) => {
      if (this.ws !== ws) return;
      this.ws = null;
      if (this.closed) return;
      if (event.code === 4012) this.delay = 500; // the server is restarting: reconnect soon
      this.handlers.onStatus?.("lost");
      const wait = this.delay * (0.75 + Math.random() * 0.5);
      this.delay = Math.min(this.delay * 2, 8000);
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
