// The game page's one entry point: everything it needs is in the data-* attributes of [data-game].
// When the page moves on to another game over its socket, the address follows (a reload lands on
// the game shown); going back to an earlier game's address loads that game's own page.

import { startGame } from "./game.js";
import { gamePaths } from "./game-feed.js";

startGame(document.querySelector("[data-game]"), {
  onGameChanged: (id) => window.history.pushState({ game: id }, "", gamePaths(id).page),
});
window.addEventListener("popstate", () => window.location.reload());
