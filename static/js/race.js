// The race room page's one entry point: the room ([data-race]) and, while the visitor races,
// their own board ([data-game], the game page's board).
import { startGame } from "./game.js";
import { startRaceRoom } from "./race-room.js";

const board = document.querySelector("[data-game]");
if (board) startGame(board);
startRaceRoom(document.querySelector("[data-race]"));
