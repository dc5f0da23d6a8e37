// The game page's one entry point: everything it needs is in the data-* attributes of [data-game].
import { startGame } from "./game.js";

startGame(document.querySelector("[data-game]"));
