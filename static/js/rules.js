// What the page may judge for itself from what it can see, so that a move shows at once: whether a
// face-up card fits the waste (the VIEW's variant says whether King and Ace wrap), the words for a
// card that does not, and the board a play leaves (the cards it uncovers stay face down until the
// server's answer names them). The server still referees every move: this only predicts.

import { cardShort } from "./cards.js";
import { format, gettext, orList } from "./i18n.js";

const RANK_ORDER = "A23456789TJQK";
const STREAK_STEP = 10; // the Nth card of a streak scores 10 × N (the rules' scoring table)
const PEAK_BONUS = 100; // a peak's top card cleared
const PEAK_TOPS = 3; // positions 0, 1 and 2 are the tops of the peaks

/** Whether King and Ace count as neighbours in `variant` (they do, but in "tripeaks-nowrap"). */
export function wraps(variant) {
  return variant !== "tripeaks-nowrap";
}

/** "a 2", "an Ace", "a Queen": a card of a rank, to play. */
function aRank(rank) {
  const words = {
    A: gettext("an Ace"),
    8: gettext("an 8"),
    T: gettext("a 10"),
    J: gettext("a Jack"),
    Q: gettext("a Queen"),
    K: gettext("a King"),
  };
  return words[rank] ?? format(gettext("a %(rank)s"), { rank });
}

function rankIndex(code) {
  return RANK_ORDER.indexOf(code[0]);
}

/**
 * The ranks that fit on `waste`, as card-code rank letters: "9" and "J" on a 10; the one across
 * the King–Ace wrap last ("2" then "K" on an Ace).
 */
function neighbourRanks(waste, variant) {
  const index = rankIndex(waste);
  const ranks = [];
  if (index > 0) ranks.push(RANK_ORDER[index - 1]);
  if (index < RANK_ORDER.length - 1) ranks.push(RANK_ORDER[index + 1]);
  if (wraps(variant) && index === 0) ranks.push("K");
  if (wraps(variant) && index === RANK_ORDER.length - 1) ranks.push("A");
  return ranks;
}

/**
 * Whether card `code` fits on the waste's top card `waste` in `variant`: ranks one apart, or King
 * and Ace where ranks wrap.
 */
export function fits(code, waste, variant) {
  return neighbourRanks(waste, variant).includes(code[0]);
}

/** The positions of the face-up cards of `tableau` that fit `waste`. */
export function playablePositions(tableau, waste, variant) {
  const positions = [];
  tableau.forEach((code, position) => {
    if (typeof code === "string" && code !== "down" && fits(code, waste, variant)) {
      positions.push(position);
    }
  });
  return positions;
}

/**
 * Why the card at `position` cannot be played on `view` (a VIEW in play), in words for the
 * player, or null when it can: "10♠ doesn't fit on A♠: play a 2 or a King".
 */
export function whyNot(view, position) {
  const code = view.tableau[position];
  if (code === null || code === undefined) return gettext("That card has already been played.");
  if (code === "down") return gettext("That card is covered: clear the cards on top of it first.");
  if (fits(code, view.waste, view.variant)) return null;
  const wanted = neighbourRanks(view.waste, view.variant).map(aRank);
  return format(gettext("%(card)s doesn't fit on %(waste)s: play %(wanted)s."), {
    card: cardShort(code),
    waste: cardShort(view.waste),
    wanted: orList(wanted),
  });
}

/**
 * The VIEW the play of the (fitting) card at `position` leads to, as far as the page can tell:
 * the card on the waste, the streak and its points, and the cards that fit now. The cards it
 * uncovers stay "down" (only the server's answer names them), and the game is never predicted to
 * end. `seq` is one on, so that what belongs to the VIEW before (a hint) is seen to be past.
 */
export function predictPlay(view, position) {
  const code = view.tableau[position];
  const tableau = view.tableau.slice();
  tableau[position] = null;
  const streak = view.streak + 1;
  const top = position < PEAK_TOPS;
  const streakPoints = STREAK_STEP * streak;
  const bonus = top ? PEAK_BONUS : 0;
  const breakdown = view.breakdown ?? {};
  return {
    ...view,
    seq: view.seq + 1,
    tableau,
    waste: code,
    streak,
    score: view.score + streakPoints + bonus,
    cards_left: view.cards_left - 1,
    peaks_cleared: view.peaks_cleared + (top ? 1 : 0),
    playable: playablePositions(tableau, code, view.variant),
    breakdown: {
      ...breakdown,
      streak_points: (breakdown.streak_points ?? 0) + streakPoints,
      peak_bonus: (breakdown.peak_bonus ?? 0) + bonus,
    },
  };
}
