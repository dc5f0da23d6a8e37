// The player's moves on their way to the server, which is the referee, and what the page shows of
// them meanwhile.
//
// A play the page can judge (rules.js: a face-up card that fits the waste shown) shows at once: the
// card goes to the waste before the server hears of it, and the server's answer confirms it and
// names the cards it turned over. A click the rules forbid never leaves the page: `explain` says
// why, next to the card. A draw waits for the answer to show its card (the stock's order is
// hidden), but is taken at once: the stock shows pressed, and the moves made after it wait their
// turn, to be judged when the drawn card is known.
//
// One move is in flight at a time; moves made meanwhile wait their turn (each still shown, as far
// as the page can tell) and are dropped if the VIEW they meet no longer allows them. A move sent
// but never answered (the connection dropped) is sent again, with the same seq, once a fresh VIEW
// shows it was not recorded: the server answers a repeat of a recorded move with the state alone,
// so a move is never made twice. A refusal takes back the move and whatever waited behind it.
// Giving up waits for the move in flight too.

import { predictPlay, whyNot } from "./rules.js";
import { isOver } from "./state.js";

const ANSWER_TIMEOUT = 5000; // ms to wait for the answer to a move before checking the connection
const MAX_WAITING = 6; // moves made ahead of the answers: more clicks than that are not taken

export class MoveQueue {
  #pending = null; // the move in flight: {seq, move, position, draw, sent}
  #queued = []; // moves made while one is in flight: {position, judged} or {draw, confirmed}
  #abandonWanted = false;
  #answerTimer = 0;

  /**
   * `socket` is the game's GameSocket, `state` its GameState, `board` its Board. Before a draw,
   * `askBeforeDraw(view)` may ask the player first: it says whether it did (the draw then waits
   * for `draw({ confirmed: true })`). The page is told what to show: `redraw()` when the moves
   * shown changed (a refusal took some back), `played(position, before, after)` when a play
   * shows (VIEWs as shown before and after it), `drew()` when a draw is taken, and
   * `explain(position, text)` when a card cannot be played.
   */
  constructor({
    socket,
    state,
    board,
    askBeforeDraw,
    redraw = () => {},
    played = () => {},
    drew = () => {},
    explain = () => {},
  }) {
    this.socket = socket;
    this.state = state;
    this.board = board;
    this.askBeforeDraw = askBeforeDraw;
    this.redraw = redraw;
    this.played = played;
    this.drew = drew;
    this.explain = explain;
  }

  /** Where the move in flight was played: a position, "stock", or undefined when none is. */
  get target() {
    if (!this.#pending) return undefined;
    return this.#pending.draw ? "stock" : this.#pending.position;
  }

  /**
   * `view` (the server's) with the moves made and not yet recorded in it, as far as the page can
   * tell: plays up to the first draw, whose card only the answer brings.
   */
  shown(view) {
    if (view === null || isOver(view)) return view;
    let shown = view;
    const waiting = [...this.#queued];
    const pending = this.#pending;
    if (pending && pending.seq === view.seq) waiting.unshift(pending); // not recorded yet
    for (const move of waiting) {
      if (move.draw || whyNot(shown, move.position) !== null) break;
      shown = predictPlay(shown, move.position);
    }
    return shown;
  }

  /** Mark what waits for an answer whose result the board cannot show yet: a draw, the stock. */
  markWaiting() {
    const unknown = [this.#pending, ...this.#queued].filter(Boolean);
    if (unknown.some((move) => move.draw)) this.board.markPending("stock");
    for (const move of unknown) {
      if (!move.draw && move.judged === false) this.board.markPending(move.position);
    }
  }

  /** Whatever was sent may have been lost (with the connection, say): send it again when it can. */
  resendLater() {
    if (this.#pending) this.#pending.sent = false;
  }

  /** The server refused the move in flight: take it back, and the moves that waited behind it. */
  refused() {
    const shownBefore = this.#pending !== null || this.#queued.length > 0;
    this.#settle();
    this.#queued = [];
    if (shownBefore) this.redraw();
  }

  /** The page moves to another game: forget every move made on the last one. */
  reset() {
    this.#settle();
    this.#queued = [];
    this.#abandonWanted = false;
  }

  /** Give the game up, once the move in flight is answered. */
  abandon() {
    this.#abandonWanted = true;
    const dropped = this.#queued.length > 0; // moves made after giving up count for nothing
    this.#queued = [];
    if (dropped) this.redraw();
    this.flush();
  }

  /** Send what waits to be sent, now that a VIEW has come in or a move was made. */
  flush() {
    const view = this.state.view;
    if (view === null) return;
    const pending = this.#pending;
    if (pending) {
      if (view.seq > pending.seq || isOver(view)) {
        this.#settle(); // recorded (or overtaken by a move made elsewhere)
      } else if (!pending.sent && this.socket.isOpen) {
        pending.sent = this.socket.send({ type: "move", seq: pending.seq, move: pending.move });
        window.clearTimeout(this.#answerTimer);
        this.#answerTimer = window.setTimeout(() => {
          // No answer yet: check the connection, and send the move again with the same seq once
          // the state comes (the server answers a repeat of a recorded move with the state alone).
          this.resendLater();
          this.socket.probe();
        }, ANSWER_TIMEOUT);
      }
    }
    if (this.#abandonWanted && !isOver(view) && this.socket.isOpen && !this.#pending) {
      this.#abandonWanted = !this.socket.send({ type: "abandon" });
    }
    if (isOver(view)) this.#queued = [];
    while (!this.#pending && this.#queued.length > 0) {
      const next = this.#queued.shift();
      if (next.draw) {
        this.draw({ confirmed: next.confirmed, taken: true });
        if (!this.#pending) this.#queued = []; // asked first: the rest waits on the answer
      } else {
        const reason = whyNot(view, next.position);
        if (reason !== null) {
          // The card drawn meanwhile (or a move made elsewhere) changed what fits.
          this.#queued = [];
          this.redraw();
          this.explain(next.position, reason);
        } else {
          this.#make(view.tableau[next.position], next.position, { shownAlready: next.judged });
        }
      }
    }
    this.markWaiting();
  }

  /**
   * Play the card at `position`: shown at once if the page can judge it (else it waits for the
   * card being drawn), refused in words if it cannot be played.
   */
  play(position) {
    const view = this.state.view;
    if (view === null || isOver(view) || this.#abandonWanted) return;
    const waiting = [this.#pending, ...this.#queued].filter(Boolean);
    if (waiting.some((move) => move.draw)) {
      // The waste depends on a card not drawn yet: judge the play once it is known.
      if (waiting.length <= MAX_WAITING) this.#queued.push({ position, judged: false });
      this.board.markPending(position);
      return;
    }
    const before = this.shown(view);
    const reason = whyNot(before, position);
    if (reason !== null) {
      this.explain(position, reason);
      return;
    }
    if (this.#pending) {
      if (waiting.length > MAX_WAITING) return;
      this.#queued.push({ position, judged: true });
      this.played(position, before, this.shown(view));
      return;
    }
    this.#make(view.tableau[position], position);
  }

  /**
   * Draw from the stock; unless `confirmed`, first let `askBeforeDraw` ask. (Asked once the move
   * in flight is answered, so about the board the draw meets.) `taken` says the player was already
   * shown the draw taken (it waited its turn).
   */
  draw({ confirmed = false, taken = false } = {}) {
    const view = this.state.view;
    if (view === null || isOver(view) || this.#abandonWanted) return;
    const waiting = [this.#pending, ...this.#queued].filter(Boolean);
    const drawsAhead = waiting.filter((move) => move.draw).length;
    if (view.stock_count - drawsAhead <= 0) return;
    if (this.#pending) {
      if (waiting.length > MAX_WAITING) return;
      this.#queued.push({ draw: true, confirmed });
      this.board.markPending("stock");
      this.drew();
      return;
    }
    if (!confirmed && this.askBeforeDraw(this.shown(view))) return;
    this.#pending = { seq: view.seq, move: "draw", draw: true, sent: false };
    this.board.markPending("stock");
    if (!taken) this.drew();
    this.flush();
  }

  /** Send the play of `code` at `position` (it fits the VIEW held) and show it. */
  #make(code, position, { shownAlready = false } = {}) {
    const view = this.state.view;
    const before = this.shown(view);
    this.#pending = { seq: view.seq, move: code, position, draw: false, sent: false };
    if (!shownAlready) this.played(position, before, this.shown(view));
    this.flush();
  }

  #settle() {
    this.#pending = null;
    this.board.clearPending();
    window.clearTimeout(this.#answerTimer);
  }
}
