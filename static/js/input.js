// Playing with a pointer or the keyboard: one delegated handler for the whole board.
// Click or tap a card to play it (one that cannot be played, face down included, is answered in
// words by the move queue), the stock to draw. Arrow keys move focus among the face-up
// cards (Down from the bottom row reaches the stock), Enter or Space plays, D draws, and H asks for
// a hint where the page offers one.

import { columnOf, rowOf } from "./board.js";

const NAVIGATION_KEYS = ["ArrowLeft", "ArrowRight", "ArrowUp", "ArrowDown", "Home", "End"];

/** Whether a key pressed on `target` is text being typed (a D there is not a draw). */
export function isTyping(target) {
  return (
    target instanceof HTMLElement &&
    (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))
  );
}

/** The face-up card to go to from `position` with `key`, or null (or "stock") at an edge. */
function neighbour(board, position, key) {
  const candidates = board.focusablePositions().filter((p) => p !== position);
  if (candidates.length === 0) return null;
  const x = columnOf(position);
  const y = rowOf(position);
  const byReadingOrder = (a, b) => columnOf(a) - columnOf(b) || rowOf(a) - rowOf(b);
  if (key === "ArrowLeft" || key === "ArrowRight") {
    const ordered = [...candidates, position].sort(byReadingOrder);
    const index = ordered.indexOf(position) + (key === "ArrowRight" ? 1 : -1);
    return ordered[(index + ordered.length) % ordered.length];
  }
  const above = key === "ArrowUp";
  const inDirection = candidates.filter((p) => (above ? rowOf(p) < y : rowOf(p) > y));
  if (inDirection.length === 0) return above ? null : "stock";
  const cost = (p) => Math.abs(columnOf(p) - x) * 2 + Math.abs(rowOf(p) - y);
  return inDirection.sort((a, b) => cost(a) - cost(b))[0];
}

/** Whether a letter key pressed now is a shortcut: no modifier, not typed text, no dialog open. */
function isShortcut(event) {
  return !(
    event.altKey ||
    event.ctrlKey ||
    event.metaKey ||
    event.repeat ||
    isTyping(event.target) ||
    document.querySelector("dialog[open]")
  );
}

/**
 * Wire `board` (a Board) to `onPlay(position)`, `onDraw()` and, if given, `onHint()`. Keys work
 * while focus is on the board; D draws (and H asks for a hint) from anywhere on the page except a
 * text field or an open dialog.
 */
export function bindInput(board, { onPlay, onDraw, onHint = null }) {
  board.root.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const card = target?.closest("button.card[data-pos]");
    if (card && !card.disabled) {
      onPlay(Number(card.dataset.pos));
      return;
    }
    const stock = target?.closest("button[data-stock]");
    if (stock && !stock.disabled) onDraw();
  });

  board.root.addEventListener("keydown", (event) => {
    if (!NAVIGATION_KEYS.includes(event.key)) return;
    if (event.altKey || event.ctrlKey || event.metaKey) return;
    const focused = document.activeElement;
    const positions = board.focusablePositions();
    if (positions.length === 0) return;
    event.preventDefault();
    if (focused === board.stock) {
      if (event.key === "ArrowUp") board.focusNearest(22);
      return;
    }
    if (event.key === "Home" || event.key === "End") {
      const ordered = positions.sort((a, b) => columnOf(a) - columnOf(b) || rowOf(a) - rowOf(b));
      board.focusCard(event.key === "Home" ? ordered[0] : ordered[ordered.length - 1]);
      return;
    }
    const here = focused?.dataset?.pos;
    if (here === undefined) {
      board.focusNearest(22);
      return;
    }
    const next = neighbour(board, Number(here), event.key);
    if (next === "stock") {
      if (!board.stock.disabled) board.stock.focus();
    } else if (next !== null) {
      board.focusCard(next);
    }
  });

  document.addEventListener("keydown", (event) => {
    const key = event.key.toLowerCase();
    if ((key !== "d" && key !== "h") || !isShortcut(event)) return;
    if (key === "d") {
      if (board.stock.disabled) return;
      event.preventDefault();
      onDraw();
    } else if (onHint) {
      event.preventDefault();
      onHint();
    }
  });
}
