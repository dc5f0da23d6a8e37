// A won game's celebration: cards rain over the table for a couple of seconds. Only where motion
// is welcome (the system's prefers-reduced-motion and the board's animation setting, through
// motionAllowed): otherwise the panel's "You won!" is the whole of it. Decorative, so hidden from
// screen readers, and it never catches a click.

import { motionAllowed } from "./settings.js";

const PIECES = 28;
const SYMBOLS = ["♠", "♥", "♦", "♣"];
const LIFETIME_MS = 3200;

/** Rain card suits over `stage` (the felt); say whether it did. */
export function celebrate(stage) {
  if (!stage || !motionAllowed() || document.hidden) return false;
  stage.querySelector(".celebration")?.remove();
  const layer = document.createElement("div");
  layer.className = "celebration";
  layer.setAttribute("aria-hidden", "true");
  for (let index = 0; index < PIECES; index += 1) {
    const piece = document.createElement("span");
    piece.className = "celebration__piece";
    piece.textContent = SYMBOLS[index % SYMBOLS.length];
    piece.style.setProperty("--x", `${(index * 37) % 100}%`);
    piece.style.setProperty("--delay", `${(index * 71) % 900}ms`);
    piece.style.setProperty("--drift", `${((index * 53) % 9) - 4}rem`);
    piece.style.setProperty("--turn", `${((index * 97) % 720) - 360}deg`);
    layer.append(piece);
  }
  stage.append(layer);
  window.setTimeout(() => layer.remove(), LIFETIME_MS);
  return true;
}
