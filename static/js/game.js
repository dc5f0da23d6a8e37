// A game in progress: the player's socket (protocol v2) and the VIEWs it brings, wired to the
// board and the parts around it. The server is the referee: the page sends what the player wants
// to do (move-queue.js) and draws whatever VIEW comes back, whole or brought forward by a move's
// change (game-feed.js), with the moves not answered yet shown on it as far as the page can tell
// (rules.js): a play shows at once, and the answer confirms it or takes it back. Why a card cannot
// be played is said next to it, and a play earns a floating "+N" and, if wanted, a sound
// (feedback.js, sounds.js). In a casual game the player may ask for a hint (hints.js); the questions
// before giving up or drawing are in game-dialogs.js; the panel and the analysis at the end in
// game-over.js. The same socket carries the page on to the next game (game-switch.js).

import { Announcer, describeChange } from "./announce.js";
import { Board, boardFromView } from "./board.js";
import { Clock } from "./clock.js";
import { CardTip, floatPoints } from "./feedback.js";
import {
  askBeforeDraw,
  bindGiveUp,
  closeDialogs,
  onConfirm,
  updateDrawQuestion,
} from "./game-dialogs.js";
import { GameFeed, gamePaths } from "./game-feed.js";
import { PostGameAnalysis, showGameOver } from "./game-over.js";
import { bindDealForms, fitToGame } from "./game-switch.js";
import { Hints } from "./hints.js";
import { gettext } from "./i18n.js";
import { bindInput } from "./input.js";
import { MoveQueue } from "./move-queue.js";
import { whyNot } from "./rules.js";
import { renderHud } from "./score.js";
import { initSettings } from "./settings.js";
import { GameSocket, showConnectionState, socketUrl } from "./socket.js";
import { playSound } from "./sounds.js";
import { GameState, isOver } from "./state.js";

/**
 * Start the game page: `root` carries data-socket-path (the player's socket), data-game-id (the
 * game it opens), data-server-time (Unix seconds), and the preferences that settings.js reads.
 * `onGameChanged(id)` runs when the page moves on to a game the server dealt. Returns the page's
 * handle: `open(id)` moves it to game `id` (a race's next round).
 */
export function startGame(root, { onGameChanged = () => {} } = {}) {
  initSettings(root);
  const find = (selector) => root.querySelector(selector);
  const board = new Board(find("[data-board]"));
  const tip = new CardTip(board.root);
  const announcer = new Announcer(find("[data-announcer]"));
  const clock = new Clock(
    find("[data-clock]"),
    Number(root.dataset.serverTime) * 1000 - Date.now(),
  );
  const state = new GameState();
  const messageLine = find("[data-message]");
  const connection = find("[data-connection]");
  const abandonButton = find("[data-abandon]");
  const overPanel = find("[data-game-over]");
  const dialogs = {
    abandon: find("[data-abandon-dialog]"),
    hint: find("[data-hint-dialog]"),
    draw: find("[data-draw-dialog]"),
  };
  let wasConnected = false;
  let lostAnnounced = false;

  const socket = new GameSocket(socketUrl(root.dataset.socketPath), {
    onMessage: receiveMessage,
    onStatus: showConnection,
    onOpen: () => feed.reopen(),
  });
  const feed = new GameFeed(socket, root.dataset.gameId);
  const moves = new MoveQueue({
    socket,
    state,
    board,
    askBeforeDraw: (view) => askBeforeDraw(dialogs.draw, view),
    redraw: () => drawBoard(),
    played: showPlay,
    drew: () => {
      tip.hide();
      playSound("draw");
    },
    explain: (position, text) => tip.show(board.cards[position], text),
  });
  const hints = new Hints({
    socket,
    state,
    button: find("[data-hint]"),
    dialog: dialogs.hint,
    say: showMessage,
  });
  const analysis = new PostGameAnalysis(find("[data-analysis]"), gamePaths(feed.gameId).analysis, {
    socket,
    announcer,
  });

  function showMessage(text) {
    messageLine.textContent = text;
    announcer.say(text);
  }

  /**
   * Draw the board and the numbers: the server's VIEW with the moves not answered yet (as far as
   * the page can tell). `animate` when it is one move on from what is shown.
   */
  function drawBoard({ animate = false } = {}) {
    const view = state.view;
    if (view === null) return;
    const shown = moves.shown(view);
    board.render(boardFromView(shown), { animate, hint: hints.targetFor(shown) });
    moves.markWaiting();
    renderHud(root, shown);
  }

  /** A play shows at once, before the server's answer: the card goes to the waste. */
  function showPlay(_position, before, after) {
    tip.hide();
    messageLine.textContent = "";
    board.render(boardFromView(after), { animate: true, hint: hints.targetFor(after) });
    moves.markWaiting();
    renderHud(root, after);
    floatPoints(board.root, board.waste, after.score - before.score);
    playSound("play");
  }

  function showConnection(status, detail) {
    showConnectionState(connection, status, detail, {
      closedText: { 4401: gettext("Your account is suspended.") },
    });
    if (status === "open") {
      if (lostAnnounced) announcer.say(gettext("Reconnected."));
      wasConnected = true;
      lostAnnounced = false;
      analysis.connectionChanged(state.view);
      return;
    }
    moves.resendLater(); // whatever was sent may have been lost with the connection
    hints.answered(); // and a hint asked for will not be answered
    feed.dealRefused(); // nor a game asked for
    analysis.connectionChanged(state.view);
    if (wasConnected && !lostAnnounced && status !== "connecting") {
      announcer.say(
        status === "closed" ? gettext("Disconnected.") : gettext("Connection lost. Reconnecting…"),
      );
      lostAnnounced = true;
    }
  }

  function receiveMessage(message) {
    if (message.type === "state") {
      receiveState(message.game);
    } else if (message.type === "moved") {
      const view = feed.moved(state.view, message);
      if (view !== null) receiveView(view);
      moves.flush();
    } else if (message.type === "hint") {
      if (!feed.owns(message.game.id)) return;
      hints.receive(message, {
        showView: receiveView,
        ring: () => drawBoard(), // the ring shows unless a move made since has passed it by
      });
      moves.flush();
    } else if (message.type === "analysis") {
      if (feed.owns(message.game)) analysis.deliver(message.analysis);
    } else if (message.type === "error") {
      receiveError(message);
    }
  }

  /** A whole VIEW: of the game shown, or of the game just dealt, shown from now on. */
  function receiveState(view) {
    const whose = feed.follow(view);
    if (whose === null) return;
    const panelFocused = overPanel.contains(document.activeElement);
    if (whose === "other") {
      leaveGame();
      onGameChanged(view.id);
    }
    receiveView(view);
    if (whose === "other" && panelFocused) board.focusNearest(18); // the panel is gone
    moves.flush();
  }

  /** Forget the game shown, for the next (its VIEW comes next): nothing of it carries over. */
  function leaveGame() {
    state.reset();
    moves.reset();
    hints.reset();
    analysis.reset(gamePaths(feed.gameId).analysis);
    board.clear();
    closeDialogs([dialogs.abandon, dialogs.hint, dialogs.draw]);
    overPanel.hidden = true;
    abandonButton.hidden = false;
    messageLine.textContent = "";
    tip.hide();
  }

  /** Show `view` if it is newer than the one shown; say whether it was. */
  function receiveView(view) {
    const before = state.view;
    if (!state.offer(view)) return false;
    if (before === null) fitToGame(root, view);
    const oneMove = before !== null && view.seq === before.seq + 1;
    root.dataset.seq = String(view.seq); // for people and tests reading the page: where it stands
    root.dataset.status = view.status;
    if (before !== null && view.seq > before.seq) messageLine.textContent = "";
    drawBoard({ animate: oneMove });
    updateDrawQuestion(dialogs.draw, view);
    hints.showButton(view);
    clock.set(view.started_at, view.finished_at);
    announcer.say(describeChange(before, view));
    if (isOver(view)) {
      if (view.status === "won" && before !== null && !isOver(before)) playSound("win");
      abandonButton.hidden = true;
      closeDialogs([dialogs.abandon, dialogs.hint, dialogs.draw]);
      if (showGameOver(overPanel, view)) analysis.begin();
    }
    return true;
  }

  function receiveError({ code, message, game, retryable, retry_after_ms: retryAfter }) {
    const target = moves.target;
    hints.answered();
    if (!game) feed.dealRefused(); // a refusal of the page's game carries it; of a deal, none
    if (game && feed.owns(game.id)) receiveView(game);
    if (code === "rate_limited" || retryable) {
      // Nothing was done: open the game again in a moment (the answer is its whole state), and
      // the move comes back (sent again with the same seq, so that it cannot be made twice).
      moves.resendLater();
      window.setTimeout(() => feed.reopen(), retryAfter ?? 1000);
      showMessage(message);
      return;
    }
    if (code === "forbidden" || code === "not_found" || code === "no_game") {
      showMessage(message); // not this player's game, no such game: nothing changed
      return;
    }
    moves.refused();
    if (code === "out_of_sync") {
      showMessage(gettext("The game moved on elsewhere; this board now shows where it stands."));
    } else {
      let text = message;
      if (code === "illegal_move" && typeof target === "number") {
        // The page judged otherwise (it cannot have): say why in words, next to the card.
        text = (game && whyNot(game, target)) ?? message;
        board.shake(target);
        tip.show(board.cards[target], text);
      }
      showMessage(text);
    }
    moves.flush();
  }

  bindGiveUp(abandonButton, dialogs.abandon, () => moves.abandon());
  bindDealForms(root, (message) => feed.deal(message));
  onConfirm(dialogs.draw, () => moves.draw({ confirmed: true }));
  bindInput(board, {
    onPlay: (position) => moves.play(position),
    onDraw: () => moves.draw(),
    onHint: () => hints.ask(),
  });
  socket.start();
  return {
    open(id) {
      if (id === feed.gameId) return;
      feed.open(id);
      leaveGame();
    },
  };
}
