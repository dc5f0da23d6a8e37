// The staff replay viewer: step through any game (in play, a daily before its day is over, a
// race) with every card shown: face-down cards in the board's "revealed" style, and the stock in
// the order it will come. The frames come from the server (moderation/selectors.py staff_game)
// in a json_script element; this page is for moderators only.

import { Announcer } from "./announce.js";
import { Board, boardFromFrame } from "./board.js";
import { FrameStepper, moveSentence, moveText, stockCard } from "./frames.js";

/** The time a move was recorded, to the millisecond: fast play shows in these. */
function clockTime(iso) {
  return iso ? new Date(iso).toISOString().slice(11, 23) : "";
}

function startViewer(root, frames) {
  const board = new Board(root.querySelector("[data-board]"), { interactive: false });
  const announcer = new Announcer(root.querySelector("[data-position]"));
  const stockList = root.querySelector("[data-stock-list]");
  const last = frames.length - 1;

  const stepper = new FrameStepper(root, frames, {
    moveList: root.querySelector("[data-move-list]"),
    moveClass: "mod-move-list__move",
    moveLabel: (frame) => `${moveText(frame)} ${clockTime(frame.played_at)}`,
    render(frame, index, { animate }) {
      board.render(boardFromFrame(frame), { animate });
      stockList.replaceChildren(...frame.stock.map(stockCard));
      const where =
        index === 0
          ? "The deal, before the first move"
          : `Move ${index} of ${last}: ${moveSentence(frame)}`;
      const figures = `score ${frame.score}, streak ${frame.streak}, ${frame.stock.length} in the stock`;
      const end = index === last ? `; ${frame.status.replace("_", " ")}` : "";
      announcer.say(`${where}. ${figures}${end}.`);
    },
  });
  stepper.show(0);
}

startViewer(
  document.querySelector("[data-mod-viewer]"),
  JSON.parse(document.getElementById("mod-frames").textContent),
);
