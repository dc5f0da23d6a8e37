// The player's board preferences: a four-colour deck, whether cards animate (prefers-reduced-motion
// always wins), whether drawing while a card fits asks first, and sound effects (off by default).
//
// Where they are kept depends on who plays. A signed-in player's are kept with their account: the
// game page brings the stored values (a JSON script named by data-preferences on the root, with
// data-signed-in="true" and data-settings-url), they are applied as they are, and a toggle flipped
// in the panel is saved to the server. A guest's, and those on pages that bring none, are kept in
// this browser's localStorage. Sound effects belong to the device rather than the player (a phone
// on a bus, a laptop at home): they are kept in this browser for everyone. Either way they reach the page through `apply`, which sets the
// classes on <html> and the value `preference` answers.

import { gettext } from "./i18n.js";

const PREFERENCES = {
  "four-colour": {
    field: "four_colour_deck",
    key: "tripeaks.four-colour",
    fallback: false,
    className: "four-colour",
  },
  // Stored as "animations on", applied as the class that turns them off.
  animations: {
    field: "animations",
    key: "tripeaks.animations",
    fallback: true,
    className: "no-motion",
    inverted: true,
  },
  // Behaviour only (see game-dialogs.js): no class.
  "confirm-draw": {
    field: "confirm_draw_when_play_fits",
    key: "tripeaks.confirm-draw",
    fallback: false,
  },
  // Behaviour only (see sounds.js), and kept in this browser even for a signed-in player.
  sounds: {
    key: "tripeaks.sounds",
    fallback: false,
    local: true,
  },
};

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");
const current = Object.fromEntries(
  Object.entries(PREFERENCES).map(([name, { fallback }]) => [name, fallback]),
);

/** The one way a preference takes effect on the page. */
function apply(name, value) {
  const { className, inverted } = PREFERENCES[name];
  current[name] = value;
  if (className) document.documentElement.classList.toggle(className, inverted ? !value : value);
}

/** The CSRF token Django keeps in its cookie, for the X-CSRFToken header. */
function csrfToken() {
  const cookie = document.cookie.split("; ").find((item) => item.startsWith("csrftoken="));
  return cookie ? decodeURIComponent(cookie.slice("csrftoken=".length)) : "";
}

/** Preferences kept in this browser; `defaults` (the server's, when the page has them) fill in. */
class BrowserStore {
  constructor(defaults = {}) {
    this.defaults = defaults;
  }

  read(name) {
    const { key, field, fallback } = PREFERENCES[name];
    const fill =
      field && typeof this.defaults[field] === "boolean" ? this.defaults[field] : fallback;
    try {
      const stored = window.localStorage.getItem(key);
      return stored === null ? fill : stored === "1";
    } catch {
      return fill; // storage can be blocked; the defaults then hold
    }
  }

  async write(name, value) {
    try {
      window.localStorage.setItem(PREFERENCES[name].key, value ? "1" : "0");
    } catch {
      // Not stored, but still applied to this page.
    }
    return true;
  }
}

/** A signed-in player's preferences: the values the page came with, saved back one at a time. */
class AccountStore {
  constructor(values, url) {
    this.values = values;
    this.url = url;
    this.queue = Promise.resolve(); // one save at a time, in the order the player made them
    this.browser = new BrowserStore(); // for the preferences kept in this browser (sounds)
  }

  read(name) {
    if (PREFERENCES[name].local) return this.browser.read(name);
    const { field, fallback } = PREFERENCES[name];
    return typeof this.values[field] === "boolean" ? this.values[field] : fallback;
  }

  /** Save one change; resolve to whether the server stored it. */
  write(name, value) {
    if (PREFERENCES[name].local) return this.browser.write(name, value);
    const { field } = PREFERENCES[name];
    const save = async () => {
      try {
        const response = await fetch(this.url, {
          method: "POST",
          headers: { "Content-Type": "application/json", "X-CSRFToken": csrfToken() },
          body: JSON.stringify({ [field]: value }),
          credentials: "same-origin",
          redirect: "error",
        });
        if (!response.ok) return false;
        this.values[field] = value;
        return true;
      } catch {
        return false; // the network failed
      }
    };
    const saved = this.queue.then(save);
    this.queue = saved;
    return saved;
  }
}

/** Where this page keeps the preferences: the account's when it brings them, else the browser. */
function storeFor(root) {
  const script = root.dataset.preferences && document.getElementById(root.dataset.preferences);
  let values = {};
  try {
    const parsed = script ? JSON.parse(script.textContent) : null;
    if (parsed && typeof parsed === "object") values = parsed;
  } catch {
    // Unreadable: fall back to what this browser keeps.
  }
  const url = root.dataset.settingsUrl;
  if (root.dataset.signedIn === "true" && url && script) return new AccountStore(values, url);
  return new BrowserStore(values);
}

/**
 * Apply the preferences, and wire up every [data-setting] checkbox under `root`. A change that the
 * account could not save is taken back, and the panel's [data-settings-status] says so.
 */
export function initSettings(root = document) {
  const store = storeFor(root instanceof HTMLElement ? root : document.documentElement);
  for (const name of Object.keys(PREFERENCES)) apply(name, store.read(name));
  const status = root.querySelector("[data-settings-status]");
  const latest = {}; // per preference, the number of the last change made
  for (const input of root.querySelectorAll("input[data-setting]")) {
    const name = input.dataset.setting;
    if (!(name in PREFERENCES)) continue;
    input.checked = current[name];
    input.addEventListener("change", async () => {
      const value = input.checked;
      const change = (latest[name] ?? 0) + 1;
      latest[name] = change;
      apply(name, value);
      if (status) status.textContent = "";
      const saved = await store.write(name, value);
      if (saved || latest[name] !== change) return; // stored, or a later change is on its way
      const kept = store.read(name);
      input.checked = kept;
      apply(name, kept);
      if (status) status.textContent = gettext("That change could not be saved. Please try again.");
    });
  }
}

/** The value of a preference on this page (after `initSettings`). */
export function preference(name) {
  return current[name];
}

/** Whether cards may move: the system setting and the player's own toggle both allow it. */
export function motionAllowed() {
  return !reducedMotion.matches && !document.documentElement.classList.contains("no-motion");
}
