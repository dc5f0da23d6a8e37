// The post-game analysis (protocol.md, ANALYSIS): par, the player's share of it, when a winnable
// deal slipped away, the four mistakes that break streaks (draws while a card fitted, plays that
// opened nothing, King–Ace links missed, the stock left for last), and the streaks. Used by the
// game-over panel (pushed over the socket, or fetched) and by the finished game's page (fetched).
// Everything goes in with textContent; the numbers are the server's, nothing is worked out here.

import { cardShort } from "./cards.js";
import { format, gettext, ngettext, orList } from "./i18n.js";

const POLL_INTERVAL = 2000; // ms between two asks while the server answers 202
const POLL_LIMIT = 60000; // ms after the first ask when asking stops

function element(tag, className, text) {
  const node = document.createElement(tag);
  if (className) node.className = className;
  if (text !== undefined) node.textContent = text;
  return node;
}

/** "Working out par…": the words while the analysis is awaited. */
function pendingText() {
  return gettext("Working out par…");
}

/** `text` (an ngettext form for `count`, holding %(count)s) with the count put in. */
function counted(text, count) {
  return format(text, { count });
}

/** "9♥", "9♥ or 7♣", "9♥, 7♣ or J♦". */
function cardList(codes) {
  return orList(codes.map(cardShort));
}

/** A whole percent in the page's way of writing it: "46%", French "46 %". */
function percentText(value) {
  return format(gettext("%(percent)s%%"), { percent: value });
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
  pending(text = pendingText()) {
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
    this.status.textContent = pendingText();
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
    line.append(exact ? gettext("Par: ") : gettext("Par: at least "));
    const value = element("strong", "analysis__par-value", String(par));
    value.dataset.analysisPar = "";
    line.append(value);
    if (!exact) {
      line.append(
        element("span", "analysis__note", gettext(" (the solver stopped before proving more)")),
      );
    }
    part.append(line);
    if (typeof share === "number") {
      const shown = percent(share);
      const words = element("p", "analysis__share-line");
      words.append(
        counted(ngettext("Your %(count)s point: ", "Your %(count)s points: ", score), score),
      );
      const value = element("strong", "", percentText(shown));
      value.dataset.analysisShare = "";
      words.append(value, gettext(" of par"));
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
      line.textContent = gettext("You won the deal.");
    } else if (winnable === false) {
      line.textContent = gettext("This deal could not be won: no line clears all 28 cards.");
      line.classList.add("analysis__verdict--lost");
    } else if (winnable === null || winnable === undefined) {
      line.textContent = gettext("The solver could not settle whether this deal could be won.");
    } else if (typeof lostAt === "number") {
      line.append(gettext("The deal could still be won until "), this.#move(lostAt), ".");
      line.classList.add("analysis__verdict--missed");
    } else if (status === "abandoned") {
      line.textContent = gettext("The deal could still have been won from where you stopped.");
    } else {
      line.textContent = gettext(
        "The deal could be won; the solver could not place the turning point.",
      );
    }
    return [line];
  }

  // The cards are left out of each mistake while a daily deal is secret to anyone but its player.

  #draws(draws) {
    return this.#mistakes(gettext("Draws while a card fitted"), draws, {
      none: gettext("None: you never drew while a card on the peaks fitted."),
      data: "analysisDraws",
      words: ({ fits }) =>
        fits?.length
          ? format(gettext(": you drew while %(cards)s fitted"), { cards: cardList(fits) })
          : gettext(": you drew while a card fitted"),
    });
  }

  /** Plays that turned nothing over while another fitting card would have. */
  #openers(plays) {
    return this.#mistakes(gettext("Plays that opened nothing"), plays, {
      none: gettext("None: when a play could turn a card over, you made one."),
      data: "analysisOpeners",
      words: ({ card, openers }) => {
        const played = card
          ? format(gettext("the %(card)s"), { card: cardShort(card) })
          : gettext("a card");
        const better = openers?.length ? cardList(openers) : gettext("another card");
        return format(
          gettext(
            ": you played %(played)s, which opened nothing, while %(better)s would have turned a card over",
          ),
          { played, better },
        );
      },
    });
  }

  /** Draws made while a card fitted across the King–Ace wrap. */
  #wraps(missed) {
    return this.#mistakes(gettext("King–Ace links missed"), missed, {
      none: gettext("None: you never drew past a King–Ace link."),
      data: "analysisWraps",
      words: ({ waste, cards }) => {
        const what = cards?.length ? cardList(cards) : gettext("a card");
        const words = waste
          ? gettext(
              ": you drew while %(what)s fitted on the %(waste)s: King and Ace are neighbours",
            )
          : gettext(": you drew while %(what)s fitted: King and Ace are neighbours");
        return format(words, { what, waste: waste ? cardShort(waste) : "" });
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
    part.append(this.#heading(gettext("The stock left for last")));
    if (!left) {
      part.append(
        element("p", "", gettext("No: the game did not end on a run of draws that found nothing.")),
      );
      return part;
    }
    const line = element("p");
    line.dataset.analysisStock = "";
    line.append(
      gettext("From "),
      this.#move(left.move),
      counted(
        ngettext(
          ", the last %(count)s draw went by without a play: the final draws are easy to waste. Open face-down cards while the stock is still deep.",
          ", the last %(count)s draws went by without a play: the final draws are easy to waste. Open face-down cards while the stock is still deep.",
          left.draws,
        ),
        left.draws,
      ),
    );
    part.append(line);
    return part;
  }

  #streaks(streaks) {
    const part = element("div", "analysis__part");
    part.append(this.#heading(gettext("Streaks")));
    if (streaks.length === 0) {
      part.append(element("p", "", gettext("No streaks: no card was played.")));
      return part;
    }
    const longest = streaks.reduce((best, streak) => (streak.length > best.length ? streak : best));
    const list = element("ul", "analysis__facts");
    const first = element("li");
    first.append(
      counted(
        ngettext("Longest: %(count)s card from ", "Longest: %(count)s cards from ", longest.length),
        longest.length,
      ),
      this.#move(longest.first_move),
      counted(ngettext(", %(count)s point", ", %(count)s points", longest.points), longest.points),
    );
    first.dataset.analysisLongest = "";
    list.append(
      first,
      element(
        "li",
        "",
        counted(
          ngettext("%(count)s streak in all", "%(count)s streaks in all", streaks.length),
          streaks.length,
        ),
      ),
    );
    const breaks = streaks.map((streak) => streak.broken_by).filter((move) => move !== null);
    if (breaks.length) {
      const item = element("li");
      item.append(
        breaks.length === 1
          ? gettext("Broken by the draw at move ")
          : gettext("Broken by the draws at moves "),
      );
      breaks.forEach((move, i) => {
        if (i > 0) item.append(i === breaks.length - 1 ? gettext(" and ") : ", ");
        item.append(this.#move(move, { bare: true }));
      });
      if (streaks.at(-1).broken_by === null) {
        item.append(gettext("; the last ran to the end of the game"));
      }
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
    const text = bare
      ? String(number)
      : format(capital ? gettext("Move %(move)s") : gettext("move %(move)s"), { move: number });
    if (!this.jump) return element("span", "analysis__move", text);
    const button = element("button", "analysis__move analysis__move--jump", text);
    button.type = "button";
    button.dataset.jump = String(number);
    button.setAttribute(
      "aria-label",
      format(gettext("Move %(move)s, show it in the replay"), { move: number }),
    );
    button.addEventListener("click", () => this.jump(number));
    return button;
  }
}

/** One sentence for the live region once the analysis is in. */
export function analysisSentence({ par, par_exact: exact, share }) {
  const parText = format(exact ? gettext("par %(par)s") : gettext("par at least %(par)s"), { par });
  const shareText =
    typeof share === "number"
      ? format(gettext(": you scored %(share)s of par"), { share: percentText(percent(share)) })
      : "";
  return format(gettext("Analysis ready, %(par)s%(share)s."), { par: parText, share: shareText });
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
