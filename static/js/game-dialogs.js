// The game page's questions: give up the game, and draw while a card on the peaks fits (asked of a
// player who wants to be asked). Each is a <dialog> whose form answers "confirm" or "cancel".

import { format, gettext, ngettext } from "./i18n.js";
import { preference } from "./settings.js";

/** Call `action` each time `dialog` closes with the answer "confirm". */
export function onConfirm(dialog, action) {
  dialog.addEventListener("close", () => {
    if (dialog.returnValue === "confirm") action();
  });
}

/** The give-up button opens its question; `giveUp` runs once the player confirms. */
export function bindGiveUp(button, dialog, giveUp) {
  button.addEventListener("click", () => dialog.showModal());
  onConfirm(dialog, giveUp);
}

/** Close every open one of `dialogs` without an answer (the game is over: nothing to ask). */
export function closeDialogs(dialogs) {
  for (const dialog of dialogs) {
    if (dialog.open) dialog.close("cancel");
  }
}

/** What the question before a draw says fits: "2 cards on the peaks fit the waste." */
export function fitsText(count) {
  if (count === 0) return gettext("No card on the peaks fits the waste any more.");
  if (count === 1) return gettext("A card on the peaks fits the waste.");
  const text = ngettext(
    "%(count)s card on the peaks fits the waste.",
    "%(count)s cards on the peaks fit the waste.",
    count,
  );
  return format(text, { count });
}

/** Keep an open question before a draw true to `view`. */
export function updateDrawQuestion(dialog, view) {
  if (dialog.open) showFits(dialog, view);
}

/**
 * Before a draw in `view`: ask, if the player wants to be asked and a card fits; say whether the
 * question is (now or already) open, in which case the draw waits for its answer.
 */
export function askBeforeDraw(dialog, view) {
  if (!preference("confirm-draw") || view.playable.length === 0) return false;
  if (dialog.open) return true;
  showFits(dialog, view);
  // Some browsers keep the last answer when Escape closes a dialog: it must not be "confirm".
  dialog.returnValue = "";
  dialog.showModal();
  return true;
}

function showFits(dialog, view) {
  dialog.querySelector("[data-draw-fits]").textContent = fitsText(view.playable.length);
}
