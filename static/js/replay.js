// The finished-game page: step through every position of the game, with every card shown.
// The frames come from the server (game/selectors.py replay_frames) in a json_script element; the
// final score's lines are in the page, and the analysis is fetched (it may still be computing).

import { AnalysisLoader, AnalysisView } from "./analysis.js";
import { Announcer } from "./announce.js";
import { Board, boardFromFrame } from "./board.js";
import { formatDuration } from "./clock.js";
import { FrameStepper, moveSentence, moveText, stockCard } from "./frames.js";
import { format, gettext, ngettext } from "./i18n.js";
import { breakdownDetails, renderHud } from "./score.js";
import { initSettings, motionAllowed } from "./settings.js";

/** How a game ended, in words, for the sentence on its last frame. */
function ending(status) {
  const words = {
    won: gettext("won"),
    lost: gettext("no more moves"),
    abandoned: gettext("given up"),
  };
  return words[status];
}

/** The VIEW-like numbers of a frame, for the score line above the board. */
function frameNumbers(frame) {
  const tops = frame.tableau.slice(0, 3);
  return {
    score: frame.score,
    streak: frame.streak,
    peaks_cleared: tops.filter((card) => card.played).length,
    cards_left: frame.tableau.filter((card) => !card.played).length,
    stock_count: frame.stock.length,
    status: frame.status,
  };
}

function startReplay(root, frames) {
  initSettings(root);
  const board = new Board(root.querySelector("[data-board]"), { interactive: false });
  const announcer = new Announcer(root.querySelector("[data-announcer]"));
  const position = root.querySelector("[data-position]");
  const stockList = root.querySelector("[data-stock-list]");
  const last = frames.length - 1;

  const stepper = new FrameStepper(root, frames, {
    moveList: root.querySelector("[data-move-list]"),
    moveClass: "move-list__move",
    moveLabel: moveText,
    keepMoveInView: true,
    render(frame, index, { animate }) {
      board.render(boardFromFrame(frame), { animate });
      renderHud(root, frameNumbers(frame));
      stockList.replaceChildren(...frame.stock.map(stockCard));
      const where =
        index === 0
          ? gettext("The deal, before the first move")
          : format(gettext("Move %(move)s of %(moves)s: %(what)s"), {
              move: index,
              moves: last,
              what: moveSentence(frame),
            });
      const end =
        index === last
          ? ` ${format(gettext("The game ends here: %(ending)s."), { ending: ending(root.dataset.status) })}`
          : "";
      position.textContent = `${where}.${end}`;
    },
  });

  // The last frame of a game given up still reads "in_progress": the game row has the ending.
  // The points on each line are in the page (the server's breakdown); only the words are added.
  const final = { ...frameNumbers(frames[last]), status: root.dataset.status };
  const details = breakdownDetails(final);
  const field = (name) => root.querySelector(`[data-final="${name}"]`);
  field("peak-detail").textContent = details.peaks;
  field("clearing-detail").textContent = details.clearing;
  if (root.dataset.durationMs) {
    field("time").textContent = formatDuration(Number(root.dataset.durationMs));
  }

  // The analysis: a move number in it shows the board just after that move.
  const felt = root.querySelector(".replay__felt");
  const analysis = new AnalysisView(root.querySelector("[data-analysis]"), {
    jump(move) {
      stepper.show(move);
      const top = felt.getBoundingClientRect().top;
      if (top < 0 || top > window.innerHeight / 2) {
        felt.scrollIntoView({ behavior: motionAllowed() ? "smooth" : "auto", block: "start" });
      }
    },
  });
  analysis.pending();
  new AnalysisLoader(root.dataset.analysisUrl, {
    onReady: (report) => analysis.show(report),
    onGiveUp: () =>
      analysis.unavailable(gettext("The analysis is not ready yet: reload in a minute.")),
  }).poll();

  stepper.show(0);
  const replayText = ngettext(
    "Replay of a game with %(count)s move. Use the arrow keys to step through it.",
    "Replay of a game with %(count)s moves. Use the arrow keys to step through it.",
    last,
  );
  announcer.say(format(replayText, { count: last }));
}

startReplay(
  document.querySelector("[data-replay]"),
  JSON.parse(document.getElementById("replay-frames").textContent),
);
