// The live region, and the words for what changed between two snapshots of a game.

import { theCard } from "./cards.js";
import { andList, format, gettext, ngettext } from "./i18n.js";

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

/**
 * What happened between snapshot `before` and `after` (VIEWs), in a sentence or three.
 * Only what both snapshots show is named, so a face-down card is named once it turns up.
 */
export function describeChange(before, after) {
  const parts = [];
  if (!before) {
    const peaks = ngettext(
      "%(count)s card on the peaks",
      "%(count)s cards on the peaks",
      after.cards_left,
    );
    const fits = ngettext("%(count)s card fits", "%(count)s cards fit", after.playable.length);
    parts.push(
      format(gettext("The waste shows %(card)s. %(peaks)s, %(stock)s in the stock, %(fits)s."), {
        card: theCard(after.waste),
        peaks: format(peaks, { count: after.cards_left }),
        stock: after.stock_count,
        fits: format(fits, { count: after.playable.length }),
      }),
    );
  } else if (after.seq === before.seq + 1) {
    const played = after.tableau.findIndex(
      (code, pos) => code === null && before.tableau[pos] !== null,
    );
    if (played >= 0) {
      parts.push(
        format(gettext("Played %(card)s. Streak %(streak)s, score %(score)s."), {
          card: theCard(after.waste),
          streak: after.streak,
          score: after.score,
        }),
      );
    } else if (after.stock_count < before.stock_count) {
      const left = ngettext(
        "%(count)s card left in the stock.",
        "%(count)s cards left in the stock.",
        after.stock_count,
      );
      parts.push(
        format(gettext("Drew %(card)s."), { card: theCard(after.waste) }) +
          " " +
          format(left, { count: after.stock_count }),
      );
    }
    const turned = after.tableau
      .filter((code, pos) => before.tableau[pos] === "down" && code !== "down" && code !== null)
      .map(theCard);
    if (turned.length) {
      parts.push(format(gettext("Turned over: %(cards)s."), { cards: andList(turned) }));
    }
    if (after.peaks_cleared > before.peaks_cleared) {
      const bonus = (after.breakdown?.peak_bonus ?? 0) - (before.breakdown?.peak_bonus ?? 0);
      parts.push(
        bonus > 0
          ? format(gettext("Peak cleared: %(bonus)s bonus points."), { bonus })
          : gettext("Peak cleared."),
      );
    }
  } else if (after.seq !== before.seq) {
    parts.push(
      format(gettext("Back in sync after move %(move)s. Score %(score)s."), {
        move: after.seq,
        score: after.score,
      }),
    );
  }
  if (after.status === "in_progress") {
    if (after.playable.length === 0 && after.stock_count > 0 && after.seq !== before?.seq) {
      parts.push(gettext("Nothing fits: draw from the stock."));
    }
  } else if (!before || before.status === "in_progress") {
    parts.push(endSentence(after));
  }
  return parts.join(" ");
}

/** What is left at the end of a game, for the game-over panel. */
export function endSummary(view) {
  if (view.status === "won") {
    const text = ngettext(
      "All 28 cards cleared, with %(count)s card to spare in the stock.",
      "All 28 cards cleared, with %(count)s cards to spare in the stock.",
      view.stock_count,
    );
    return format(text, { count: view.stock_count });
  }
  const count = view.cards_left;
  if (view.status === "lost") {
    const text = ngettext(
      "The stock ran out with %(count)s card still on the peaks.",
      "The stock ran out with %(count)s cards still on the peaks.",
      count,
    );
    return format(text, { count });
  }
  const text = ngettext(
    "You gave up with %(count)s card still on the peaks.",
    "You gave up with %(count)s cards still on the peaks.",
    count,
  );
  return format(text, { count });
}

/** One sentence for a game that is over. */
export function endSentence(view) {
  const count = view.score;
  if (view.status === "won") {
    return format(
      ngettext("You won, with %(count)s point!", "You won, with %(count)s points!", count),
      {
        count,
      },
    );
  }
  if (view.status === "lost") {
    const text = ngettext(
      "No more moves: the game is over, with %(count)s point.",
      "No more moves: the game is over, with %(count)s points.",
      count,
    );
    return format(text, { count });
  }
  const text = ngettext(
    "Game given up, with %(count)s point.",
    "Game given up, with %(count)s points.",
    count,
  );
  return format(text, { count });
}
