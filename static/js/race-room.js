// A race room, live: the racers' progress, the countdown, the results, and the room's commands.
//
// The server pushes `room` snapshots (whole, with a version: only a newer one is drawn) and
// `progress` frames (one racer's figures after each of their moves: a later move replaces an
// earlier one) on /ws/races/<code>/ (docs/races.md). Neither ever carries a card. The room's
// buttons are plain forms; while the socket is open they are sent over it instead. When a round
// starts with the visitor in it, the page is told of their game (race.js moves their board to it).

import { Announcer } from "./announce.js";
import { formatDuration } from "./clock.js";
import { GameSocket, showConnectionState, socketUrl } from "./socket.js";

const STATUS_TEXT = {
  ready: "ready",
  playing: "playing",
  won: "won",
  lost: "no more moves",
  gave_up: "gave up",
  left: "left",
  out_of_time: "out of time",
};

const STATE_TEXT = {
  waiting: "Waiting for the host to start the race.",
  countdown: "Get ready: the race starts in a moment.",
  racing: "The race is on.",
  finished: "The race is over.",
};

const CONNECTION_NAMES = { open: "Live" };

function cell(text, header = false) {
  const element = document.createElement(header ? "th" : "td");
  if (header) element.scope = "row";
  element.textContent = text;
  return element;
}

function figure(value) {
  return value === null || value === undefined ? "–" : String(value);
}

export class RaceRoom {
  /** `onYourGame(id)` runs when a round starts with the visitor in it, their game `id`. */
  constructor(root, { onYourGame }) {
    this.root = root;
    this.onYourGame = onYourGame;
    this.me = root.dataset.me || null;
    this.gameId = root.dataset.gameId || null;
    this.serverOffset = Number(root.dataset.serverTime) * 1000 - Date.now();
    this.room = null; // the newest snapshot
    this.progress = new Map(); // player -> figures, newest first seen
    this.timer = 0;
    this.announcer = new Announcer(root.querySelector("[data-race-announcer]"));
    this.socket = new GameSocket(socketUrl(root.dataset.socketPath), {
      onMessage: (message) => this.receive(message),
      onStatus: (status) => this.showConnection(status),
    });
  }

  start() {
    for (const form of this.root.querySelectorAll("form[data-command]")) {
      form.addEventListener("submit", (event) => {
        if (this.socket.send({ type: form.dataset.command })) event.preventDefault();
      });
    }
    this.socket.start();
  }

  find(selector) {
    return this.root.querySelector(selector);
  }

  showConnection(status) {
    const connection = this.find(":scope > .race__header [data-connection]");
    showConnectionState(connection, status, undefined, { names: CONNECTION_NAMES });
  }

  receive(message) {
    if (message.type === "room") this.receiveRoom(message);
    else if (message.type === "progress") this.receiveProgress(message);
    else if (message.type === "error") this.showMessage(message.message);
  }

  showMessage(text) {
    this.find("[data-race-message]").textContent = text;
  }

  receiveRoom(room) {
    if (this.room !== null && room.version < this.room.version) return;
    const before = this.room;
    this.room = room;
    this.root.dataset.version = String(room.version);
    this.root.dataset.state = room.state;
    this.serverOffset = Date.parse(room.server_time) - Date.now();
    if (room.your_game && room.your_game !== this.gameId) {
      this.gameId = room.your_game; // a round has started with this visitor in it
      this.root.dataset.gameId = room.your_game;
      this.onYourGame(room.your_game);
    }
    const roundChanged = before?.round?.number !== room.round?.number;
    if (roundChanged) this.progress.clear();
    for (const racer of room.racers) {
      if (racer.progress) this.offerProgress(racer.player, racer.progress);
    }
    this.showMessage("");
    this.drawRacers();
    this.drawResults();
    this.drawActions();
    this.drawClock();
    if (before && before.state !== room.state) {
      this.announcer.say(STATE_TEXT[room.state]);
      if (room.state === "finished" && room.results?.length) {
        const winners = room.results.filter((result) => result.rank === 1);
        this.announcer.say(`The race is over. Winner: ${winners.map((r) => r.player).join(", ")}.`);
      }
    }
  }

  /** Keep `figures` unless those already held are from a later move; say whether kept. */
  offerProgress(player, figures) {
    const held = this.progress.get(player);
    if (held && held.moves > figures.moves) return false;
    if (
      held &&
      held.moves === figures.moves &&
      held.status !== "playing" &&
      figures.status === "playing"
    )
      return false;
    this.progress.set(player, figures);
    return true;
  }

  receiveProgress(frame) {
    if (!this.room?.round || frame.round !== this.room.round.number) return;
    const before = this.progress.get(frame.player);
    if (!this.offerProgress(frame.player, frame)) return;
    this.drawRacers();
    if (frame.player !== this.me && before?.status !== frame.status && frame.status !== "playing") {
      this.announcer.say(
        `${frame.player}: ${STATUS_TEXT[frame.status] ?? frame.status}, ${frame.score} points.`,
      );
    }
  }

  drawRacers() {
    const rows = this.room.racers.map((racer) => {
      const figures = this.progress.get(racer.player) ?? null;
      const row = document.createElement("tr");
      row.dataset.player = racer.player;
      if (racer.player === this.me) {
        row.className = "board-row--me";
        row.setAttribute("aria-current", "true");
      }
      const name = cell(racer.player, true);
      const notes = [];
      if (racer.host) notes.push("host");
      if (!racer.connected) notes.push("disconnected");
      if (notes.length) {
        const note = document.createElement("span");
        note.className = "race-table__note";
        note.textContent = ` (${notes.join(", ")})`;
        name.append(note);
      }
      row.dataset.connected = String(racer.connected);
      const code = this.shownStatus(figures);
      const statusCell = cell(STATUS_TEXT[code] ?? code);
      statusCell.dataset.status = code;
      row.append(
        name,
        statusCell,
        cell(figure(figures?.cards_left)),
        cell(figure(figures?.score)),
        cell(figure(figures?.streak)),
        cell(figures ? `${figures.peaks_cleared}/3` : "–"),
        cell(figure(figures?.moves)),
        cell(figures?.finished_ms != null ? formatDuration(figures.finished_ms) : "–"),
      );
      return row;
    });
    this.find("[data-racers]").replaceChildren(...rows);
  }

  /** A racer's status as of now: "ready" turns to "playing" when the countdown ends. */
  shownStatus(figures) {
    if (!figures) return "waiting";
    const startsAt = this.room.round ? Date.parse(this.room.round.starts_at) : 0;
    if (figures.status === "ready" && Date.now() + this.serverOffset >= startsAt) return "playing";
    return figures.status;
  }

  drawResults() {
    const section = this.find("[data-results]");
    const results = this.room.results;
    section.hidden = !results;
    if (!results) return;
    const rows = results.map((result) => {
      const row = document.createElement("tr");
      if (result.player === this.me) row.className = "board-row--me";
      const change = result.rating_change;
      const rating =
        result.rating === null
          ? "–"
          : `${Math.round(result.rating)} (${change >= 0 ? "+" : "−"}${Math.abs(Math.round(change))})`;
      const link = document.createElement("a");
      link.href = `/games/${encodeURIComponent(result.game)}/`;
      link.textContent = "Replay";
      const game = document.createElement("td");
      game.append(link);
      row.append(
        cell(String(result.rank)),
        cell(result.player, true),
        cell(STATUS_TEXT[result.status] ?? result.status),
        cell(String(result.score)),
        cell(result.duration_ms == null ? "–" : formatDuration(result.duration_ms)),
        cell(rating),
        game,
      );
      return row;
    });
    this.find("[data-result-rows]").replaceChildren(...rows);
  }

  drawActions() {
    const room = this.room;
    const me = this.me;
    const seated = room.racers.some((racer) => racer.player === me && racer.in_room);
    const host = me !== null && room.host === me;
    const between = room.state === "waiting" || room.state === "finished";
    const show = {
      join: me !== null && !seated && between,
      leave: seated,
      start: host && room.state === "waiting",
      rematch: host && room.state === "finished",
    };
    for (const form of this.root.querySelectorAll("form[data-command]")) {
      form.hidden = !show[form.dataset.command];
    }
  }

  /** The status line: the countdown to the start, then the time left, if there is a limit. */
  drawClock() {
    window.clearTimeout(this.timer);
    const room = this.room;
    const status = this.find("[data-race-status]");
    const now = Date.now() + this.serverOffset;
    let text = STATE_TEXT[room.state];
    let next = 0;
    if (room.round && room.state !== "finished" && room.state !== "waiting") {
      const startsAt = Date.parse(room.round.starts_at);
      const endsAt = room.round.ends_at ? Date.parse(room.round.ends_at) : null;
      if (now < startsAt) {
        text = `The race starts in ${Math.ceil((startsAt - now) / 1000)} s.`;
        next = 1000 - ((startsAt - now) % 1000);
      } else {
        text =
          endsAt === null
            ? "Go! The race is on."
            : `Go! Time left: ${formatDuration(Math.max(0, endsAt - now))}`;
        if (endsAt !== null && now < endsAt) next = 1000 - ((endsAt - now) % 1000);
        if (this.root.dataset.state === "countdown") {
          this.root.dataset.state = "racing";
          this.announcer.say("Go!");
          this.drawRacers();
        }
      }
    }
    status.textContent = text;
    if (next) this.timer = window.setTimeout(() => this.drawClock(), next + 20);
  }
}

export function startRaceRoom(root, { onYourGame }) {
  if (!root) return null;
  const room = new RaceRoom(root, { onYourGame });
  room.start();
  return room;
}
