// The game as the server last described it: the VIEW with the highest seq seen so far (whole, or
// brought forward by a move's change).

export function isOver(view) {
  return view.status !== "in_progress";
}

export class GameState {
  constructor() {
    this.view = null;
  }

  /** Forget the game held: the page moves to another. */
  reset() {
    this.view = null;
  }

  /**
   * Keep `view` if it is newer than the one held, and say whether it was kept. Snapshots can
   * arrive out of order across reconnects; seq only grows, and giving a game up ends it without
   * a move, and a hint marks it assisted without one, so at an equal seq only the end of the
   * game or the assisted mark is news (neither is ever taken back).
   */
  offer(view) {
    const held = this.view;
    const newer =
      held === null ||
      view.seq > held.seq ||
      (view.seq === held.seq && isOver(view) && !isOver(held)) ||
      (view.seq === held.seq &&
        isOver(view) === isOver(held) &&
        view.assisted === true &&
        !held.assisted);
    if (newer) this.view = view;
    return newer;
  }
}
