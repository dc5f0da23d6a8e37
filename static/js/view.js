// The page's copy of a game's VIEW, kept up to date by protocol v2's frames (docs/protocol.md):
// a whole VIEW replaces it; a `moved` frame (one move's change) brings it forward by one move.
// The engine's `change_applied` does the same on the server; tests/game/test_view_js.py checks
// that the two agree on every move of random games.

const CHANGED_FIELDS = [
  "seq",
  "status",
  "score",
  "streak",
  "waste",
  "stock_count",
  "cards_left",
  "peaks_cleared",
  "playable",
  "breakdown",
  "finished_at",
];

/**
 * `view` brought forward by `moved`, or null when `moved` does not follow on from it (a frame
 * missed: the caller asks for the whole state with `sync`).
 */
export function applyMoved(view, moved) {
  if (view === null || moved.game !== view.id || moved.seq !== view.seq + 1) return null;
  const tableau = view.tableau.slice();
  if (moved.position !== null) tableau[moved.position] = null;
  for (const [position, card] of moved.turned) tableau[position] = card;
  const next = { ...view, tableau };
  for (const field of CHANGED_FIELDS) next[field] = moved[field];
  return next;
}

/**
 * Whether `moved` shows that frames of `view`'s game were missed (it is further on than the one
 * that would follow): the page asks for the whole state with `sync`. (An older frame is no news.)
 */
export function missedBefore(view, moved) {
  return view !== null && moved.game === view.id && moved.seq > view.seq + 1;
}
