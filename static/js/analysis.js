// The post-game analysis (protocol.md, ANALYSIS): par, the player's share of it, when a winnable
// deal slipped away, the four mistakes that break streaks (draws while a card fitted, plays that
// opened nothing, King–Ace links missed, the stock left for last), and the streaks. Used by the
// game-over panel (pushed over the socket, or fetched) and by the finished game's page (fetched).
// Everything goes in with textContent; the numbers are the server's, nothing is worked out here.

import { cardShort } from "./cards.js";

const POLL_INTERVAL = 2000; // ms between two asks while the server answers 202
const POLL_LIMIT = 60000; // ms after the first ask when asking stops

const PENDING_TEXT = "Working out par…";

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

function plural(count, one, many) {
  return `${count} ${count === 1 ? one : many}`;
}

/** "9♥", "9♥ or 7♣", "9♥, 7♣ or J♦". */
function cardList(codes) {
  const names = codes.map(cardShort);
  if (names.length <= 1) return names.join("");
  return `${names.slice(0, -1).join(", ")} or ${names.at(-1)}`;
}

/** Whole percent, never shown as 100% unless it is (rounding 99.6% up would claim par). */
function percent(share) {
  const value = Math.round(share * 100);
  return value === 100 && share < 1 ? 99 : value;
}

/**
 * Where the analysis goes: a [data-analysis] section holding [data-analysis-status] (the words
 * while it is awaited) and [data-analysis-body] (filled in once it is here). `data-level` is the
 * level of the section's own heading; its parts get the next one.
 */
export class AnalysisView {
  /** `jump(move)`, when given, makes every move number a button that calls it. */
  constructor(root, { jump = null } = {}) {
    this.root = root;
    this.jump = jump;
    this.status = root.querySelector("[data-analysis-status]");
    this.body = root.querySelector("[data-analysis-body]");
    this.level = Math.min(6, Number(root.dataset.level ?? 3) + 1);
    this.analysis = null;
  }

  get ready() {
    return this.analysis !== null;
  }

  /** The words while the analysis is on its way. */
  pending(text = PENDING_TEXT) {
    if (this.ready) return;
    this.root.dataset.state = "pending";
    this.root.setAttribute("aria-busy", "true");
    this.status.textContent = text;
    this.status.hidden = false;
    this.body.hidden = true;
  }

  /** No analysis to show, for now: say why (it stays "pending" for whoever reads the state). */
  unavailable(text) {
    if (this.ready) return;
    this.root.dataset.state = "unavailable";
    this.root.removeAttribute("aria-busy");
    this.status.textContent = text;
  }

  /** Empty the section again, as it was before any analysis (the page moves to another game). */
  clear() {
    this.analysis = null;
    this.root.dataset.state = "pending";
    this.root.removeAttribute("aria-busy");
    this.status.textContent = PENDING_TEXT;
    this.status.hidden = false;
    this.body.replaceChildren();
    this.body.hidden = true;
  }

  /** Fill the section in from ANALYSIS. */
  show(analysis) {
    this.analysis = analysis;
    this.root.dataset.state = "ready";
    this.root.removeAttribute("aria-busy");
    this.status.hidden = true;
    this.body.replaceChildren(
      this.#par(analysis),
      ...this.#verdict(analysis),
      this.#draws(analysis.draws_while_play_fit ?? []),
      // An analysis stored before the other three mistakes were taught has none of their keys.
      ...("plays_opening_nothing" in analysis
        ? [this.#openers(analysis.plays_opening_nothing)]
        : []),
      ...("missed_king_ace" in analysis ? [this.#wraps(analysis.missed_king_ace)] : []),
      ...("stock_left_for_last" in analysis ? [this.#stock(analysis.stock_left_for_last)] : []),
      this.#streaks(analysis.streaks ?? []),
    );
    this.body.hidden = false;
  }

  /** Par, and the score as a share of it, in words and as a bar. */
  #par({ par, par_exact: exact, share, score }) {
    const part = element("div", "analysis__par");
    const line = element("p", "analysis__par-line");
    line.append(exact ? "Par: " : "Par: at least ");
    const value = element("strong", "analysis__par-value", String(par));
    value.dataset.analysisPar = "";
    line.append(value);
    if (!exact) {
      line.append(element("span", "analysis__note", " (the solver stopped before proving more)"));
    }
    part.append(line);
    if (typeof share === "number") {
      const shown = percent(share);
      const words = element("p", "analysis__share-line");
      words.append(`Your ${plural(score, "point", "points")}: `);
      const value = element("strong", "", `${shown}%`);
      value.dataset.analysisShare = "";
      words.append(value, " of par");
      const bar = element("div", "analysis__bar");
      bar.setAttribute("aria-hidden", "true");
      const fill = element("span", "analysis__fill");
      fill.style.width = `${Math.max(0, Math.min(100, share * 100))}%`;
      bar.append(fill);
      part.append(words, bar);
    }
    return part;
  }

  /** Whether the deal could be won, and until when. */
  #verdict({ status, winnable, lost_at: lostAt }) {
    const line = element("p", "analysis__verdict");
    line.dataset.analysisVerdict = "";
    if (status === "won") {
      line.textContent = "You won the deal.";
    } else if (winnable === false) {
      line.textContent = "This deal could not be won: no line clears all 28 cards.";
      line.classList.add("analysis__verdict--lost");
    } else if (winnable === null || winnable === undefined) {
      line.textContent = "The solver could not settle whether this deal could be won.";
    } else if (typeof lostAt === "number") {
      line.append("The deal could still be won until ", this.#move(lostAt), ".");
      line.classList.add("analysis__verdict--missed");
    } else if (status === "abandoned") {
      line.textContent = "The deal could still have been won from where you stopped.";
    } else {
      line.textContent = "The deal could be won; the solver could not place the turning point.";
    }
    return [line];
  }

  // The cards are left out of each mistake while a daily deal is secret to anyone but its player.

  #draws(draws) {
    return this.#mistakes("Draws while a card fitted", draws, {
      none: "None: you never drew while a card on the peaks fitted.",
      data: "analysisDraws",
      words: ({ fits }) => `: you drew while ${fits?.length ? cardList(fits) : "a card"} fitted`,
    });
  }

  /** Plays that turned nothing over while another fitting card would have. */
  #openers(plays) {
    return this.#mistakes("Plays that opened nothing", plays, {
      none: "None: when a play could turn a card over, you made one.",
      data: "analysisOpeners",
      words: ({ card, openers }) => {
        const played = card ? `the ${cardShort(card)}` : "a card";
        const better = openers?.length ? cardList(openers) : "another card";
        return `: you played ${played}, which opened nothing, while ${better} would have turned a card over`;
      },
    });
  }

  /** Draws made while a card fitted across the King–Ace wrap. */
  #wraps(missed) {
    return this.#mistakes("King–Ace links missed", missed, {
      none: "None: you never drew past a King–Ace link.",
      data: "analysisWraps",
      words: ({ waste, cards }) => {
        const what = cards?.length ? cardList(cards) : "a card";
        const onto = waste ? ` on the ${cardShort(waste)}` : "";
        return `: you drew while ${what} fitted${onto}: King and Ace are neighbours`;
      },
    });
  }

  /**
   * One kind of mistake: its heading, then "Move N: what happened" for each (`words(mistake)`),
   * in a list marked `data` (a dataset name), or `none` when there is none.
   */
  #mistakes(title, mistakes, { none, data, words }) {
    const part = element("div", "analysis__part");
    part.append(this.#heading(title));
    if (mistakes.length === 0) {
      part.append(element("p", "", none));
      return part;
    }
    const list = element("ul", "analysis__draws");
    list.dataset[data] = "";
    for (const mistake of mistakes) {
      const item = element("li");
      item.append(this.#move(mistake.move, { capital: true }), words(mistake));
      list.append(item);
    }
    part.append(list);
    return part;
  }

  /** The run of draws that found nothing at the end of a lost game. */
  #stock(left) {
    const part = element("div", "analysis__part");
    part.append(this.#heading("The stock left for last"));
    if (!left) {
      part.append(
        element("p", "", "No: the game did not end on a run of draws that found nothing."),
      );
      return part;
    }
    const line = element("p");
    line.dataset.analysisStock = "";
    line.append(
      "From ",
      this.#move(left.move),
      `, the last ${plural(left.draws, "draw", "draws")} went by without a play: the final draws` +
        " are easy to waste. Open face-down cards while the stock is still deep.",
    );
    part.append(line);
    return part;
  }

  #streaks(streaks) {
    const part = element("div", "analysis__part");
    part.append(this.#heading("Streaks"));
    if (streaks.length === 0) {
      part.append(element("p", "", "No streaks: no card was played."));
      return part;
    }
    const longest = streaks.reduce((best, streak) => (streak.length > best.length ? streak : best));
    const list = element("ul", "analysis__facts");
    const first = element("li");
    first.append(
      `Longest: ${plural(longest.length, "card", "cards")} from `,
      this.#move(longest.first_move),
      `, ${plural(longest.points, "point", "points")}`,
    );
    first.dataset.analysisLongest = "";
    list.append(first, element("li", "", `${plural(streaks.length, "streak", "streaks")} in all`));
    const breaks = streaks.map((streak) => streak.broken_by).filter((move) => move !== null);
    if (breaks.length) {
      const item = element("li");
      item.append(
        breaks.length === 1 ? "Broken by the draw at move " : "Broken by the draws at moves ",
      );
      breaks.forEach((move, i) => {
        if (i > 0) item.append(i === breaks.length - 1 ? " and " : ", ");
        item.append(this.#move(move, { bare: true }));
      });
      if (streaks.at(-1).broken_by === null) item.append("; the last ran to the end of the game");
      list.append(item);
    }
    part.append(list);
    return part;
  }

  #heading(text) {
    return element(`h${this.level}`, "analysis__heading", text);
  }

  /** "move 12", or "Move 12" to start a sentence, or just "12" in a list of moves. */
  #move(number, { capital = false, bare = false } = {}) {
    const text = bare ? String(number) : `${capital ? "Move" : "move"} ${number}`;
    if (!this.jump) return element("span", "analysis__move", text);
    const button = element("button", "analysis__move analysis__move--jump", text);
    button.type = "button";
    button.dataset.jump = String(number);
    button.setAttribute("aria-label", `Move ${number}, show it in the replay`);
    button.addEventListener("click", () => this.jump(number));
    return button;
  }
}

/** One sentence for the live region once the analysis is in. */
export function analysisSentence({ par, par_exact: exact, share }) {
  const parText = exact ? `par ${par}` : `par at least ${par}`;
  const shareText = typeof share === "number" ? `: you scored ${percent(share)}% of par` : "";
  return `Analysis ready, ${parText}${shareText}.`;
}

/**
 * Fetches a finished game's analysis from GET /games/<id>/analysis.json: once, or every 2 s while
 * the server answers 202 (still computing), for at most a minute. `onReady(analysis)` is called
 * once, whether the analysis came from here or from `deliver` (the socket); `onGiveUp()` when the
 * minute is over without it.
 */
export class AnalysisLoader {
  constructor(url, { onReady, onGiveUp = () => {} }) {
    this.url = url;
    this.onReady = onReady;
    this.onGiveUp = onGiveUp;
    this.done = false;
    this.polling = false;
    this.timer = 0;
    this.startedAt = null;
  }

  /** The analysis came some other way (pushed over the socket): stop asking. */
  deliver(analysis) {
    if (this.done) return;
    this.done = true;
    this.stop();
    this.onReady(analysis);
  }

  /** Ask once; answer whether the analysis is in now. */
  async fetchOnce() {
    if (this.done) return true;
    try {
      const response = await fetch(this.url, {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
        cache: "no-store",
      });
      if (response.status === 200) {
        this.deliver(await response.json());
        return true;
      }
    } catch {
      // The network failed: the next ask may do better.
    }
    return this.done;
  }

  /** Ask now and every POLL_INTERVAL while not ready, until a minute after the first ask. */
  poll() {
    if (this.done || this.polling) return;
    this.polling = true;
    this.startedAt ??= Date.now();
    const tick = async () => {
      this.timer = 0;
      if (await this.fetchOnce()) return;
      if (!this.polling) return;
      if (Date.now() - this.startedAt >= POLL_LIMIT) {
        this.stop();
        this.onGiveUp();
        return;
      }
      this.timer = window.setTimeout(tick, POLL_INTERVAL);
    };
    tick();
  }

  stop() {
    this.polling = false;
    window.clearTimeout(this.timer);
    this.timer = 0;
  }
}
