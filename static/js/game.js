// A game in progress: the socket and the snapshots it brings, wired to the board and the parts
// around it. The server is the referee: the page sends what the player wants to do
// (move-queue.js) and draws whatever snapshot comes back. In a casual game the player may ask for
// a hint (hints.js); the questions before giving up or drawing are in game-dialogs.js; the panel
// and the analysis at the end in game-over.js.

import { Announcer, describeChange } from "./announce.js";
import { Board, boardFromView } from "./board.js";
import { Clock } from "./clock.js";
import {
  askBeforeDraw,
  bindGiveUp,
  closeDialogs,
  onConfirm,
  updateDrawQuestion,
} from "./game-dialogs.js";
import { PostGameAnalysis, showGameOver } from "./game-over.js";
import { Hints } from "./hints.js";
import { bindInput } from "./input.js";
import { MoveQueue } from "./move-queue.js";
import { renderHud } from "./score.js";
import { initSettings } from "./settings.js";
import { GameSocket, showConnectionState, socketUrl } from "./socket.js";
import { GameState, isOver } from "./state.js";

const CLOSED_TEXT = {
  4401: "Your account is suspended.",
  4403: "This game belongs to someone else.",
  4404: "This game does not exist.",
};

/**
 * Start the game page: `root` carries data-socket-path, data-analysis-url and data-server-time
 * (Unix seconds), and the preferences that settings.js reads.
 */
export function startGame(root) {
  initSettings(root);
  const find = (selector) => root.querySelector(selector);
  const board = new Board(find("[data-board]"));
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
  });
  const moves = new MoveQueue({
    socket,
    state,
    board,
    askBeforeDraw: (view) => askBeforeDraw(dialogs.draw, view),
  });
  const hints = new Hints({
    socket,
    state,
    button: find("[data-hint]"),
    dialog: dialogs.hint,
    say: showMessage,
  });
  const analysis = new PostGameAnalysis(find("[data-analysis]"), root.dataset.analysisUrl, {
    socket,
    announcer,
  });

  function showMessage(text) {
    messageLine.textContent = text;
    announcer.say(text);
  }

  function showConnection(status, detail) {
    showConnectionState(connection, status, detail, { closedText: CLOSED_TEXT });
    if (status === "open") {
      if (lostAnnounced) announcer.say("Reconnected.");
      wasConnected = true;
      lostAnnounced = false;
      analysis.connectionChanged(state.view);
      return;
    }
    moves.resendLater(); // whatever was sent may have been lost with the connection
    hints.answered(); // and a hint asked for will not be answered
    analysis.connectionChanged(state.view);
    if (wasConnected && !lostAnnounced && status !== "connecting") {
      announcer.say(status === "closed" ? "Disconnected." : "Connection lost. Reconnecting…");
      lostAnnounced = true;
    }
  }

  function receiveMessage(message) {
    if (message.type === "state") {
      receiveView(message.game);
      moves.flush();
    } else if (message.type === "hint") {
      hints.receive(message, {
        showView: receiveView,
        ring: (view, target) => board.render(boardFromView(view), { hint: target }),
      });
      moves.flush();
    } else if (message.type === "analysis") {
      analysis.deliver(message.analysis);
    } else if (message.type === "error") {
      receiveError(message);
    }
  }

  /** Show `view` if it is newer than the one shown; say whether it was. */
  function receiveView(view) {
    const before = state.view;
    if (!state.offer(view)) return false;
    const oneMove = before !== null && view.seq === before.seq + 1;
    root.dataset.seq = String(view.seq); // for people and tests reading the page: where it stands
    root.dataset.status = view.status;
    if (before !== null && view.seq > before.seq) messageLine.textContent = "";
    board.render(boardFromView(view), { animate: oneMove, hint: hints.targetFor(view) });
    updateDrawQuestion(dialogs.draw, view);
    renderHud(root, view);
    hints.showButton(view);
    clock.set(view.started_at, view.finished_at);
    announcer.say(describeChange(before, view));
    if (isOver(view)) {
      abandonButton.hidden = true;
      closeDialogs([dialogs.abandon, dialogs.hint, dialogs.draw]);
      if (showGameOver(overPanel, view)) analysis.begin();
    }
    return true;
  }

  function receiveError({ code, message, game, retryable, retry_after_ms: retryAfter }) {
    const target = moves.target;
    hints.answered();
    if (game) receiveView(game);
    if (code === "rate_limited" || retryable) {
      // Nothing was done: ask again in a moment, and the answer brings the move back (sent again
      // with the same seq, so that it cannot be made twice).
      moves.resendLater();
      window.setTimeout(() => socket.send({ type: "sync" }), retryAfter ?? 1000);
      showMessage(message);
      return;
    }
    if (code === "forbidden" || code === "not_found") {
      showMessage(message);
      return;
    }
    moves.refused();
    if (code === "out_of_sync") {
      showMessage("The game moved on elsewhere; this board now shows where it stands.");
    } else {
      if (code === "illegal_move" && typeof target === "number") board.shake(target);
      showMessage(message);
    }
    moves.flush();
  }

  bindGiveUp(abandonButton, dialogs.abandon, () => moves.abandon());
  onConfirm(dialogs.draw, () => moves.draw({ confirmed: true }));
  bindInput(board, {
    onPlay: (position) => moves.play(position),
    onDraw: () => moves.draw(),
    onHint: () => hints.ask(),
  });
  socket.start();
}
