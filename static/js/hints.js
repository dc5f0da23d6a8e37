// Hints, in a casual game: the player asks, the server answers with a good next move and why, and
// the board rings that card (or the stock) until the game moves on. The first hint of a game is
// asked for only after the player agrees that it marks the game assisted, for good.

import { gettext } from "./i18n.js";
import { isOver } from "./state.js";

const ANSWER_TIMEOUT = 5000; // ms after which a hint asked for and not answered may be asked again

export class Hints {
  #shown = null; // the hint shown: {seq, target}, a position or "stock", until the game moves on
  #asked = false; // a hint was asked for and its answer has not come yet
  #agreed = false; // the player was told that a hint marks the game assisted, and went on
  #timer = 0;

  /**
   * `button` asks for a hint and `dialog` asks whether to mark the game assisted; `socket` and
   * `state` are the game's; `say(text)` tells the player something.
   */
  constructor({ socket, state, button, dialog, say }) {
    this.socket = socket;
    this.state = state;
    this.button = button;
    this.dialog = dialog;
    this.say = say;
    button.addEventListener("click", () => this.ask());
    dialog.addEventListener("close", () => {
      if (dialog.returnValue !== "confirm") return;
      this.#agreed = true;
      this.ask();
    });
  }

  /** The page moves to another game: no hint shown or asked, and the first one asks again. */
  reset() {
    this.answered();
    this.#shown = null;
    this.#agreed = false;
  }

  /** The hint to ring on `view`'s board, if it still applies there: a position, "stock" or null. */
  targetFor(view) {
    if (this.#shown && (this.#shown.seq !== view.seq || isOver(view))) this.#shown = null;
    return this.#shown?.target ?? null;
  }

  /** Offer the button in a casual game in play only. */
  showButton(view) {
    this.button.hidden = view.mode !== "casual" || isOver(view);
  }

  /** Ask for a hint: the first time in a game, after saying that it marks the game assisted. */
  ask() {
    const view = this.state.view;
    if (view === null || isOver(view) || this.#asked) return;
    if (view.mode !== "casual") {
      this.say(gettext("Hints are for casual games only."));
      return;
    }
    if (!view.assisted && !this.#agreed) {
      if (!this.dialog.open) this.dialog.showModal();
      return;
    }
    if (!this.socket.isOpen) {
      this.say(gettext("Not connected: the hint will have to wait for the connection."));
      return;
    }
    this.#asked = this.socket.send({ type: "hint" });
    if (!this.#asked) return;
    this.button.setAttribute("aria-busy", "true");
    // No answer in time: let the player ask again (the connection check is the socket's business).
    this.#timer = window.setTimeout(() => this.answered(), ANSWER_TIMEOUT);
  }

  /** Whatever was asked will not be answered, or has been: the player may ask again. */
  answered() {
    this.#asked = false;
    window.clearTimeout(this.#timer);
    this.button.removeAttribute("aria-busy");
  }

  /**
   * The server's answer: the move suggested (`move`, and `position` for a play) after `game`, and
   * `reason`. `showView(game)` shows `game` and says whether it was new; `ring(view, target)`
   * draws the ring on a board that was not redrawn.
   */
  receive({ move, position, reason, game }, { showView, ring }) {
    this.answered();
    this.#shown =
      move === null ? null : { seq: game.seq, target: move === "draw" ? "stock" : position };
    const shown = showView(game);
    const view = this.state.view;
    if (view.seq !== game.seq || isOver(view)) {
      this.#shown = null; // the game moved on while the hint was on its way: it no longer applies
      return;
    }
    if (!shown && this.#shown) ring(view, this.#shown.target);
    this.say(reason);
  }
}
