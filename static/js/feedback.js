// Feedback drawn over the board, beside what it is about: a card's tip (why a card cannot be
// played, in words, next to it, and read out by screen readers through its live region) and the
// floating "+N" of the points a play earned, over the waste. Both live inside the board's root,
// placed from the cards' boxes; neither moves anything else on the page.

import { motionAllowed } from "./settings.js";

const TIP_MS = 4000; // how long a tip stays, unless the next move clears it sooner
const FLOAT_MS = 1100;

/** Where `anchor` sits inside `container`, in px from its top left corner. */
function boxWithin(anchor, container) {
  const outer = container.getBoundingClientRect();
  const inner = anchor.getBoundingClientRect();
  return {
    left: inner.left - outer.left,
    top: inner.top - outer.top,
    width: inner.width,
    height: inner.height,
    outerWidth: outer.width,
  };
}

export class CardTip {
  #timer = 0;

  /** Build the tip inside `container` (the board's root, which positions it). */
  constructor(container) {
    this.container = container;
    this.node = document.createElement("p");
    this.node.className = "card-tip";
    this.node.dataset.cardTip = "";
    this.node.setAttribute("role", "status"); // a polite live region: read out when it changes
    this.node.hidden = true;
    container.append(this.node);
  }

  /** Say `text` next to `anchor` (a card), for a few seconds. */
  show(anchor, text) {
    window.clearTimeout(this.#timer);
    this.node.hidden = false;
    this.node.textContent = text;
    const box = boxWithin(anchor, this.container);
    const width = this.node.offsetWidth;
    const centre = box.left + box.width / 2;
    const left = Math.min(Math.max(centre - width / 2, 0), Math.max(box.outerWidth - width, 0));
    // Above the card when there is room, else below it.
    const above = box.top - this.node.offsetHeight - 6;
    this.node.classList.toggle("card-tip--below", above < 0);
    this.node.style.left = `${left}px`;
    this.node.style.top = `${above < 0 ? box.top + box.height + 6 : above}px`;
    this.node.style.setProperty("--arrow-x", `${centre - left}px`);
    this.#timer = window.setTimeout(() => this.hide(), TIP_MS);
  }

  /** Take the tip away (the next move was made, or its time is up). */
  hide() {
    window.clearTimeout(this.#timer);
    this.node.hidden = true;
    this.node.textContent = "";
  }
}

/**
 * Float "+N" up from `anchor` (the waste) inside `container` for the `points` a play earned: a
 * short rise and fade, or a plain fade where motion is not welcome. Decorative (the score is read
 * out with the move), so hidden from screen readers.
 */
export function floatPoints(container, anchor, points) {
  if (!(points > 0) || document.hidden) return;
  const box = boxWithin(anchor, container);
  const label = document.createElement("span");
  label.className = "points-float";
  label.classList.toggle("points-float--still", !motionAllowed());
  label.setAttribute("aria-hidden", "true");
  label.textContent = `+${points}`;
  label.style.left = `${box.left + box.width / 2}px`;
  label.style.top = `${box.top}px`;
  container.append(label);
  window.setTimeout(() => label.remove(), FLOAT_MS);
}
