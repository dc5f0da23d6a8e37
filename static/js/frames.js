// Stepping through the frames of a stored game: the replay page (static/js/replay.js) and the
// staff viewer (static/js/moderation-viewer.js). Both get their frames from the server; this
// module holds what they share: the words for a move, the stock's cards, the step buttons, the
// list of moves, and the keys ←, →, Home and End. How a frame is drawn is each page's own.

import { cardName, cardShort, theCard } from "./cards.js";
import { format, gettext } from "./i18n.js";
import { isTyping } from "./input.js";

const STEP_KEYS = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };

/** A move in words for the list: "8♦", or "draw (K♠)" with the card the draw turned up. */
export function moveText(frame) {
  return frame.move === "draw"
    ? format(gettext("draw (%(card)s)"), { card: cardShort(frame.waste) })
    : cardShort(frame.move);
}

/** A move in a sentence: "played the eight of diamonds", "drew the king of spades". */
export function moveSentence(frame) {
  return frame.move === "draw"
    ? format(gettext("drew %(card)s"), { card: theCard(frame.waste) })
    : format(gettext("played %(card)s"), { card: theCard(frame.move) });
}

/** One card of a stock list: its short name shown, its full name read out. */
export function stockCard(code) {
  const item = document.createElement("li");
  item.className = "stock-list__card";
  item.dataset.suit = code[1];
  item.textContent = cardShort(code);
  item.setAttribute("aria-label", cardName(code));
  return item;
}

/**
 * The position in a game's frames (0: the deal; frame n: after move n), moved by the [data-step]
 * buttons under `root` (first, back, forward, last), by the moves listed in `moveList` and by the
 * keyboard. `render(frame, index, { animate })` draws a frame; `moveLabel(frame)` is the text of
 * its move in the list, whose buttons get the class `moveClass`.
 */
export class FrameStepper {
  constructor(root, frames, { moveList, moveClass, moveLabel, render, keepMoveInView = false }) {
    this.frames = frames;
    this.last = frames.length - 1;
    this.index = 0;
    this.render = render;
    this.moveList = moveList;
    this.keepMoveInView = keepMoveInView;
    this.buttons = Object.fromEntries(
      [...root.querySelectorAll("[data-step]")].map((button) => [button.dataset.step, button]),
    );
    this.moveButtons = frames.slice(1).map((frame, i) => {
      const item = document.createElement("li");
      const button = document.createElement("button");
      button.type = "button";
      button.className = moveClass;
      button.dataset.frame = String(i + 1);
      button.textContent = moveLabel(frame);
      item.append(button);
      moveList.append(item);
      return button;
    });
    root.addEventListener("click", (event) => {
      const target = event.target instanceof Element ? event.target : null;
      const step = target?.closest("[data-step]");
      if (step) this.go(step.dataset.step);
      const move = target?.closest("[data-frame]");
      if (move) this.show(Number(move.dataset.frame));
    });
    document.addEventListener("keydown", (event) => {
      if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
      const step = STEP_KEYS[event.key];
      if (!step) return;
      event.preventDefault();
      this.go(step);
    });
  }

  /** Show frame `next` (kept within the game), animating a single step forward. */
  show(next) {
    const animate = next === this.index + 1;
    this.index = Math.max(0, Math.min(this.last, next));
    this.render(this.frames[this.index], this.index, { animate });
    const { first, back, forward, last } = this.buttons;
    first.disabled = back.disabled = this.index === 0;
    forward.disabled = last.disabled = this.index === this.last;
    this.moveButtons.forEach((button, i) => {
      if (i + 1 === this.index) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    });
    if (this.keepMoveInView) this.#scrollMoveList(this.moveButtons[this.index - 1]);
  }

  /** One of the step buttons' moves: "first", "back", "forward" or "last". */
  go(step) {
    const targets = { first: 0, back: this.index - 1, forward: this.index + 1, last: this.last };
    this.show(targets[step]);
    // Keep focus on a usable control when the one pressed becomes disabled at either end.
    if (document.activeElement?.disabled) {
      (this.index === 0 ? this.buttons.forward : this.buttons.back).focus();
    }
  }

  /** Bring the current move into view inside the list, without scrolling the page (the list
   * must be its buttons' offset parent). */
  #scrollMoveList(button) {
    const list = this.moveList;
    if (!button) {
      list.scrollTop = 0;
      return;
    }
    const top = button.offsetTop;
    if (top < list.scrollTop) list.scrollTop = top;
    else if (top + button.offsetHeight > list.scrollTop + list.clientHeight) {
      list.scrollTop = top + button.offsetHeight - list.clientHeight;
    }
  }
}
