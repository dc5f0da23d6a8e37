// The live-now list: polled from the server (data-source, JSON) every little while the page is
// visible, and rebuilt with textContent. The count above the table is a status region, changed
// only when the count changes, so that screen readers hear of games coming and going, no more.

import { format, gettext, ngettext } from "./i18n.js";

const POLL_MS = 15000;

function cell(content, className = "") {
  const td = document.createElement("td");
  td.append(content);
  if (className) td.className = className;
  return td;
}

function link(href, text, className = "") {
  const a = document.createElement("a");
  a.href = href;
  a.textContent = text;
  if (className) a.className = className;
  return a;
}

function startedAt(iso) {
  const time = document.createElement("time");
  time.dateTime = iso;
  time.textContent = new Date(iso).toISOString().slice(11, 16); // HH:MM, UTC as the page says
  return time;
}

/** One table row for a game of the list (see spectate.views.live_json). */
export function liveRow(game) {
  const tr = document.createElement("tr");
  const watch = link(
    game.watch_url,
    gettext("Watch"),
    "button button--secondary live-table__watch",
  );
  watch.setAttribute(
    "aria-label",
    format(gettext("Watch %(player)s’s game"), { player: game.player }),
  );
  tr.append(
    cell(link(game.player_url, game.player)),
    cell(game.variant),
    cell(String(game.score)),
    cell(String(game.cards_left)),
    cell(String(game.moves), "live-table__extra"),
    cell(startedAt(game.started_at), "live-table__extra"),
    cell(watch),
  );
  return tr;
}

export function countText(count) {
  if (count === 0) return "";
  return format(ngettext("%(count)s game live now.", "%(count)s games live now.", count), {
    count,
  });
}

export class LiveNow {
  constructor(root) {
    this.root = root;
    this.rows = root.querySelector("[data-live-rows]");
    this.table = root.querySelector("[data-live-table]");
    this.empty = root.querySelector("[data-live-empty]");
    this.count = root.querySelector("[data-live-count]");
    this.timer = 0;
  }

  start() {
    document.addEventListener("visibilitychange", () => {
      window.clearTimeout(this.timer);
      if (document.visibilityState === "visible") this.refresh();
    });
    this.#schedule();
  }

  async refresh() {
    window.clearTimeout(this.timer);
    try {
      const response = await fetch(this.root.dataset.source, {
        headers: { Accept: "application/json" },
        credentials: "same-origin",
      });
      if (response.ok) this.draw((await response.json()).games);
    } catch {
      // The network failed: keep the list shown and try again later.
    }
    this.#schedule();
  }

  draw(games) {
    this.rows.replaceChildren(...games.map(liveRow));
    this.table.hidden = games.length === 0;
    this.empty.hidden = games.length > 0;
    const text = countText(games.length);
    if (this.count.textContent !== text) this.count.textContent = text;
    this.root.dataset.refreshed = String(Date.now()); // for tests: a poll came back
  }

  #schedule() {
    if (document.visibilityState === "visible") {
      this.timer = window.setTimeout(() => this.refresh(), POLL_MS);
    }
  }
}

export function startLiveNow(root) {
  if (root) new LiveNow(root).start();
}
