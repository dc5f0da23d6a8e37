// The end of a game in play: the panel with the result and how the score was made, and the
// post-game analysis, pushed over the socket when the worker has it, or fetched if the socket
// cannot bring it.

import { AnalysisLoader, AnalysisView, analysisSentence } from "./analysis.js";
import { endSummary } from "./announce.js";
import { celebrate } from "./celebrate.js";
import { formatDuration } from "./clock.js";
import { bindFold, setFolded } from "./fold.js";
import { gettext } from "./i18n.js";
import { breakdownDetails, scoreBreakdown } from "./score.js";
import { isOver } from "./state.js";

const ANALYSIS_WAIT = 60000; // ms after the end of a game before saying the analysis is late

/** The panel's title for a game ended with `status`. */
function overTitle(status) {
  const titles = {
    won: gettext("You won!"),
    lost: gettext("No more moves"),
    abandoned: gettext("Game given up"),
  };
  return titles[status];
}

/**
 * Fill the game-over `panel` from the final `view` and show it; say whether it was hidden. When it
 * was, it opens unfolded, and a win is celebrated over the table.
 */
export function showGameOver(panel, view) {
  const wasHidden = panel.hidden;
  const field = (name) => panel.querySelector(`[data-over="${name}"]`);
  const { streakPoints, peakBonus, clearingBonus } = scoreBreakdown(view.breakdown);
  const details = breakdownDetails(view);
  panel.dataset.status = view.status;
  field("title").textContent = overTitle(view.status);
  field("summary").textContent = endSummary(view);
  field("streak-points").textContent = String(streakPoints);
  field("peak-detail").textContent = details.peaks;
  field("peak-bonus").textContent = String(peakBonus);
  field("clearing-detail").textContent = details.clearing;
  field("clearing-bonus").textContent = String(clearingBonus);
  field("score").textContent = String(view.score);
  const duration = Date.parse(view.finished_at) - Date.parse(view.started_at);
  field("time").textContent = formatDuration(duration);
  bindFold(panel);
  panel.hidden = false;
  if (wasHidden) {
    setFolded(panel, false);
    field("title").focus();
    if (view.status === "won") celebrate(panel.parentElement);
  }
  return wasHidden;
}

/** The analysis of a game that has just ended, shown in its [data-analysis] element. */
export class PostGameAnalysis {
  #timer = 0;

  /** `url` serves the analysis as JSON; `socket` is the game's; `announcer` says it is in. */
  constructor(element, url, { socket, announcer }) {
    this.socket = socket;
    this.announcer = announcer;
    this.view = new AnalysisView(element);
    this.loader = this.#loader(url);
  }

  /** The page moves to another game, whose analysis `url` serves: forget the last one's. */
  reset(url) {
    window.clearTimeout(this.#timer);
    this.loader.stop();
    this.loader = this.#loader(url);
    this.view.clear();
  }

  /** An analysis that came over the socket. */
  deliver(analysis) {
    this.loader.deliver(analysis);
  }

  /** The game has just ended: wait for the analysis, and say so after a minute without it. */
  begin() {
    this.view.pending();
    this.#timer = window.setTimeout(() => this.#late(), ANALYSIS_WAIT);
    if (!this.socket.isOpen) this.loader.poll(); // else it comes over the socket
  }

  /**
   * The connection changed while `gameView` is shown. Once the game is over, while the socket is
   * down, ask the server for the analysis instead; when the socket comes back, ask once, in case
   * it was pushed meanwhile.
   */
  connectionChanged(gameView) {
    if (gameView === null || !isOver(gameView) || this.view.ready) return;
    if (this.socket.isOpen) {
      this.loader.stop();
      this.loader.fetchOnce();
    } else {
      this.loader.poll();
    }
  }

  /** A loader for `url`, whose answers count only while it is the loader of the game shown. */
  #loader(url) {
    const loader = new AnalysisLoader(url, {
      onReady: (analysis) => {
        if (this.loader === loader) this.#show(analysis);
      },
      onGiveUp: () => {
        if (this.loader === loader) this.#late();
      },
    });
    return loader;
  }

  #show(analysis) {
    window.clearTimeout(this.#timer);
    this.view.show(analysis);
    this.announcer.say(analysisSentence(analysis));
  }

  /** No analysis a minute after the end: ask a last time, then say where it will be. */
  async #late() {
    if (this.view.ready || (await this.loader.fetchOnce())) return;
    this.view.unavailable(
      gettext("The analysis is taking longer than usual. It will be on this game's replay page."),
    );
  }
}
