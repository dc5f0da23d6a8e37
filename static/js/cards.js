// Card codes of the protocol ("7h": rank, then suit) in words and symbols, for people.
// Nothing here knows a rule of the game: which cards fit is the server's business.

const RANKS = {
  A: ["A", "ace"],
  2: ["2", "two"],
  3: ["3", "three"],
  4: ["4", "four"],
  5: ["5", "five"],
  6: ["6", "six"],
  7: ["7", "seven"],
  8: ["8", "eight"],
  9: ["9", "nine"],
  T: ["10", "ten"],
  J: ["J", "jack"],
  Q: ["Q", "queen"],
  K: ["K", "king"],
};

const SUITS = {
  c: ["♣", "clubs"],
  d: ["♦", "diamonds"],
  h: ["♥", "hearts"],
  s: ["♠", "spades"],
};

/** The rank as printed on the card: "A", "7", "10", "Q". */
export function rankLabel(code) {
  return RANKS[code[0]][0];
}

/** The suit's letter: "c", "d", "h" or "s" (CSS colours cards by it). */
export function suitOf(code) {
  return code[1];
}

export function suitSymbol(code) {
  return SUITS[code[1]][0];
}

/** The card in words, for screen readers: "seven of hearts". */
export function cardName(code) {
  return `${RANKS[code[0]][1]} of ${SUITS[code[1]][1]}`;
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
