// Moving the game page to another game without reloading it: "New game" and "Play this deal
// again" go over the player's socket while it is open (else their forms post as they always
// did), and the parts of the page that name the game or depend on its mode follow the game shown.

import { gamePaths } from "./game-feed.js";

/**
 * Send the game-over panel's "New game" and "Play this deal again" over the socket: `deal(message)`
 * asks for the game and says whether it went (if not, the form posts, and the page reloads).
 */
export function bindDealForms(root, deal) {
  for (const form of root.querySelectorAll("[data-game-over] form[data-new-game]")) {
    form.addEventListener("submit", (event) => {
      const message = {
        type: "new",
        variant: form.elements.variant.value,
        winnable_only: form.elements.winnable_only.checked,
      };
      if (deal(message)) event.preventDefault();
    });
  }
  for (const form of root.querySelectorAll("[data-game-over] form[data-again]")) {
    form.addEventListener("submit", (event) => {
      if (deal({ type: "again" })) event.preventDefault();
    });
  }
}

/**
 * Fit the page's parts to the game of `view`: what is marked data-for-mode shows for that mode
 * only; the links to the game, the "play again" form and the variant of "New game" name it.
 */
export function fitToGame(root, view) {
  const paths = gamePaths(view.id);
  root.dataset.gameId = view.id;
  for (const part of root.querySelectorAll("[data-for-mode]")) {
    part.hidden = part.dataset.forMode !== view.mode;
  }
  for (const link of root.querySelectorAll("[data-game-link]")) link.href = paths.page;
  for (const form of root.querySelectorAll("form[data-again]")) form.action = paths.again;
  for (const form of root.querySelectorAll("form[data-new-game]")) {
    form.elements.variant.value = view.variant;
  }
}
