// The race room page's one entry point: the room ([data-race]) and, while the visitor races,
// their own board ([data-game], the game page's board). When a new round starts with the visitor
// in it, their board moves to its game over the same socket; a page with no board yet reloads to
// bring one.
import { startGame } from "./game.js";
import { startRaceRoom } from "./race-room.js";

const board = document.querySelector("[data-game]");
const game = board ? startGame(board) : null;
startRaceRoom(document.querySelector("[data-race]"), {
  onYourGame: (id) => (game ? game.open(id) : window.location.reload()),
});
