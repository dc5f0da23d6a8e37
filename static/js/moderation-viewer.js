// The staff replay viewer: step through any game (in play, a daily before its day is over, a
// race) with every card shown: face-down cards in the board's "revealed" style, and the stock in
// the order it will come. The frames come from the server (moderation/selectors.py staff_game)
// in a json_script element; this page is for moderators only.

import { Announcer } from "./announce.js";
import { Board, boardFromFrame } from "./board.js";
import { FrameStepper, moveSentence, moveText, stockCard } from "./frames.js";
import { format, gettext } from "./i18n.js";

/** The time a move was recorded, to the millisecond: fast play shows in these. */
function clockTime(iso) {
  return iso ? new Date(iso).toISOString().slice(11, 23) : "";
}

/** A game's status in words (the code, spaced, for one this page does not know). */
function statusText(status) {
  const words = {
    in_progress: gettext("in progress"),
    won: gettext("won"),
    lost: gettext("lost"),
    abandoned: gettext("abandoned"),
  };
  return words[status] ?? status.replace("_", " ");
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
          ? gettext("The deal, before the first move")
          : format(gettext("Move %(move)s of %(moves)s: %(what)s"), {
              move: index,
              moves: last,
              what: moveSentence(frame),
            });
      const figures = format(
        gettext("score %(score)s, streak %(streak)s, %(stock)s in the stock"),
        { score: frame.score, streak: frame.streak, stock: frame.stock.length },
      );
      const end = index === last ? `; ${statusText(frame.status)}` : "";
      announcer.say(`${where}. ${figures}${end}.`);
    },
  });
  stepper.show(0);
}

startViewer(
  document.querySelector("[data-mod-viewer]"),
  JSON.parse(document.getElementById("mod-frames").textContent),
);
