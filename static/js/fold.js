// The game-over panel folds away to one button, so that the player can look at the final table
// behind it, and unfolds again. The button is a disclosure (aria-expanded) of the panel's body.

import { gettext } from "./i18n.js";

const FOLDED_CLASS = "is-folded";

/** Fold `panel` (true) or unfold it (false). */
export function setFolded(panel, folded) {
  const button = panel.querySelector("[data-over-fold]");
  const body = panel.querySelector(".game-over__body");
  if (!button || !body) return;
  panel.classList.toggle(FOLDED_CLASS, folded);
  body.hidden = folded;
  button.setAttribute("aria-expanded", String(!folded));
  button.querySelector("[data-over-fold-text]").textContent = folded
    ? gettext("Show the result")
    : gettext("See the table");
}

/** Make the panel's fold button work (once: calling again changes nothing). */
export function bindFold(panel) {
  const button = panel.querySelector("[data-over-fold]");
  if (!button || button.dataset.bound) return;
  button.dataset.bound = "true";
  button.addEventListener("click", () => {
    const folded = !panel.classList.contains(FOLDED_CLASS);
    setFolded(panel, folded);
    // The whole table is on screen from the top of the page (the play area fits the window), but
    // the page may have been scrolled down to the panel or to the analysis under the table.
    if (folded) window.scrollTo(0, 0);
    button.focus({ preventScroll: true });
  });
}
