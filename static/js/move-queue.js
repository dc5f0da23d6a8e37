// The player's moves on their way to the server, which is the referee.
//
// One move is in flight at a time; a move made meanwhile waits its turn and is dropped if the next
// VIEW no longer allows it. A move sent but never answered (the connection dropped) is sent
// again, with the same seq, once a fresh VIEW shows it was not recorded: the server answers a
// repeat of a recorded move with the state alone, so a move is never made twice. Giving up waits
// for the move in flight too.

import { isOver } from "./state.js";

const ANSWER_TIMEOUT = 5000; // ms to wait for the answer to a move before checking the connection

export class MoveQueue {
  #pending = null; // the move in flight: {seq, move, target, sent}
  #queued = null; // a move made while one is in flight: {position} or {draw: true, confirmed}
  #abandonWanted = false;
  #answerTimer = 0;

  /**
   * `socket` is the game's GameSocket, `state` its GameState, `board` its Board. Before a draw,
   * `askBeforeDraw(view)` may ask the player first: it says whether it did (the draw then waits
   * for `draw({ confirmed: true })`).
   */
  constructor({ socket, state, board, askBeforeDraw }) {
    this.socket = socket;
    this.state = state;
    this.board = board;
    this.askBeforeDraw = askBeforeDraw;
  }

  /** Where the move in flight was played: a position, "stock", or undefined when none is. */
  get target() {
    return this.#pending?.target;
  }

  /** Whatever was sent may have been lost (with the connection, say): send it again when it can. */
  resendLater() {
    if (this.#pending) this.#pending.sent = false;
  }

  /** The server refused the move in flight: forget it, and the move that waited behind it. */
  refused() {
    this.#settle();
    this.#queued = null;
  }

  /** The page moves to another game: forget every move made on the last one. */
  reset() {
    this.#settle();
    this.#queued = null;
    this.#abandonWanted = false;
  }

  /** Give the game up, once the move in flight is answered. */
  abandon() {
    this.#abandonWanted = true;
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
    if (!this.#pending && this.#queued && !isOver(view)) {
      const next = this.#queued;
      this.#queued = null;
      if (next.draw) this.draw({ confirmed: next.confirmed });
      else if (view.playable.includes(next.position)) this.play(next.position);
    }
  }

  /** Play the card at `position`, now or once the move in flight is answered. */
  play(position) {
    const view = this.state.view;
    if (view === null || isOver(view)) return;
    if (this.#pending) {
      this.#queued = { position };
      return;
    }
    const code = view.tableau[position];
    if (typeof code === "string" && code !== "down") this.#make(code, position);
  }

  /**
   * Draw from the stock; unless `confirmed`, first let `askBeforeDraw` ask. (Asked once the move
   * in flight is answered, so about the board the draw meets.)
   */
  draw({ confirmed = false } = {}) {
    const view = this.state.view;
    if (view === null || isOver(view)) return;
    if (this.#pending) {
      this.#queued = { draw: true, confirmed };
      return;
    }
    if (view.stock_count === 0) return;
    if (!confirmed && this.askBeforeDraw(view)) return;
    this.#make("draw", "stock");
  }

  #make(move, target) {
    this.#pending = { seq: this.state.view.seq, move, target, sent: false };
    this.board.markPending(target);
    this.flush();
  }

  #settle() {
    this.#pending = null;
    this.board.clearPending();
    window.clearTimeout(this.#answerTimer);
  }
}
