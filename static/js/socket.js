// A page's websocket: connects, and reconnects after any loss with exponential backoff and
// jitter, so that a laptop waking up or a phone changing networks finds its game again.

import { gettext } from "./i18n.js";

const FIRST_DELAY = 500; // ms before the first retry (at most; see #delay)
const MAX_DELAY = 15000;
const PROBE_TIMEOUT = 4000; // ms a live connection has to answer a probe
// Account suspended, not the visitor's to watch, no such game (the player's socket refuses a
// game with an error frame instead, and stays open).
const FATAL_CLOSE_CODES = new Set([4401, 4403, 4404]);

/** The websocket URL of `path` on this page's host, secure when the page is. */
export function socketUrl(path) {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${window.location.host}${path}`;
}

/** What a connection's state is called beside a board (the pages may rename one or two). */
export function connectionText(status) {
  const words = {
    connecting: gettext("Connecting…"),
    open: gettext("Connected"),
    reconnecting: gettext("Reconnecting…"),
    offline: gettext("Offline: waiting for the network…"),
  };
  return words[status];
}

/**
 * Show a socket's state in a [data-connection] element: `status` and `detail` as `onStatus`
 * gives them; `closedText` names the close codes a page expects, `names` renames states.
 */
export function showConnectionState(element, status, detail, { closedText = {}, names = {} } = {}) {
  element.dataset.state = status;
  const text =
    status === "closed"
      ? (closedText[detail] ?? names.closed ?? gettext("Disconnected"))
      : (names[status] ?? connectionText(status));
  element.querySelector("[data-connection-text]").textContent = text;
}

export class GameSocket {
  /**
   * `url` is the websocket URL. Callbacks: `onMessage(message)` with the parsed JSON, and
   * `onStatus(status, detail)` where status is "connecting", "open", "reconnecting" (detail: ms
   * until the next try), "offline" or "closed" (detail: the close code; no more retries).
   * `onOpen()` runs on every new connection before anything else is sent on it: the player's
   * socket opens no game by itself, so the page says there which game it shows. (The watch and
   * room sockets send their state on connect: they need no `onOpen`.)
   */
  constructor(url, { onMessage, onStatus, onOpen = () => {} }) {
    this.url = url;
    this.onMessage = onMessage;
    this.onStatus = onStatus;
    this.onOpen = onOpen;
    this.ws = null;
    this.attempt = 0;
    this.retryTimer = 0;
    this.probeTimer = 0;
    this.stopped = false;
  }

  start() {
    window.addEventListener("online", () => this.reconnectNow());
    window.addEventListener("offline", () => this.onStatus("offline"));
    // After sleep or a switch of tabs the socket may look open but be dead: check it.
    document.addEventListener("visibilitychange", () => {
      if (document.visibilityState === "visible") this.probe();
    });
    window.addEventListener("pageshow", (event) => {
      if (event.persisted) this.reconnectNow();
    });
    this.#connect();
  }

  get isOpen() {
    return this.ws !== null && this.ws.readyState === WebSocket.OPEN;
  }

  /** Send `message` as JSON if the connection is open; say whether it went. */
  send(message) {
    if (!this.isOpen) return false;
    this.ws.send(JSON.stringify(message));
    return true;
  }

  /** Ask the server for the state; if no answer comes soon, the connection is dead: replace it. */
  probe() {
    if (this.stopped) return;
    if (!this.isOpen) {
      this.reconnectNow();
      return;
    }
    if (this.probeTimer) return;
    this.send({ type: "sync" });
    this.probeTimer = window.setTimeout(() => {
      this.probeTimer = 0;
      this.#drop();
      this.reconnectNow();
    }, PROBE_TIMEOUT);
  }

  /** Skip the wait: try to connect at once (the network is back, or the page is visible). */
  reconnectNow() {
    if (this.stopped || this.isOpen || this.ws?.readyState === WebSocket.CONNECTING) return;
    window.clearTimeout(this.retryTimer);
    this.attempt = 0;
    this.#connect();
  }

  #connect() {
    this.retryTimer = 0;
    this.onStatus("connecting");
    const ws = new WebSocket(this.url);
    this.ws = ws;
    ws.addEventListener("open", () => {
      if (ws !== this.ws) return;
      this.onOpen();
      this.onStatus("open");
    });
    ws.addEventListener("message", (event) => {
      if (ws !== this.ws) return; // a late message from a connection already replaced
      this.attempt = 0; // the server answers: this connection works
      window.clearTimeout(this.probeTimer);
      this.probeTimer = 0;
      let message;
      try {
        message = JSON.parse(event.data);
      } catch {
        return;
      }
      this.onMessage(message);
    });
    ws.addEventListener("close", (event) => {
      if (ws !== this.ws) return;
      this.ws = null;
      if (FATAL_CLOSE_CODES.has(event.code)) {
        this.stopped = true;
        this.onStatus("closed", event.code);
        return;
      }
      this.#scheduleRetry();
    });
  }

  /** Forget the current connection without waiting for a close that may never come. */
  #drop() {
    const ws = this.ws;
    this.ws = null;
    if (ws) ws.close();
  }

  #scheduleRetry() {
    if (this.stopped || this.retryTimer) return;
    const delay = this.#delay();
    this.attempt += 1;
    this.onStatus(navigator.onLine === false ? "offline" : "reconnecting", delay);
    this.retryTimer = window.setTimeout(() => this.#connect(), delay);
  }

  /** "Equal jitter": half the exponential delay, plus a random part of the other half. */
  #delay() {
    const ceiling = Math.min(MAX_DELAY, FIRST_DELAY * 2 ** this.attempt);
    return ceiling / 2 + Math.random() * (ceiling / 2);
  }
}
