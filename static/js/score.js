// The numbers above the board, and the score split by the lines of the scoring table.
// The split comes from the server (VIEW.breakdown): the browser knows no scoring rule of its own.

import { format, gettext, ngettext } from "./i18n.js";

/**
 * The breakdown of a score as the server sent it ({streak_points, peak_bonus, clearing_bonus}),
 * in this module's names. Missing lines read as 0.
 */
export function scoreBreakdown(breakdown) {
  return {
    streakPoints: breakdown?.streak_points ?? 0,
    peakBonus: breakdown?.peak_bonus ?? 0,
    clearingBonus: breakdown?.clearing_bonus ?? 0,
  };
}

/** The words beside the bonus lines: how many peaks, how many cards were left in the stock. */
export function breakdownDetails({ peaks_cleared: peaks, stock_count: stock, status }) {
  return {
    peaks: format(gettext("%(peaks)s of 3 peaks"), { peaks }),
    clearing:
      status === "won"
        ? format(
            ngettext(
              "%(count)s card left in the stock",
              "%(count)s cards left in the stock",
              stock,
            ),
            { count: stock },
          )
        : gettext("for a cleared board"),
  };
}

/** Fill the [data-hud] fields under `root` (score, streak, peaks, cards left) from a VIEW. */
export function renderHud(root, view) {
  const fields = {
    score: view.score,
    streak: view.streak,
    peaks: `${view.peaks_cleared}/3`,
    "cards-left": view.cards_left,
  };
  for (const [name, value] of Object.entries(fields)) {
    const element = root.querySelector(`[data-hud="${name}"]`);
    if (element) element.textContent = String(value);
  }
  const assisted = root.querySelector("[data-hud-assisted]");
  if (assisted && "assisted" in view) assisted.hidden = !view.assisted;
}
