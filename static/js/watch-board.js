// Watching a game: the player's board, read-only, redrawn from what the server pushes on
// /ws/watch/<id>/ (docs/spectating.md): the player's own VIEW on connect, then each move as its
// change (`moved`, applied by view.js; a gap asks for the whole VIEW again), so the page shows
// exactly what the player sees. Nothing here can change the game: the cards are drawn disabled,
// and the socket only ever sends `sync` (to check the connection, or after a missed frame).

import { Announcer } from "./announce.js";
import { Board, boardFromView } from "./board.js";
import { cardName } from "./cards.js";
import { Clock } from "./clock.js";
import { renderHud } from "./score.js";
import { initSettings } from "./settings.js";
import { GameSocket, showConnectionState, socketUrl } from "./socket.js";
import { GameState, isOver } from "./state.js";
import { applyMoved, missedBefore } from "./view.js";

const CLOSED_TEXT = {
  4401: "Your account is suspended.",
  4403: "Not watching",
  4404: "This game does not exist.",
};

function plural(count, one, many) {
  return `${count} ${count === 1 ? one : many}`;
}

/** The end panel's title for a finished game played by `player`. */
export function endTitle(view, player) {
  if (view.status === "won") return `${player} won!`;
  if (view.status === "lost") return "No more moves";
  return `${player} gave up`;
}

/** The end panel's line: what was left, and the score. */
export function endLine(view) {
  const score = plural(view.score, "point", "points");
  if (view.status === "won") {
    return `All 28 cards cleared, with ${plural(view.stock_count, "card", "cards")} to spare in the stock: ${score}.`;
  }
  const left = plural(view.cards_left, "card", "cards");
  if (view.status === "lost") return `The stock ran out with ${left} still on the peaks: ${score}.`;
  return `Given up with ${left} still on the peaks: ${score}.`;
}

/**
 * What a spectator hears between snapshot `before` and `after`: the move `player` made, and the
 * end. Only cards face up in `after` are named.
 */
export function watchSentence(before, after, player) {
  if (!before) {
    const peaks = plural(after.cards_left, "card", "cards");
    return `Watching ${player}. Score ${after.score}, ${peaks} on the peaks, ${after.stock_count} in the stock.`;
  }
  const parts = [];
  if (after.seq === before.seq + 1) {
    const played = after.tableau.some((code, pos) => code === null && before.tableau[pos] !== null);
    if (played) {
      parts.push(`${player} played the ${cardName(after.waste)}. Score ${after.score}.`);
    } else if (after.stock_count < before.stock_count) {
      parts.push(`${player} drew the ${cardName(after.waste)}.`);
    }
  } else if (after.seq > before.seq) {
    parts.push(`Caught up after move ${after.seq}. Score ${after.score}.`);
  }
  if (isOver(after) && !isOver(before)) parts.push(`${endTitle(after, player)} ${endLine(after)}`);
  return parts.join(" ");
}

/** Start the watch page: `root` carries data-socket-path, data-player and data-server-time. */
export function startWatching(root) {
  if (!root) return;
  initSettings(root);
  const find = (selector) => root.querySelector(selector);
  const player = root.dataset.player;
  const board = new Board(find("[data-board]"), { interactive: false });
  const announcer = new Announcer(find("[data-announcer]"));
  const clock = new Clock(
    find("[data-clock]"),
    Number(root.dataset.serverTime) * 1000 - Date.now(),
  );
  const state = new GameState();
  const connection = find("[data-connection]");
  const messageLine = find("[data-message]");
  const overPanel = find("[data-watch-over]");
  let closedBecause = ""; // the server's reason when it refused to go on

  function showConnection(status, detail) {
    showConnectionState(connection, status, detail, { closedText: CLOSED_TEXT });
    if (status === "closed" && closedBecause) showMessage(closedBecause);
  }

  function showMessage(text) {
    messageLine.textContent = text;
    announcer.say(text);
  }

  function receive(message) {
    if (message.type === "state") {
      receiveView(message.game);
    } else if (message.type === "moved") {
      const view = applyMoved(state.view, message);
      if (view !== null) receiveView(view);
      else if (missedBefore(state.view, message)) socket.send({ type: "sync" });
    } else if (message.type === "error") {
      // Every error but a rate limit comes just before the server hangs up, and says why.
      if (message.code === "rate_limited") {
        showMessage(message.message);
        return;
      }
      if (message.code === "game_over") showEnd(null);
      closedBecause = message.message;
    }
  }

  function receiveView(view) {
    const before = state.view;
    if (!state.offer(view)) return;
    root.dataset.seq = String(view.seq); // for people and tests reading the page: where it stands
    root.dataset.status = view.status;
    board.render(boardFromView(view), { animate: before !== null && view.seq === before.seq + 1 });
    renderHud(root, view);
    find("[data-watch-stock]").textContent = String(view.stock_count);
    clock.set(view.started_at, view.finished_at);
    announcer.say(watchSentence(before, view, player));
    if (isOver(view)) showEnd(view);
  }

  /** The game is over: say how it ended (when known) and point to its own page. */
  function showEnd(view) {
    const title = find("[data-over-title]");
    title.textContent = view ? endTitle(view, player) : "This game is over";
    find("[data-over-summary]").textContent = view
      ? endLine(view)
      : "Its own page shows how it went.";
    if (view) overPanel.dataset.status = view.status;
    overPanel.hidden = false;
    find("[data-live-badge]").hidden = true;
  }

  const socket = new GameSocket(socketUrl(root.dataset.socketPath), {
    onMessage: receive,
    onStatus: showConnection,
  });
  socket.start();
}
