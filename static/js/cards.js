// Card codes of the protocol ("7h": rank, then suit) in words and symbols, for people.
// Nothing here knows a rule of the game: which cards fit is the server's business. The printed
// card ("7♥") is the same in every language; its name in words is the page's.

import { format, gettext, pgettext } from "./i18n.js";

const RANKS = {
  A: "A",
  2: "2",
  3: "3",
  4: "4",
  5: "5",
  6: "6",
  7: "7",
  8: "8",
  9: "9",
  T: "10",
  J: "J",
  Q: "Q",
  K: "K",
};

const SUITS = { c: "♣", d: "♦", h: "♥", s: "♠" };

/** A rank in words: "seven". */
function rankWord(rank) {
  const words = {
    A: pgettext("card rank", "ace"),
    2: pgettext("card rank", "two"),
    3: pgettext("card rank", "three"),
    4: pgettext("card rank", "four"),
    5: pgettext("card rank", "five"),
    6: pgettext("card rank", "six"),
    7: pgettext("card rank", "seven"),
    8: pgettext("card rank", "eight"),
    9: pgettext("card rank", "nine"),
    T: pgettext("card rank", "ten"),
    J: pgettext("card rank", "jack"),
    Q: pgettext("card rank", "queen"),
    K: pgettext("card rank", "king"),
  };
  return words[rank];
}

/** A rank in words after "the" (French: "l’as", "la dame", "le roi"). */
function theRankWord(rank) {
  const words = {
    A: pgettext("card rank", "the ace"),
    2: pgettext("card rank", "the two"),
    3: pgettext("card rank", "the three"),
    4: pgettext("card rank", "the four"),
    5: pgettext("card rank", "the five"),
    6: pgettext("card rank", "the six"),
    7: pgettext("card rank", "the seven"),
    8: pgettext("card rank", "the eight"),
    9: pgettext("card rank", "the nine"),
    T: pgettext("card rank", "the ten"),
    J: pgettext("card rank", "the jack"),
    Q: pgettext("card rank", "the queen"),
    K: pgettext("card rank", "the king"),
  };
  return words[rank];
}

/** A suit in words: "hearts". */
function suitWord(suit) {
  const words = {
    c: pgettext("card suit", "clubs"),
    d: pgettext("card suit", "diamonds"),
    h: pgettext("card suit", "hearts"),
    s: pgettext("card suit", "spades"),
  };
  return words[suit];
}

/** The rank as printed on the card: "A", "7", "10", "Q". */
export function rankLabel(code) {
  return RANKS[code[0]];
}

/** The suit's letter: "c", "d", "h" or "s" (CSS colours cards by it). */
export function suitOf(code) {
  return code[1];
}

export function suitSymbol(code) {
  return SUITS[code[1]];
}

/** The card in words, for screen readers: "seven of hearts". */
export function cardName(code) {
  return format(gettext("%(rank)s of %(suit)s"), {
    rank: rankWord(code[0]),
    suit: suitWord(code[1]),
  });
}

/** The card in words with its article, inside a sentence: "the seven of hearts". */
export function theCard(code) {
  return format(gettext("%(rank)s of %(suit)s"), {
    rank: theRankWord(code[0]),
    suit: suitWord(code[1]),
  });
}

/** The card in print: "7♥". */
export function cardShort(code) {
  return rankLabel(code) + suitSymbol(code);
}

/**
 * A face-up card's accessible name: what it shows, then in words, "K♠ king of spades", so that the
 * name starts with the visible text (WCAG 2.5.3, label in name).
 */
export function cardLabel(code) {
  return `${cardShort(code)} ${cardName(code)}`;
}
