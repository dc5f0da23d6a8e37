// The player's display preferences, kept in localStorage and applied as classes on <html>:
// a four-colour deck, and whether cards animate (prefers-reduced-motion always wins).

const PREFERENCES = {
  "four-colour": { key: "tripeaks.four-colour", fallback: false, className: "four-colour" },
  // Stored as "animations on", applied as the class that turns them off.
  animations: {
    key: "tripeaks.animations",
    fallback: true,
    className: "no-motion",
    inverted: true,
  },
};

const reducedMotion = window.matchMedia("(prefers-reduced-motion: reduce)");

function read(name) {
  const { key, fallback } = PREFERENCES[name];
  try {
    const stored = window.localStorage.getItem(key);
    return stored === null ? fallback : stored === "1";
  } catch {
    return fallback; // storage can be blocked; the defaults then hold
  }
}

function write(name, value) {
  try {
    window.localStorage.setItem(PREFERENCES[name].key, value ? "1" : "0");
  } catch {
    // Not stored, but still applied to this page.
  }
}

function apply(name, value) {
  const { className, inverted } = PREFERENCES[name];
  document.documentElement.classList.toggle(className, inverted ? !value : value);
}

/** Apply the stored preferences, and wire up every [data-setting] checkbox under `root`. */
export function initSettings(root = document) {
  for (const name of Object.keys(PREFERENCES)) apply(name, read(name));
  for (const input of root.querySelectorAll("input[data-setting]")) {
    const name = input.dataset.setting;
    if (!(name in PREFERENCES)) continue;
    input.checked = read(name);
    input.addEventListener("change", () => {
      write(name, input.checked);
      apply(name, input.checked);
    });
  }
}

/** Whether cards may move: the system setting and the player's own toggle both allow it. */
export function motionAllowed() {
  return !reducedMotion.matches && !document.documentElement.classList.contains("no-motion");
}
