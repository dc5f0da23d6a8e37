// The tutorial: a short run played out on a fixed practice deal. Not a game: no server, no socket.
// Every frame (rendered by Django from game/tutorial.py) brings its words, the board to show and
// the move it asks for; the page only checks that the player pressed that card, then shows the
// next frame. The boards are drawn by the same renderer as real games.

import { Announcer, describeChange } from "./announce.js";
import { Board, boardFromView } from "./board.js";
import { cardShort } from "./cards.js";
import { format, gettext } from "./i18n.js";
import { bindInput } from "./input.js";
import { renderHud } from "./score.js";
import { initSettings } from "./settings.js";

function startTutorial(root, frames) {
  initSettings(root);
  const find = (name) => root.querySelector(`[data-t="${name}"]`);
  const board = new Board(root.querySelector("[data-board]"));
  const announcer = new Announcer(root.querySelector("[data-announcer]"));
  const steps = Number(root.dataset.steps);
  let index = 0;

  function show(next, { animate = false, focusTitle = false } = {}) {
    const previous = frames[index];
    index = next;
    const frame = frames[index];
    const { move, view } = frame;
    const target = move === null ? null : move === "draw" ? "stock" : view.tableau.indexOf(move);
    board.render(boardFromView(view), { animate, target });
    renderHud(root, view);
    const progress = format(gettext("Step %(step)s of %(steps)s"), { step: frame.step, steps });
    find("progress").textContent = progress;
    find("title").textContent = frame.title;
    find("text").textContent = frame.text;
    find("hint").textContent = "";
    find("back").disabled = index === 0;
    find("next").hidden = move !== null || index === frames.length - 1;
    find("done").hidden = index !== frames.length - 1;
    const change = animate ? describeChange(previous.view, view) : "";
    announcer.say(`${change} ${progress}: ${frame.title}. ${frame.text}`.trim());
    if (focusTitle) {
      find("title").focus({ preventScroll: true });
    } else if (typeof target === "number" && root.contains(document.activeElement)) {
      board.focusCard(target);
    }
  }

  /** The player pressed `move` (a card code, "down" or "draw"), at `position` on the peaks. */
  function attempt(move, position = null) {
    const frame = frames[index];
    if (frame.move === null) return;
    if (move === frame.move) {
      show(index + 1, { animate: true });
      return;
    }
    const hint =
      frame.move === "draw"
        ? gettext("Not that one: this step asks for the stock.")
        : format(gettext("Not that one: this step asks for the %(card)s."), {
            card: cardShort(frame.move),
          });
    find("hint").textContent = hint;
    announcer.say(hint);
    if (position !== null) board.shake(position);
  }

  bindInput(board, {
    onPlay: (position) => attempt(frames[index].view.tableau[position], position),
    onDraw: () => attempt("draw"),
  });
  find("next").addEventListener("click", () => show(index + 1, { focusTitle: true }));
  find("back").addEventListener("click", () => show(Math.max(0, index - 1), { focusTitle: true }));
  find("restart").addEventListener("click", () => {
    board.clear();
    show(0, { focusTitle: true });
  });
  show(0);
}

startTutorial(
  document.querySelector("[data-tutorial]"),
  JSON.parse(document.getElementById("tutorial-frames").textContent),
);
