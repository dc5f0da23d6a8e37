// The finished-game page: step through every position of the game, with every card shown.
// The frames come from the server (game/selectors.py replay_frames) in a json_script element; the
// final score's lines are in the page, and the analysis is fetched (it may still be computing).

import { AnalysisLoader, AnalysisView } from "./analysis.js";
import { Announcer } from "./announce.js";
import { Board, boardFromFrame } from "./board.js";
import { cardName, cardShort } from "./cards.js";
import { formatDuration } from "./clock.js";
import { isTyping } from "./input.js";
import { breakdownDetails, renderHud } from "./score.js";
import { initSettings, motionAllowed } from "./settings.js";

const ENDINGS = { won: "won", lost: "no more moves", abandoned: "given up" };
const STEP_KEYS = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };

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

/** A move in words: "8♦", or "draw (K♠)" with the card the draw turned up. */
function moveText(frame) {
  return frame.move === "draw" ? `draw (${cardShort(frame.waste)})` : cardShort(frame.move);
}

function moveSentence(frame) {
  return frame.move === "draw"
    ? `drew the ${cardName(frame.waste)}`
    : `played the ${cardName(frame.move)}`;
}

function miniCard(code) {
  const item = document.createElement("li");
  item.className = "stock-list__card";
  item.dataset.suit = code[1];
  item.textContent = cardShort(code);
  item.setAttribute("aria-label", cardName(code));
  return item;
}

function startReplay(root, frames) {
  initSettings(root);
  const board = new Board(root.querySelector("[data-board]"), { interactive: false });
  const announcer = new Announcer(root.querySelector("[data-announcer]"));
  const position = root.querySelector("[data-position]");
  const stockList = root.querySelector("[data-stock-list]");
  const moveList = root.querySelector("[data-move-list]");
  const buttons = Object.fromEntries(
    [...root.querySelectorAll("[data-step]")].map((button) => [button.dataset.step, button]),
  );
  const last = frames.length - 1;
  let index = 0;

  const moveButtons = frames.slice(1).map((frame, i) => {
    const item = document.createElement("li");
    const button = document.createElement("button");
    button.type = "button";
    button.className = "move-list__move";
    button.dataset.frame = String(i + 1);
    button.textContent = moveText(frame);
    item.append(button);
    moveList.append(item);
    return button;
  });

  /** Bring the current move into view inside the list, without scrolling the page. */
  function scrollMoveList(button) {
    if (!button) {
      moveList.scrollTop = 0;
      return;
    }
    const top = button.offsetTop; // the list is the buttons' offset parent (board.css)
    if (top < moveList.scrollTop) moveList.scrollTop = top;
    else if (top + button.offsetHeight > moveList.scrollTop + moveList.clientHeight) {
      moveList.scrollTop = top + button.offsetHeight - moveList.clientHeight;
    }
  }

  function show(next) {
    const animate = next === index + 1;
    index = Math.max(0, Math.min(last, next));
    const frame = frames[index];
    board.render(boardFromFrame(frame), { animate });
    renderHud(root, frameNumbers(frame));
    stockList.replaceChildren(...frame.stock.map(miniCard));
    const where =
      index === 0
        ? "The deal, before the first move"
        : `Move ${index} of ${last}: ${moveSentence(frame)}`;
    const end = index === last ? ` The game ends here: ${ENDINGS[root.dataset.status]}.` : "";
    position.textContent = where + "." + end;
    buttons.first.disabled = buttons.back.disabled = index === 0;
    buttons.forward.disabled = buttons.last.disabled = index === last;
    moveButtons.forEach((button, i) => {
      if (i + 1 === index) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    });
    scrollMoveList(moveButtons[index - 1]);
  }

  function go(step) {
    const targets = { first: 0, back: index - 1, forward: index + 1, last };
    show(targets[step]);
    // Keep focus on a usable control when the one pressed becomes disabled at either end.
    if (document.activeElement?.disabled) {
      (index === 0 ? buttons.forward : buttons.back).focus();
    }
  }

  root.addEventListener("click", (event) => {
    const target = event.target instanceof Element ? event.target : null;
    const step = target?.closest("[data-step]");
    if (step) go(step.dataset.step);
    const move = target?.closest("[data-frame]");
    if (move) show(Number(move.dataset.frame));
  });
  document.addEventListener("keydown", (event) => {
    if (event.altKey || event.ctrlKey || event.metaKey || isTyping(event.target)) return;
    const step = STEP_KEYS[event.key];
    if (!step) return;
    event.preventDefault();
    go(step);
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
      show(move);
      const top = felt.getBoundingClientRect().top;
      if (top < 0 || top > window.innerHeight / 2) {
        felt.scrollIntoView({ behavior: motionAllowed() ? "smooth" : "auto", block: "start" });
      }
    },
  });
  analysis.pending();
  new AnalysisLoader(root.dataset.analysisUrl, {
    onReady: (report) => analysis.show(report),
    onGiveUp: () => analysis.unavailable("The analysis is not ready yet: reload in a minute."),
  }).poll();

  show(0);
  announcer.say(`Replay of a game with ${last} moves. Use the arrow keys to step through it.`);
}

startReplay(
  document.querySelector("[data-replay]"),
  JSON.parse(document.getElementById("replay-frames").textContent),
);
