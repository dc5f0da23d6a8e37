// A day's board, live: the first page of [data-daily-board] is rebuilt from each snapshot that the
// server pushes on /ws/daily/<date>/ (docs/protocol.md) when a ranked attempt finishes. Only the
// highest `version` seen is drawn; names go in with textContent. Reconnects with backoff.

import { formatDuration } from "./clock.js";
import { gettext } from "./i18n.js";
import { socketUrl } from "./socket.js";

const FIRST_DELAY = 1000;
const MAX_DELAY = 30000;

/** A game's length as its page's clock shows it (clock.js, the same rule as the server's). */
function gameTime(ms) {
  return ms === null || ms === undefined ? "–" : formatDuration(ms);
}

function clockTime(iso) {
  if (!iso) return "";
  return new Date(iso).toISOString().slice(11, 19); // HH:MM:SS, UTC as the page says
}

function cell(text) {
  const td = document.createElement("td");
  td.textContent = text;
  return td;
}

function row(entry, me) {
  const tr = document.createElement("tr");
  const player = document.createElement("td");
  const link = document.createElement("a");
  link.href = `/players/${encodeURIComponent(entry.player)}/`;
  link.textContent = entry.player;
  player.append(link);
  if (me && entry.player === me) {
    tr.className = "board-row--me";
    tr.setAttribute("aria-current", "true");
    const you = document.createElement("span");
    you.className = "board-row__you";
    you.textContent = gettext("(you)");
    player.append(" ", you);
  }
  const finished = cell("");
  const time = document.createElement("time");
  time.dateTime = entry.finished_at ?? "";
  time.textContent = clockTime(entry.finished_at);
  finished.append(time);
  tr.append(
    cell(String(entry.rank)),
    player,
    cell(String(entry.score)),
    cell(gameTime(entry.duration_ms)),
    finished,
  );
  return tr;
}

export class DailyBoard {
  constructor(table) {
    this.table = table;
    this.rows = table.querySelector("[data-board-rows]");
    this.me = table.dataset.me || "";
    this.version = 0;
    this.delay = FIRST_DELAY;
  }

  start() {
    this.#connect();
  }

  draw(snapshot) {
    if (snapshot.type !== "board" || snapshot.version <= this.version) return;
    this.version = snapshot.version;
    this.table.dataset.version = String(snapshot.version);
    if (snapshot.rows.length === 0) return; // the server-rendered "nobody yet" stays
    this.rows.replaceChildren(...snapshot.rows.map((entry) => row(entry, this.me)));
  }

  #connect() {
    const ws = new WebSocket(socketUrl(this.table.dataset.socketPath));
    ws.addEventListener("open", () => {
      this.delay = FIRST_DELAY;
      this.table.dataset.live = "open";
    });
    ws.addEventListener("message", (event) => {
      try {
        this.draw(JSON.parse(event.data));
      } catch {
        // Not a snapshot: ignore it.
      }
    });
    ws.addEventListener("close", (event) => {
      this.table.dataset.live = "closed";
      if (event.code === 4404) return;
      window.setTimeout(() => this.#connect(), this.delay * (0.5 + Math.random()));
      this.delay = Math.min(MAX_DELAY, this.delay * 2);
    });
  }
}

export function startDailyBoards(root = document) {
  for (const table of root.querySelectorAll("[data-daily-board][data-socket-path]")) {
    new DailyBoard(table).start();
  }
}
