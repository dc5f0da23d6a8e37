// Watching a game: the player's board, read-only, redrawn from what the server pushes on
// /ws/watch/<id>/ (docs/spectating.md): the player's own VIEW on connect, then each move as its
// change (`moved`, applied by view.js; a gap asks for the whole VIEW again), so the page shows
// exactly what the player sees. Nothing here can change the game: the cards are drawn disabled,
// and the socket only ever sends `sync` (to check the connection, or after a missed frame).

import { Announcer } from "./announce.js";
import { Board, boardFromView } from "./board.js";
import { theCard } from "./cards.js";
import { Clock } from "./clock.js";
import { format, gettext, ngettext } from "./i18n.js";
import { renderHud } from "./score.js";
import { initSettings } from "./settings.js";
import { GameSocket, showConnectionState, socketUrl } from "./socket.js";
import { GameState, isOver } from "./state.js";
import { applyMoved, missedBefore } from "./view.js";

/** What the connection line says when the server hangs up for good, by close code. */
function closedText() {
  return {
    4401: gettext("Your account is suspended."),
    4403: gettext("Not watching"),
    4404: gettext("This game does not exist."),
  };
}

/** `text` (an ngettext form for `count`, holding %(count)s) with the count put in. */
function counted(text, count) {
  return format(text, { count });
}

/** The end panel's title for a finished game played by `player`. */
export function endTitle(view, player) {
  if (view.status === "won") return format(gettext("%(player)s won!"), { player });
  if (view.status === "lost") return gettext("No more moves");
  return format(gettext("%(player)s gave up"), { player });
}

/** The end panel's line: what was left, and the score. */
export function endLine(view) {
  const score = counted(ngettext("%(count)s point", "%(count)s points", view.score), view.score);
  if (view.status === "won") {
    const spare = ngettext(
      "All 28 cards cleared, with %(count)s card to spare in the stock: %(score)s.",
      "All 28 cards cleared, with %(count)s cards to spare in the stock: %(score)s.",
      view.stock_count,
    );
    return format(spare, { count: view.stock_count, score });
  }
  const left = view.cards_left;
  if (view.status === "lost") {
    const text = ngettext(
      "The stock ran out with %(count)s card still on the peaks: %(score)s.",
      "The stock ran out with %(count)s cards still on the peaks: %(score)s.",
      left,
    );
    return format(text, { count: left, score });
  }
  const text = ngettext(
    "Given up with %(count)s card still on the peaks: %(score)s.",
    "Given up with %(count)s cards still on the peaks: %(score)s.",
    left,
  );
  return format(text, { count: left, score });
}

/**
 * What a spectator hears between snapshot `before` and `after`: the move `player` made, and the
 * end. Only cards face up in `after` are named.
 */
export function watchSentence(before, after, player) {
  if (!before) {
    const text = ngettext(
      "Watching %(player)s. Score %(score)s, %(count)s card on the peaks, %(stock)s in the stock.",
      "Watching %(player)s. Score %(score)s, %(count)s cards on the peaks, %(stock)s in the stock.",
      after.cards_left,
    );
    return format(text, {
      player,
      score: after.score,
      count: after.cards_left,
      stock: after.stock_count,
    });
  }
  const parts = [];
  if (after.seq === before.seq + 1) {
    const played = after.tableau.some((code, pos) => code === null && before.tableau[pos] !== null);
    if (played) {
      parts.push(
        format(gettext("%(player)s played %(card)s. Score %(score)s."), {
          player,
          card: theCard(after.waste),
          score: after.score,
        }),
      );
    } else if (after.stock_count < before.stock_count) {
      parts.push(
        format(gettext("%(player)s drew %(card)s."), { player, card: theCard(after.waste) }),
      );
    }
  } else if (after.seq > before.seq) {
    parts.push(
      format(gettext("Caught up after move %(move)s. Score %(score)s."), {
        move: after.seq,
        score: after.score,
      }),
    );
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
    showConnectionState(connection, status, detail, { closedText: closedText() });
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
    title.textContent = view ? endTitle(view, player) : gettext("This game is over");
    find("[data-over-summary]").textContent = view
      ? endLine(view)
      : gettext("Its own page shows how it went.");
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
