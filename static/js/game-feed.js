// Which game the page's player socket (/ws/play/, protocol v2) shows, and the VIEWs its frames
// bring. The socket opens no game by itself: on every connection the page opens its game again,
// and the answer is the whole state, from which any move lost with the connection is resent.
// The same socket moves on to another game: one the page names (a race's next round), or one the
// server deals ("New game", "Play this deal again"), whose id the page learns from the answer.
// A frame of any other game (one left behind, still on its way) is no news.

import { applyMoved, missedBefore } from "./view.js";

/** The page's address for game `id`, and its analysis and "play again" addresses. */
export function gamePaths(id) {
  const page = `/games/${encodeURIComponent(id)}/`;
  return { page, analysis: `${page}analysis.json`, again: `${page}again` };
}

export class GameFeed {
  #gameId;
  #dealing = false; // a new game was asked for, and its state has not come yet

  /** `socket` is the page's GameSocket; `gameId` the game it opens first. */
  constructor(socket, gameId) {
    this.socket = socket;
    this.#gameId = gameId;
  }

  get gameId() {
    return this.#gameId;
  }

  /** Whether a new game was asked for and not dealt yet (its state is awaited). */
  get dealing() {
    return this.#dealing;
  }

  /**
   * Open the page's game again: on every new connection (a deal asked for on the last one is
   * lost with it), and to try again after the server could not answer.
   */
  reopen() {
    this.#dealing = false;
    this.socket.send({ type: "open", game: this.#gameId });
  }

  /** Move to game `id`, which the page knows (a race's next round); say whether it was asked. */
  open(id) {
    this.#gameId = id;
    this.#dealing = false;
    return this.socket.send({ type: "open", game: id });
  }

  /**
   * Ask the server to deal a game (`new` or `again`) and open it; say whether it is asked (once:
   * a second ask while the first is awaited would deal a game nobody plays).
   */
  deal(message) {
    if (!this.#dealing) this.#dealing = this.socket.send(message);
    return this.#dealing;
  }

  /** The deal asked for was refused (or the connection went): nothing is awaited any more. */
  dealRefused() {
    this.#dealing = false;
  }

  /**
   * A whole VIEW from the server: "same" when it is of the page's game, "other" when it is the
   * game just dealt (the page's game from now on), null when it is of neither (no news).
   */
  follow(view) {
    if (view.id === this.#gameId) return "same";
    if (!this.#dealing) return null;
    this.#gameId = view.id;
    this.#dealing = false;
    return "other";
  }

  /** Whether a frame naming game `id` (a hint's VIEW, an analysis) is of the page's game. */
  owns(id) {
    return id === this.#gameId;
  }

  /**
   * The VIEW after a `moved` frame, applied to `view` (the one shown); null when the frame is no
   * news, or does not follow on from `view`: then the whole state is asked for.
   */
  moved(view, moved) {
    if (moved.game !== this.#gameId) return null;
    const next = applyMoved(view, moved);
    if (next === null && missedBefore(view, moved)) this.socket.send({ type: "sync" });
    return next;
  }
}
