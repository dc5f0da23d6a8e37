// The board: the three peaks, the stock and the waste, drawn from a snapshot.
// It shows what it is given and decides nothing: which cards can be played comes with the
// snapshot (VIEW.playable), and a face-down card is only ever "down". Text goes in with
// textContent, never as HTML.

import { cardLabel, cardName, rankLabel, suitOf, suitSymbol } from "./cards.js";
import { format, gettext, ngettext } from "./i18n.js";
import { motionAllowed } from "./settings.js";

const TABLEAU_SIZE = 28;

// Where each position 0–27 sits (rules-spec.md), in half-card columns from the left: each row is
// offset half a card from the one above, so every card overlaps the two below it.
// biome-ignore format: one row of the peaks a line
const COLUMNS = [
  3, 9, 15,
  2, 4, 8, 10, 14, 16,
  1, 3, 5, 7, 9, 11, 13, 15, 17,
  0, 2, 4, 6, 8, 10, 12, 14, 16, 18,
];

export function rowOf(position) {
  if (position < 3) return 0;
  if (position < 9) return 1;
  return position < 18 ? 2 : 3;
}

export function columnOf(position) {
  return COLUMNS[position];
}

/**
 * A board from the protocol's VIEW: cards face up, "down" or played (null), and the positions
 * that can be played now.
 */
export function boardFromView(view) {
  const playable = new Set(view.playable);
  return {
    tableau: view.tableau.map((code, position) => {
      if (code === null) return { face: "played" };
      if (code === "down") return { face: "down" };
      return { face: "up", code, playable: playable.has(position) };
    }),
    waste: view.waste,
    stockCount: view.stock_count,
    over: view.status !== "in_progress",
  };
}

/** A board from a frame of a finished game's replay, where every card may be shown. */
export function boardFromFrame(frame) {
  return {
    tableau: frame.tableau.map(({ card, face_up: faceUp, played }) => {
      if (played) return { face: "played", code: card };
      return { face: faceUp ? "up" : "revealed", code: card, playable: false };
    }),
    waste: frame.waste,
    stockCount: frame.stock.length,
    over: true,
  };
}

function element(tag, className, attributes = {}) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  for (const [name, value] of Object.entries(attributes)) node.setAttribute(name, value);
  return node;
}

/** The inside of a card: a face (filled in later) and a back, for turning over in 3D. */
function cardBody() {
  const body = element("span", "card__body");
  const face = element("span", "card__face", { "aria-hidden": "true" });
  const corner = element("span", "card__corner");
  corner.append(element("span", "card__rank"), element("span", "card__suit"));
  face.append(corner, element("span", "card__pip"));
  body.append(face, element("span", "card__back", { "aria-hidden": "true" }));
  return body;
}

/** Show `code` on a card's face, or blank it (a face-down card's face is never known). */
function paintFace(card, code) {
  const [rank, suit, pip] = card.querySelectorAll(".card__rank, .card__suit, .card__pip");
  if (code) {
    rank.textContent = rankLabel(code);
    suit.textContent = suitSymbol(code);
    pip.textContent = suitSymbol(code);
    card.dataset.suit = suitOf(code);
    card.classList.toggle("card--ten", code[0] === "T");
  } else {
    rank.textContent = suit.textContent = pip.textContent = "";
    delete card.dataset.suit;
    card.classList.remove("card--ten");
  }
}

const FLY_MS = 320;
const DRAW_MS = 420;
const EASE = "cubic-bezier(0.2, 0.7, 0.25, 1)";

export class Board {
  /**
   * Build the board inside `root` (an empty element). `interactive` false makes every card an
   * inert picture (the replay); true makes available cards and the stock buttons to press.
   */
  constructor(root, { interactive = true } = {}) {
    this.root = root;
    this.interactive = interactive;
    this.current = null;
    this.tabStop = null; // the one card reached by Tab: arrow keys move it (a roving tabindex)

    root.classList.add("board", "board--loading");
    const peaks = element("div", "board__peaks", {
      role: "group",
      "aria-label": gettext("The peaks"),
    });
    this.cards = [];
    for (let position = 0; position < TABLEAU_SIZE; position += 1) {
      const card = element("button", "card card--down", { type: "button", tabindex: "-1" });
      card.dataset.pos = String(position);
      card.style.setProperty("--col", String(COLUMNS[position]));
      card.style.setProperty("--row", String(rowOf(position)));
      card.append(cardBody());
      this.cards.push(card);
      peaks.append(card);
    }

    const piles = element("div", "board__piles");
    const stockPile = element("div", "pile pile--stock");
    this.stock = element("button", "card card--down stock", { type: "button" });
    this.stock.dataset.stock = "";
    this.stock.append(cardBody());
    this.stockCount = element("span", "stock__count", { "aria-hidden": "true" });
    this.stock.append(this.stockCount);
    stockPile.append(this.stock, element("span", "pile__label"));
    stockPile.lastChild.textContent = gettext("Stock");

    const wastePile = element("div", "pile pile--waste");
    this.waste = element("div", "waste", { role: "img" });
    this.wasteUnder = element("span", "card waste__under", { "aria-hidden": "true" });
    this.wasteUnder.append(cardBody());
    this.wasteTop = element("span", "card waste__top", { "aria-hidden": "true" });
    this.wasteTop.append(cardBody());
    this.waste.append(this.wasteUnder, this.wasteTop);
    wastePile.append(this.waste, element("span", "pile__label"));
    wastePile.lastChild.textContent = gettext("Waste");

    piles.append(stockPile, wastePile);
    root.replaceChildren(peaks, piles);
  }

  /** Forget the board shown, so that the next render starts afresh (a new deal, no waste pile). */
  clear() {
    this.current = null;
  }

  /**
   * Draw `board` (from boardFromView or boardFromFrame). With `animate`, a card that left the
   * peaks for the waste flies there, a drawn card flies over from the stock, and uncovered cards
   * turn over; set it only when `board` is one move after the board shown now.
   * `target` marks the card (a position) or "stock" that a tutorial step asks for; `hint` marks
   * the one a hint suggests (a different mark: the tutorial's is white, a hint's blue).
   */
  render(board, { animate = false, target = null, hint = null } = {}) {
    const previous = this.current;
    const motion = animate && previous !== null && motionAllowed() && !document.hidden;
    const flight = motion ? this.#plannedFlight(previous, board) : null;
    const focused = this.root.contains(document.activeElement) ? document.activeElement : null;

    this.root.classList.remove("board--loading");
    this.root.classList.toggle("board--instant", !motion);
    this.root.classList.toggle("board--over", board.over);
    for (const [position, card] of board.tableau.entries()) {
      this.#renderCard(this.cards[position], card, board.over, {
        isTarget: target === position,
        isHint: hint === position,
      });
    }
    this.#renderStock(board, { isTarget: target === "stock", isHint: hint === "stock" });
    this.#renderWaste(previous ? previous.waste : null, board.waste);
    this.current = board;
    this.#updateTabStop();

    if (flight) this.#fly(flight);
    // Let the new state settle without transitions, then allow them again for the next move.
    void this.root.offsetWidth;
    this.root.classList.remove("board--instant");

    if (focused && (focused.disabled || focused.classList.contains("card--played"))) {
      this.focusNearest(Number(focused.dataset.pos ?? 27));
    }
  }

  /** Positions of the cards a player can move focus to: every face-up card, while in play. */
  focusablePositions() {
    if (!this.current || !this.interactive || this.current.over) return [];
    const positions = [];
    this.current.tableau.forEach((card, position) => {
      if (card.face === "up") positions.push(position);
    });
    return positions;
  }

  /** Move focus (and the tab stop) to the card at `position`. */
  focusCard(position) {
    this.tabStop = position;
    this.#updateTabStop();
    this.cards[position].focus();
  }

  /** Focus the face-up card nearest `position`, preferring ones that fit; else the stock. */
  focusNearest(position) {
    const candidates = this.focusablePositions();
    if (candidates.length === 0) {
      if (!this.stock.disabled) this.stock.focus();
      return;
    }
    const distance = (p) =>
      Math.abs(COLUMNS[p] - COLUMNS[position]) +
      Math.abs(rowOf(p) - rowOf(position)) * 1.5 +
      (this.current.tableau[p].playable ? 0 : 100);
    candidates.sort((a, b) => distance(a) - distance(b));
    this.focusCard(candidates[0]);
  }

  /** Mark a card (or the stock, with "stock") as sent to the server and waiting for an answer. */
  markPending(target) {
    const node = target === "stock" ? this.stock : this.cards[target];
    node.classList.add("is-pending");
  }

  /** Take the waiting mark off whatever has it: the answer came. */
  clearPending() {
    for (const node of this.root.querySelectorAll(".is-pending")) {
      node.classList.remove("is-pending");
    }
  }

  /** A little shake for a card the server turned down. */
  shake(position) {
    const card = this.cards[position];
    if (!card || !motionAllowed()) return;
    card.animate(
      [
        { translate: "0 0" },
        { translate: "-0.8cqi 0" },
        { translate: "0.8cqi 0" },
        { translate: "-0.5cqi 0" },
        { translate: "0 0" },
      ],
      { duration: 280, easing: "ease-in-out" },
    );
  }

  #renderCard(node, card, over, { isTarget, isHint }) {
    node.classList.remove("is-pending");
    node.classList.toggle("card--down", card.face === "down");
    node.classList.toggle("card--played", card.face === "played");
    node.classList.toggle("card--revealed", card.face === "revealed");
    node.classList.toggle("card--playable", Boolean(card.playable) && !over);
    node.classList.toggle("card--target", isTarget);
    node.classList.toggle("card--suggested", isHint && card.face === "up" && !over);
    paintFace(node, card.face === "up" || card.face === "revealed" ? card.code : null);
    // A face-down card can still be pressed, to be told it is covered (input.js, rules.js); it is
    // only marked unavailable. Played cards, and every card of an inert board, are disabled.
    const covered = this.interactive && !over && card.face === "down";
    node.disabled = !this.interactive || over || (card.face !== "up" && !covered);
    if (covered) node.setAttribute("aria-disabled", "true");
    else node.removeAttribute("aria-disabled");
    if (card.face === "played") {
      node.removeAttribute("aria-label");
    } else if (card.face === "down") {
      node.setAttribute("aria-label", gettext("face-down card"));
    } else if (card.face === "revealed") {
      node.setAttribute(
        "aria-label",
        format(gettext("%(card)s, face down"), { card: cardLabel(card.code) }),
      );
    } else {
      let label = cardLabel(card.code);
      if (card.playable && !over) label += gettext(", playable");
      if (isTarget) label += gettext(", play this card");
      if (isHint && !over) label += gettext(", suggested by the hint");
      node.setAttribute("aria-label", label);
    }
  }

  #renderStock(board, { isTarget, isHint }) {
    const count = board.stockCount;
    this.stock.classList.remove("is-pending");
    this.stock.classList.toggle("stock--empty", count === 0);
    this.stock.classList.toggle("stock--deep", count > 12);
    this.stock.classList.toggle("stock--target", isTarget);
    this.stock.classList.toggle("stock--suggested", isHint && !board.over && count > 0);
    const stuck = !board.over && count > 0 && board.tableau.every((card) => !card.playable);
    this.stock.classList.toggle("stock--hint", this.interactive && stuck);
    this.stock.disabled = !this.interactive || board.over || count === 0;
    this.stockCount.textContent = String(count);
    const cards = format(ngettext("%(count)s card", "%(count)s cards", count), { count });
    const action = this.interactive && !board.over ? gettext(": draw") : "";
    const suggested = isHint && !board.over && count > 0 ? gettext(", suggested by the hint") : "";
    // The name starts with what the button shows, its count (axe: label-content-name-mismatch).
    const label =
      count === 0
        ? gettext("0: stock, empty")
        : format(gettext("%(count)s: stock, %(cards)s%(action)s%(suggested)s"), {
            count,
            cards,
            action,
            suggested,
          });
    this.stock.setAttribute("aria-label", label);
  }

  #renderWaste(previousTop, top) {
    // The card beneath the top shows while a new one lands; a fresh deal has none.
    if (previousTop === null) {
      this.wasteUnder.hidden = true;
    } else if (previousTop !== top) {
      this.wasteUnder.hidden = false;
      paintFace(this.wasteUnder, previousTop);
    }
    paintFace(this.wasteTop, top);
    this.waste.setAttribute(
      "aria-label",
      format(gettext("Waste: %(card)s"), { card: cardName(top) }),
    );
  }

  /** Where the new waste card comes from, measured before the board changes. */
  #plannedFlight(previous, next) {
    if (next.waste === previous.waste) return null;
    const from = previous.tableau.findIndex(
      (card, position) =>
        card.face !== "played" &&
        next.tableau[position].face === "played" &&
        card.code === next.waste,
    );
    if (from >= 0) return { rect: this.cards[from].getBoundingClientRect(), turn: false };
    if (next.stockCount === previous.stockCount - 1) {
      return { rect: this.stock.getBoundingClientRect(), turn: true };
    }
    return null;
  }

  /** FLIP: the waste card starts where it came from and glides home (turning over, if drawn). */
  #fly({ rect, turn }) {
    const end = this.wasteTop.getBoundingClientRect();
    if (!end.width) return;
    const dx = rect.left - end.left;
    const dy = rect.top - end.top;
    const scale = rect.width / end.width;
    const from =
      `perspective(60em) translate(${dx}px, ${dy}px) scale(${scale})` +
      ` rotateY(${turn ? -180 : 0}deg)`;
    const to = "perspective(60em) translate(0px, 0px) scale(1) rotateY(0deg)";
    this.wasteTop.animate([{ transform: from }, { transform: to }], {
      duration: turn ? DRAW_MS : FLY_MS,
      easing: EASE,
    });
  }

  #updateTabStop() {
    const focusable = this.focusablePositions();
    if (!focusable.includes(this.tabStop)) {
      const playable = focusable.filter((p) => this.current.tableau[p].playable);
      this.tabStop = playable[0] ?? focusable[0] ?? null;
    }
    this.cards.forEach((card, position) => {
      card.tabIndex = position === this.tabStop ? 0 : -1;
    });
  }
}
