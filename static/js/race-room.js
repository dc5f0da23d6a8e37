// A race room, live: the racers' progress (a compact strip above the racer's own board), the
// countdown (large, over the board), the results (brought into view when they come), and the
// room's commands; and the invite link's copy button (copy-link.js).
//
// The server pushes `room` snapshots (whole, with a version: only a newer one is drawn) and
// `progress` frames (one racer's figures after each of their moves: a later move replaces an
// earlier one) on /ws/races/<code>/ (docs/races.md). Neither ever carries a card. The room's
// buttons are plain forms; while the socket is open they are sent over it instead. When a round
// starts with the visitor in it, the page is told of their game (race.js moves their board to it).

import { Announcer } from "./announce.js";
import { formatDuration } from "./clock.js";
import { bindCopyLink } from "./copy-link.js";
import { format, gettext, pgettext } from "./i18n.js";
import { motionAllowed } from "./settings.js";
import { GameSocket, showConnectionState, socketUrl } from "./socket.js";

/** A racer's status in words (the code itself, for one this page does not know). */
function statusText(code) {
  const words = {
    waiting: pgettext("racer status", "waiting"),
    ready: pgettext("racer status", "ready"),
    playing: pgettext("racer status", "playing"),
    won: pgettext("racer status", "won"),
    lost: pgettext("racer status", "no more moves"),
    gave_up: pgettext("racer status", "gave up"),
    left: pgettext("racer status", "left"),
    out_of_time: pgettext("racer status", "out of time"),
  };
  return words[code] ?? code;
}

/** The room's state in a sentence. */
function stateText(state) {
  const words = {
    waiting: gettext("Waiting for the host to start the race."),
    countdown: gettext("Get ready: the race starts in a moment."),
    racing: gettext("The race is on."),
    finished: gettext("The race is over."),
  };
  return words[state];
}

const GO_MS = 900; // how long "Go!" stays up over the board once the countdown is over

/** The word that starts the race, large over the board. */
function go() {
  return gettext("Go!");
}

function cell(text, header = false) {
  const element = document.createElement(header ? "th" : "td");
  if (header) element.scope = "row";
  element.textContent = text;
  return element;
}

function span(className, text = "") {
  const element = document.createElement("span");
  if (className) element.className = className;
  element.textContent = text;
  return element;
}

/** A figure of a racer's line, marked with its field's name (for people reading the page). */
function field(name, value) {
  const element = span("", value);
  element.dataset.field = name;
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
    bindCopyLink(
      this.find("[data-copy-link]"),
      this.find("[data-room-link]"),
      this.find("[data-copy-status]"),
    );
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
    showConnectionState(connection, status, undefined, { names: { open: gettext("Live") } });
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
    const underWay = room.state === "countdown" || room.state === "racing";
    if (
      underWay &&
      (before === null || (room.state === "countdown" && before.state !== room.state))
    )
      this.bringBoardIntoView(); // the race begins, or the page (re)opens during it
    if (before && before.state !== room.state) {
      this.announcer.say(stateText(room.state));
      if (room.state === "finished" && room.results?.length) {
        const winners = room.results.filter((result) => result.rank === 1);
        this.announcer.say(
          format(gettext("The race is over. Winner: %(winners)s."), {
            winners: winners.map((r) => r.player).join(", "),
          }),
        );
      }
    }
  }

  /** A race begins: scroll the racers' strip to the top, with the racer's board under it. */
  bringBoardIntoView() {
    if (!this.root.querySelector("[data-game]")) return;
    this.find(".race__racers").scrollIntoView({
      block: "start",
      behavior: motionAllowed() ? "smooth" : "auto",
    });
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
        format(gettext("%(player)s: %(status)s, %(score)s points."), {
          player: frame.player,
          status: statusText(frame.status),
          score: frame.score,
        }),
      );
    }
  }

  /**
   * The racers, one compact line each: name, status, cards left and score, then the rest. The
   * others come first (the visitor's own figures are on their board), the visitor last.
   */
  drawRacers() {
    const mine = (racer) => (racer.player === this.me ? 1 : 0);
    const racers = [...this.room.racers].sort((a, b) => mine(a) - mine(b));
    const items = racers.map((racer) => {
      const figures = this.progress.get(racer.player) ?? null;
      const item = document.createElement("li");
      item.className = "racer";
      item.dataset.player = racer.player;
      if (racer.player === this.me) {
        item.classList.add("racer--me");
        item.setAttribute("aria-current", "true");
      }
      const name = span("racer__name", racer.player);
      const notes = [];
      if (racer.player === this.me) notes.push(gettext("you"));
      if (racer.host) notes.push(gettext("host"));
      if (!racer.connected) notes.push(gettext("disconnected"));
      if (notes.length) name.append(span("racer__note", ` (${notes.join(", ")})`));
      item.dataset.connected = String(racer.connected);
      const code = this.shownStatus(figures);
      const status = field("status", statusText(code));
      status.classList.add("racer__status");
      item.dataset.status = code;
      const more = span("racer__more");
      more.append(
        gettext(", streak "),
        field("streak", figure(figures?.streak)),
        gettext(", peaks "),
        field("peaks", figures ? `${figures.peaks_cleared}/3` : "–"),
        gettext(", moves "),
        field("moves", figure(figures?.moves)),
        gettext(", time "),
        field("time", figures?.finished_ms != null ? formatDuration(figures.finished_ms) : "–"),
      );
      const numbers = span("racer__figures");
      numbers.hidden = figures === null; // nothing to show before the racer's game is dealt
      numbers.append(
        field("cards-left", figure(figures?.cards_left)),
        gettext(" left · "),
        field("score", figure(figures?.score)),
        gettext(" pts"),
        more,
      );
      item.append(name, " ", status, " ", numbers);
      return item;
    });
    this.find("[data-racers]").replaceChildren(...items);
  }

  /** A racer's status as of now: "ready" turns to "playing" when the countdown ends. */
  shownStatus(figures) {
    if (!figures) return "waiting";
    const startsAt = this.room.round ? Date.parse(this.room.round.starts_at) : 0;
    if (figures.status === "ready" && Date.now() + this.serverOffset >= startsAt) return "playing";
    return figures.status;
  }

  /** The results, once the race is over: brought into view when they first show. */
  drawResults() {
    const section = this.find("[data-results]");
    const results = this.room.results;
    const appearing = Boolean(results) && section.hidden;
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
      link.textContent = gettext("Replay");
      const game = document.createElement("td");
      game.append(link);
      row.append(
        cell(String(result.rank)),
        cell(result.player, true),
        cell(statusText(result.status)),
        cell(String(result.score)),
        cell(result.duration_ms == null ? "–" : formatDuration(result.duration_ms)),
        cell(rating),
        game,
      );
      return row;
    });
    this.find("[data-result-rows]").replaceChildren(...rows);
    if (appearing) {
      const box = section.getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight) {
        section.scrollIntoView({ block: "start", behavior: motionAllowed() ? "smooth" : "auto" });
      }
    }
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

  /**
   * The status line: the countdown to the start, then the time left, if there is a limit. The
   * seconds before the start also show large over the board, then "Go!" for a moment.
   */
  drawClock() {
    window.clearTimeout(this.timer);
    const room = this.room;
    const status = this.find("[data-race-status]");
    const now = Date.now() + this.serverOffset;
    let text = stateText(room.state);
    let big = null;
    let next = 0;
    if (room.round && room.state !== "finished" && room.state !== "waiting") {
      const startsAt = Date.parse(room.round.starts_at);
      const endsAt = room.round.ends_at ? Date.parse(room.round.ends_at) : null;
      if (now < startsAt) {
        const seconds = Math.ceil((startsAt - now) / 1000);
        text = format(gettext("The race starts in %(seconds)s s."), { seconds });
        big = String(seconds);
        next = 1000 - ((startsAt - now) % 1000);
      } else {
        text =
          endsAt === null
            ? gettext("Go! The race is on.")
            : format(gettext("Go! Time left: %(time)s"), {
                time: formatDuration(Math.max(0, endsAt - now)),
              });
        if (endsAt !== null && now < endsAt) next = 1000 - ((endsAt - now) % 1000);
        if (now - startsAt < GO_MS) {
          big = go();
          next = next ? Math.min(next, GO_MS - (now - startsAt)) : GO_MS - (now - startsAt);
        }
        if (this.root.dataset.state === "countdown") {
          this.root.dataset.state = "racing";
          this.announcer.say(go());
          this.drawRacers();
        }
      }
    }
    status.textContent = text;
    this.drawCountdown(big);
    if (next) this.timer = window.setTimeout(() => this.drawClock(), next + 20);
  }

  /**
   * The large countdown over the board: `text` (the seconds left, or "Go!"), or nothing. Seen,
   * not read out: the status line says the same, and the announcer says "Go!".
   */
  drawCountdown(text) {
    const countdown = this.find("[data-race-countdown]");
    if (!countdown) return;
    countdown.hidden = text === null;
    countdown.textContent = text ?? "";
    countdown.classList.toggle("race__countdown--go", text === go());
  }
}

export function startRaceRoom(root, { onYourGame }) {
  if (!root) return null;
  const room = new RaceRoom(root, { onYourGame });
  room.start();
  return room;
}
