// A friend challenge's page, live: its players ranked by score, then time, as they play.
//
// The challenge is a race room of its own kind (docs/challenges.md): the server pushes `room`
// snapshots (whole, with a version) and `progress` frames (one player's figures after each of
// their moves) on /ws/races/<code>/, the same frames as a race's, never with a card. When the
// challenge ends the page reloads, to show the results, everyone's replay and the deal.

import { Announcer } from "./announce.js";
import { formatDuration } from "./clock.js";
import { format, gettext, pgettext } from "./i18n.js";
import { GameSocket, showConnectionState, socketUrl } from "./socket.js";

/** A player's status in words (the code itself, for one this page does not know). */
function statusText(code) {
  const words = {
    playing: pgettext("racer status", "playing"),
    won: pgettext("racer status", "won"),
    lost: pgettext("racer status", "no more moves"),
    gave_up: pgettext("racer status", "gave up"),
    out_of_time: pgettext("racer status", "out of time"),
  };
  return words[code] ?? code;
}

function cell(text, header = false) {
  const element = document.createElement(header ? "th" : "td");
  if (header) element.scope = "row";
  element.textContent = text;
  return element;
}

function figure(value) {
  return value === null || value === undefined ? "–" : String(value);
}

/** The live ranking's order: players who played first, by score, higher first, then by time. */
export function standing(figures) {
  if (!figures) return [1, 0, 0];
  return [0, -figures.score, figures.finished_ms ?? Number.MAX_SAFE_INTEGER];
}

function compareStandings(a, b) {
  for (let i = 0; i < a.length; i += 1) if (a[i] !== b[i]) return a[i] - b[i];
  return 0;
}

class Challenge {
  constructor(root) {
    this.root = root;
    this.me = root.dataset.me || null;
    this.version = Number(root.dataset.version);
    this.room = null;
    this.progress = new Map(); // player -> figures of their latest move
    this.announcer = new Announcer(root.querySelector("[data-race-announcer]"));
    this.socket = new GameSocket(socketUrl(root.dataset.socketPath), {
      onMessage: (message) => this.receive(message),
      onStatus: (status) =>
        showConnectionState(root.querySelector("[data-connection]"), status, undefined, {
          names: { open: gettext("Live") },
        }),
    });
  }

  start() {
    const copy = this.root.querySelector("[data-copy-link]");
    if (copy && navigator.clipboard) {
      copy.hidden = false;
      copy.addEventListener("click", async () => {
        const link = this.root.querySelector("[data-challenge-link]").textContent;
        await navigator.clipboard.writeText(link);
        copy.textContent = gettext("Copied");
      });
    }
    this.socket.start();
  }

  receive(message) {
    if (message.type === "room") this.receiveRoom(message);
    else if (message.type === "progress") this.receiveProgress(message);
    else if (message.type === "error")
      this.root.querySelector("[data-race-message]").textContent = message.message;
  }

  receiveRoom(room) {
    if (room.version < this.version) return;
    const before = this.room;
    this.version = room.version;
    this.room = room;
    if (room.state === "finished" && this.root.querySelector("[data-results]").hidden) {
      window.location.reload(); // the end: the page shows the results, the replays and the deal
      return;
    }
    for (const racer of room.racers) {
      if (racer.progress) this.offer(racer.player, racer.progress);
    }
    for (const racer of room.racers) {
      const known = before?.racers.some((other) => other.player === racer.player);
      if (before && !known) {
        this.announcer.say(
          format(gettext("%(player)s joined the challenge."), { player: racer.player }),
        );
      }
    }
    this.draw();
  }

  /** Keep `figures` unless those already held are from a later move; say whether kept. */
  offer(player, figures) {
    const held = this.progress.get(player);
    if (held && held.moves > figures.moves) return false;
    if (held && held.moves === figures.moves && held.status !== "playing") return false;
    this.progress.set(player, figures);
    return true;
  }

  receiveProgress(frame) {
    if (!this.room) return;
    const before = this.progress.get(frame.player);
    if (!this.offer(frame.player, frame)) return;
    if (!this.room.racers.some((racer) => racer.player === frame.player)) {
      this.room.racers.push({ player: frame.player, progress: frame });
    }
    this.draw();
    if (frame.player !== this.me && before?.status !== frame.status && frame.status !== "playing") {
      this.announcer.say(
        format(gettext("%(player)s: %(status)s, %(score)s points."), {
          player: frame.player,
          status: statusText(frame.status),
          score: frame.score,
        }),
      );
    }
  }

  draw() {
    const players = this.room.racers.map((racer) => racer.player);
    players.sort((a, b) =>
      compareStandings(standing(this.progress.get(a)), standing(this.progress.get(b))),
    );
    const rows = players.map((player, index) => {
      const figures = this.progress.get(player) ?? null;
      const row = document.createElement("tr");
      row.dataset.player = player;
      if (player === this.me) row.className = "board-row--me";
      const status = figures ? statusText(figures.status) : gettext("not played yet");
      row.append(
        cell(figures ? String(index + 1) : "–"),
        cell(player, true),
        cell(status),
        cell(figure(figures?.cards_left)),
        cell(figure(figures?.score)),
        cell(figures?.finished_ms != null ? formatDuration(figures.finished_ms) : "–"),
      );
      return row;
    });
    this.root.querySelector("[data-racers]").replaceChildren(...rows);
  }
}

const root = document.querySelector("[data-challenge]");
if (root) new Challenge(root).start();
