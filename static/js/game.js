// A game in progress: the socket, the snapshot, the board and the panels around it.
//
// The server is the referee. The page sends what the player wants to do and draws whatever
// snapshot comes back. One move is in flight at a time; a move made meanwhile waits its turn and
// is dropped if the next snapshot no longer allows it. A move sent but never answered (the
// connection dropped) is sent again once a fresh snapshot shows it was not recorded.
// In a casual game the player may ask for a hint (the game is then marked assisted); once the game
// is over, its analysis comes over the socket, or is fetched if the socket cannot bring it.
// A player who asked for it is asked before a draw while a card on the peaks fits.

import { AnalysisLoader, AnalysisView, analysisSentence } from "./analysis.js";
import { Announcer, describeChange, endSummary } from "./announce.js";
import { Board, boardFromView } from "./board.js";
import { Clock, formatDuration } from "./clock.js";
import { bindInput } from "./input.js";
import { breakdownDetails, renderHud, scoreBreakdown } from "./score.js";
import { initSettings, preference } from "./settings.js";
import { GameSocket, showConnectionState } from "./socket.js";
import { GameState, isOver } from "./state.js";

const ANSWER_TIMEOUT = 5000; // ms to wait for the answer to a move before checking the connection
const ANALYSIS_WAIT = 60000; // ms after the end of a game before saying the analysis is late

const CLOSED_TEXT = {
  4401: "Your account is suspended.",
  4403: "This game belongs to someone else.",
  4404: "This game does not exist.",
};

const OVER_TITLES = { won: "You won!", lost: "No more moves", abandoned: "Game given up" };

function socketUrl(path) {
  const scheme = window.location.protocol === "https:" ? "wss:" : "ws:";
  return `${scheme}//${window.location.host}${path}`;
}

/** What the question before a draw says fits: "2 cards on the peaks fit the waste." */
export function fitsText(count) {
  if (count === 0) return "No card on the peaks fits the waste any more.";
  if (count === 1) return "A card on the peaks fits the waste.";
  return `${count} cards on the peaks fit the waste.`;
}

/**
 * Start the game page: `root` carries data-socket-path, data-analysis-url and data-server-time
 * (Unix seconds), and the preferences that settings.js reads.
 */
export function startGame(root) {
  initSettings(root);
  const find = (selector) => root.querySelector(selector);
  const board = new Board(find("[data-board]"));
  const announcer = new Announcer(find("[data-announcer]"));
  const serverOffset = Number(root.dataset.serverTime) * 1000 - Date.now();
  const clock = new Clock(find("[data-clock]"), serverOffset);
  const state = new GameState();
  const messageLine = find("[data-message]");
  const connection = find("[data-connection]");
  const abandonButton = find("[data-abandon]");
  const abandonDialog = find("[data-abandon-dialog]");
  const overPanel = find("[data-game-over]");
  const hintButton = find("[data-hint]");
  const hintDialog = find("[data-hint-dialog]");
  const drawDialog = find("[data-draw-dialog]");
  const analysisView = new AnalysisView(find("[data-analysis]"));
  const analysisLoader = new AnalysisLoader(root.dataset.analysisUrl, {
    onReady: showAnalysis,
    onGiveUp: analysisLate,
  });

  let pending = null; // the move in flight: {seq, move, target, sent}
  let queued = null; // a move made while one is in flight: {position} or {draw: true}
  let abandonWanted = false;
  let answerTimer = 0;
  let wasConnected = false;
  let lostAnnounced = false;
  let hint = null; // the hint shown: {seq, target}, a position or "stock", until the game moves on
  let hintAsked = false; // a hint was asked for and its answer has not come yet
  let hintAgreed = false; // the player was told that a hint marks the game assisted, and went on
  let hintTimer = 0;
  let analysisTimer = 0;

  const socket = new GameSocket(socketUrl(root.dataset.socketPath), {
    onMessage: receiveMessage,
    onStatus: showConnection,
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
      awaitAnalysis();
      return;
    }
    if (pending) pending.sent = false; // whatever was sent may have been lost with the connection
    hintAnswered(); // and a hint asked for will not be answered
    awaitAnalysis();
    if (wasConnected && !lostAnnounced && status !== "connecting") {
      announcer.say(status === "closed" ? "Disconnected." : "Connection lost. Reconnecting…");
      lostAnnounced = true;
    }
  }

  function receiveMessage(message) {
    if (message.type === "state") {
      receiveView(message.game);
      flush();
    } else if (message.type === "hint") {
      receiveHint(message);
      flush();
    } else if (message.type === "analysis") {
      analysisLoader.deliver(message.analysis);
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
    if (hint && (hint.seq !== view.seq || isOver(view))) hint = null;
    board.render(boardFromView(view), { animate: oneMove, hint: hint?.target ?? null });
    if (drawDialog.open) showFits(view);
    renderHud(root, view);
    hintButton.hidden = view.mode !== "casual" || isOver(view);
    clock.set(view.started_at, view.finished_at);
    announcer.say(describeChange(before, view));
    if (isOver(view)) {
      abandonButton.hidden = true;
      if (abandonDialog.open) abandonDialog.close("cancel");
      if (hintDialog.open) hintDialog.close("cancel");
      if (drawDialog.open) drawDialog.close("cancel");
      showGameOver(view);
    }
    return true;
  }

  /** The answer to a hint: the move suggested (shown until the game moves on) and why. */
  function receiveHint({ move, position, reason, game }) {
    hintAnswered();
    hint = move === null ? null : { seq: game.seq, target: move === "draw" ? "stock" : position };
    const shown = receiveView(game);
    const view = state.view;
    if (view.seq !== game.seq || isOver(view)) {
      hint = null; // the game moved on while the hint was on its way: it no longer applies
      return;
    }
    if (!shown && hint) board.render(boardFromView(view), { hint: hint.target });
    showMessage(reason);
  }

  function receiveError({ code, message, game, retryable, retry_after_ms: retryAfter }) {
    const target = pending?.target;
    hintAnswered();
    if (game) receiveView(game);
    if (code === "rate_limited" || retryable) {
      // Nothing was done: ask again in a moment, and the answer brings the move back (sent again
      // with the same seq, so that it cannot be made twice).
      if (pending) pending.sent = false;
      window.setTimeout(() => socket.send({ type: "sync" }), retryAfter ?? 1000);
      showMessage(message);
      return;
    }
    if (code === "forbidden" || code === "not_found") {
      showMessage(message);
      return;
    }
    settle();
    queued = null;
    if (code === "out_of_sync") {
      showMessage("The game moved on elsewhere; this board now shows where it stands.");
    } else {
      if (code === "illegal_move" && typeof target === "number") board.shake(target);
      showMessage(message);
    }
    flush();
  }

  function settle() {
    pending = null;
    board.clearPending();
    window.clearTimeout(answerTimer);
  }

  /** Send what waits to be sent, now that a snapshot has come in or a move was made. */
  function flush() {
    const view = state.view;
    if (view === null) return;
    if (pending) {
      if (view.seq > pending.seq || isOver(view)) {
        settle(); // recorded (or overtaken by a move made elsewhere)
      } else if (!pending.sent && socket.isOpen) {
        pending.sent = socket.send({ type: "move", seq: pending.seq, move: pending.move });
        window.clearTimeout(answerTimer);
        answerTimer = window.setTimeout(() => {
          // No answer yet: check the connection, and send the move again with the same seq once
          // the state comes (the server answers a repeat of a recorded move with the state alone).
          if (pending) pending.sent = false;
          socket.probe();
        }, ANSWER_TIMEOUT);
      }
    }
    if (abandonWanted && !isOver(view) && socket.isOpen && !pending) {
      abandonWanted = !socket.send({ type: "abandon" });
    }
    if (!pending && queued && !isOver(view)) {
      const next = queued;
      queued = null;
      if (next.draw) draw({ confirmed: next.confirmed });
      else if (view.playable.includes(next.position)) play(next.position);
    }
  }

  function makeMove(move, target) {
    pending = { seq: state.view.seq, move, target, sent: false };
    board.markPending(target);
    flush();
  }

  function play(position) {
    const view = state.view;
    if (view === null || isOver(view)) return;
    if (pending) {
      queued = { position };
      return;
    }
    const code = view.tableau[position];
    if (typeof code === "string" && code !== "down") makeMove(code, position);
  }

  /**
   * Draw from the stock; unless `confirmed`, first ask a player who wants to be asked whether a
   * card fits. (Asked once the move in flight is answered, so about the board the draw meets.)
   */
  function draw({ confirmed = false } = {}) {
    const view = state.view;
    if (view === null || isOver(view)) return;
    if (pending) {
      queued = { draw: true, confirmed };
      return;
    }
    if (view.stock_count === 0) return;
    if (!confirmed && preference("confirm-draw") && view.playable.length > 0) {
      if (drawDialog.open) return;
      showFits(view);
      // Some browsers keep the last answer when Escape closes a dialog: it must not be "confirm".
      drawDialog.returnValue = "";
      drawDialog.showModal();
      return;
    }
    makeMove("draw", "stock");
  }

  function showFits(view) {
    drawDialog.querySelector("[data-draw-fits]").textContent = fitsText(view.playable.length);
  }

  /** Ask for a hint: the first time in a game, after saying that it marks the game assisted. */
  function askHint() {
    const view = state.view;
    if (view === null || isOver(view) || hintAsked) return;
    if (view.mode !== "casual") {
      showMessage("Hints are for casual games only.");
      return;
    }
    if (!view.assisted && !hintAgreed) {
      if (!hintDialog.open) hintDialog.showModal();
      return;
    }
    if (!socket.isOpen) {
      showMessage("Not connected: the hint will have to wait for the connection.");
      return;
    }
    hintAsked = socket.send({ type: "hint" });
    if (!hintAsked) return;
    hintButton.setAttribute("aria-busy", "true");
    // No answer in time: let the player ask again (the connection check is the socket's business).
    hintTimer = window.setTimeout(hintAnswered, ANSWER_TIMEOUT);
  }

  function hintAnswered() {
    hintAsked = false;
    window.clearTimeout(hintTimer);
    hintButton.removeAttribute("aria-busy");
  }

  function showGameOver(view) {
    const wasHidden = overPanel.hidden;
    const field = (name) => overPanel.querySelector(`[data-over="${name}"]`);
    const { streakPoints, peakBonus, clearingBonus } = scoreBreakdown(view.breakdown);
    const details = breakdownDetails(view);
    overPanel.dataset.status = view.status;
    field("title").textContent = OVER_TITLES[view.status];
    field("summary").textContent = endSummary(view);
    field("streak-points").textContent = String(streakPoints);
    field("peak-detail").textContent = details.peaks;
    field("peak-bonus").textContent = String(peakBonus);
    field("clearing-detail").textContent = details.clearing;
    field("clearing-bonus").textContent = String(clearingBonus);
    field("score").textContent = String(view.score);
    const duration = Date.parse(view.finished_at) - Date.parse(view.started_at);
    field("time").textContent = formatDuration(duration);
    overPanel.hidden = false;
    if (wasHidden) {
      field("title").focus();
      analysisView.pending();
      analysisTimer = window.setTimeout(analysisLate, ANALYSIS_WAIT);
      if (!socket.isOpen) analysisLoader.poll(); // else it comes over the socket
    }
  }

  /**
   * Once the game is over, the analysis is pushed over the socket when the worker has it. While
   * the socket is down, ask the server for it instead; when the socket comes back, ask once, in
   * case it was pushed meanwhile. (Called on every change of the connection.)
   */
  function awaitAnalysis() {
    if (state.view === null || !isOver(state.view) || analysisView.ready) return;
    if (socket.isOpen) {
      analysisLoader.stop();
      analysisLoader.fetchOnce();
    } else {
      analysisLoader.poll();
    }
  }

  function showAnalysis(analysis) {
    window.clearTimeout(analysisTimer);
    analysisView.show(analysis);
    announcer.say(analysisSentence(analysis));
  }

  /** No analysis a minute after the end: ask a last time, then say where it will be. */
  async function analysisLate() {
    if (analysisView.ready || (await analysisLoader.fetchOnce())) return;
    analysisView.unavailable(
      "The analysis is taking longer than usual. It will be on this game's replay page.",
    );
  }

  abandonButton.addEventListener("click", () => abandonDialog.showModal());
  abandonDialog.addEventListener("close", () => {
    if (abandonDialog.returnValue !== "confirm") return;
    abandonWanted = true;
    flush();
  });

  hintButton.addEventListener("click", askHint);
  hintDialog.addEventListener("close", () => {
    if (hintDialog.returnValue !== "confirm") return;
    hintAgreed = true;
    askHint();
  });

  drawDialog.addEventListener("close", () => {
    if (drawDialog.returnValue === "confirm") draw({ confirmed: true });
  });

  bindInput(board, { onPlay: play, onDraw: () => draw(), onHint: askHint });
  socket.start();
}
