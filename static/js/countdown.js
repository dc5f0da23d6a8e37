// Countdowns to a moment: every [data-countdown] element shows the time left until its
// data-ends-at (ms since the epoch, UTC), updated each second. The server renders a rough figure
// first, so the page says something without JavaScript.

import { format, gettext } from "./i18n.js";

function pad(number) {
  return String(number).padStart(2, "0");
}

/** "5 h 03 min 09 s", "3 min 09 s", "9 s". */
export function timeLeft(ms) {
  const total = Math.max(0, Math.ceil(ms / 1000));
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor((total % 3600) / 60);
  const seconds = total % 60;
  if (hours) {
    return format(gettext("%(hours)s h %(minutes)s min %(seconds)s s"), {
      hours,
      minutes: pad(minutes),
      seconds: pad(seconds),
    });
  }
  if (minutes) {
    return format(gettext("%(minutes)s min %(seconds)s s"), { minutes, seconds: pad(seconds) });
  }
  return format(gettext("%(seconds)s s"), { seconds });
}

function tick(element, endsAt) {
  const left = endsAt - Date.now();
  if (left <= 0) {
    element.textContent = gettext("now: reload the page for the new challenge");
    element.dataset.countdownDone = "";
    return false;
  }
  element.textContent = timeLeft(left);
  return true;
}

export function startCountdowns(root = document) {
  for (const element of root.querySelectorAll("[data-countdown]")) {
    const endsAt = Number(element.dataset.endsAt);
    if (!Number.isFinite(endsAt)) continue;
    if (!tick(element, endsAt)) continue;
    const timer = window.setInterval(() => {
      if (!tick(element, endsAt)) window.clearInterval(timer);
    }, 1000);
  }
}
