// The live region, and the words for what changed between two snapshots of a game.

import { cardName } from "./cards.js";

export class Announcer {
  constructor(region) {
    this.region = region;
    this.timer = 0;
  }

  /** Have screen readers read `text`, even when it repeats the last message. */
  say(text) {
    if (!text) return;
    window.clearTimeout(this.timer);
    this.region.textContent = "";
    // A short pause between clearing and writing makes screen readers notice the new text.
    this.timer = window.setTimeout(() => {
      this.region.textContent = text;
    }, 60);
  }
}

function plural(count, one, many) {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * What happened between snapshot `before` and `after` (VIEWs), in a sentence or three.
 * Only what both snapshots show is named, so a face-down card is named once it turns up.
 */
export function describeChange(before, after) {
  const parts = [];
  if (!before) {
    const peaks = plural(after.cards_left, "card", "cards");
    const fits = plural(after.playable.length, "card fits", "cards fit");
    parts.push(
      `The waste shows the ${cardName(after.waste)}. ${peaks} on the peaks,` +
        ` ${after.stock_count} in the stock, ${fits}.`,
    );
  } else if (after.seq === before.seq + 1) {
    const played = after.tableau.findIndex(
      (code, pos) => code === null && before.tableau[pos] !== null,
    );
    if (played >= 0) {
      parts.push(
        `Played the ${cardName(after.waste)}. Streak ${after.streak}, score ${after.score}.`,
      );
    } else if (after.stock_count < before.stock_count) {
      const left = plural(after.stock_count, "card", "cards");
      parts.push(`Drew the ${cardName(after.waste)}. ${left} left in the stock.`);
    }
    const turned = after.tableau
      .filter((code, pos) => before.tableau[pos] === "down" && code !== "down" && code !== null)
      .map(cardName);
    if (turned.length) parts.push(`Turned over: the ${turned.join(" and the ")}.`);
    if (after.peaks_cleared > before.peaks_cleared) {
      const bonus = (after.breakdown?.peak_bonus ?? 0) - (before.breakdown?.peak_bonus ?? 0);
      parts.push(bonus > 0 ? `Peak cleared: ${bonus} bonus points.` : "Peak cleared.");
    }
  } else if (after.seq !== before.seq) {
    parts.push(`Back in sync after move ${after.seq}. Score ${after.score}.`);
  }
  if (after.status === "in_progress") {
    if (after.playable.length === 0 && after.stock_count > 0 && after.seq !== before?.seq) {
      parts.push("Nothing fits: draw from the stock.");
    }
  } else if (!before || before.status === "in_progress") {
    parts.push(endSentence(after));
  }
  return parts.join(" ");
}

/** What is left at the end of a game, for the game-over panel. */
export function endSummary(view) {
  if (view.status === "won") {
    const spare = plural(view.stock_count, "card", "cards");
    return `All 28 cards cleared, with ${spare} to spare in the stock.`;
  }
  const left = plural(view.cards_left, "card", "cards");
  if (view.status === "lost") return `The stock ran out with ${left} still on the peaks.`;
  return `You gave up with ${left} still on the peaks.`;
}

/** One sentence for a game that is over. */
export function endSentence(view) {
  const score = plural(view.score, "point", "points");
  if (view.status === "won") return `You won, with ${score}!`;
  if (view.status === "lost") return `No more moves: the game is over, with ${score}.`;
  return `Game given up, with ${score}.`;
}
