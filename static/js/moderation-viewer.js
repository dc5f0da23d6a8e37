// The staff replay viewer: step through any game (in play, a daily before its day is over, a
// race) with every card shown: face-down cards in the board's "revealed" style, and the stock in
// the order it will come. The frames come from the server (moderation/selectors.py staff_game)
// in a json_script element; this page is for moderators only.

import { Announcer } from "./announce.js";
import { Board, boardFromFrame } from "./board.js";
import { cardName, cardShort } from "./cards.js";
import { isTyping } from "./input.js";

const STEP_KEYS = { ArrowLeft: "back", ArrowRight: "forward", Home: "first", End: "last" };

/** A move in words for the list: "8♦", or "draw (K♠)" with the card the draw turned up. */
function moveText(frame) {
  return frame.move === "draw" ? `draw (${cardShort(frame.waste)})` : cardShort(frame.move);
}

function moveSentence(frame) {
  return frame.move === "draw"
    ? `drew the ${cardName(frame.waste)}`
    : `played the ${cardName(frame.move)}`;
}

/** The time a move was recorded, to the millisecond: fast play shows in these. */
function clockTime(iso) {
  return iso ? new Date(iso).toISOString().slice(11, 23) : "";
}

function stockCard(code) {
  const item = document.createElement("li");
  item.className = "stock-list__card";
  item.dataset.suit = code[1];
  item.textContent = cardShort(code);
  item.setAttribute("aria-label", cardName(code));
  return item;
}

function startViewer(root, frames) {
  const board = new Board(root.querySelector("[data-board]"), { interactive: false });
  const announcer = new Announcer(root.querySelector("[data-position]"));
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
    button.className = "mod-move-list__move";
    button.dataset.frame = String(i + 1);
    button.textContent = `${moveText(frame)} ${clockTime(frame.played_at)}`;
    item.append(button);
    moveList.append(item);
    return button;
  });

  function show(next) {
    const animate = next === index + 1;
    index = Math.max(0, Math.min(last, next));
    const frame = frames[index];
    board.render(boardFromFrame(frame), { animate });
    stockList.replaceChildren(...frame.stock.map(stockCard));
    const where =
      index === 0 ? "The deal, before the first move" : `Move ${index} of ${last}: ${moveSentence(frame)}`;
    const figures = `score ${frame.score}, streak ${frame.streak}, ${frame.stock.length} in the stock`;
    const end = index === last ? `; ${frame.status.replace("_", " ")}` : "";
    announcer.say(`${where}. ${figures}${end}.`);
    buttons.first.disabled = buttons.back.disabled = index === 0;
    buttons.forward.disabled = buttons.last.disabled = index === last;
    moveButtons.forEach((button, i) => {
      if (i + 1 === index) button.setAttribute("aria-current", "step");
      else button.removeAttribute("aria-current");
    });
  }

  function go(step) {
    const targets = { first: 0, back: index - 1, forward: index + 1, last };
    show(targets[step]);
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

  show(0);
}

startViewer(
  document.querySelector("[data-mod-viewer]"),
  JSON.parse(document.getElementById("mod-frames").textContent),
);
