// The Copy button of a daily result's share text ([data-share]): the clipboard API where the page
// may use it, else the old way, selecting the text box and copying the selection.

import { gettext } from "./i18n.js";

const CLIPBOARD_WAIT = 2000; // ms: a clipboard that has not answered by then is given up on

/** `promise`, or a rejection once `ms` have passed without it settling. */
function within(ms, promise) {
  return Promise.race([
    promise,
    new Promise((_, reject) => window.setTimeout(() => reject(new Error("timed out")), ms)),
  ]);
}

async function copy(text, box) {
  if (navigator.clipboard && window.isSecureContext) {
    try {
      await within(CLIPBOARD_WAIT, navigator.clipboard.writeText(text));
      return true;
    } catch {
      // Refused (no permission, the document lost focus) or no answer: fall back below.
    }
  }
  box.focus();
  box.select();
  try {
    return document.execCommand("copy");
  } catch {
    return false;
  }
}

export function startShareButtons(root = document) {
  for (const share of root.querySelectorAll("[data-share]")) {
    const box = share.querySelector("[data-share-text]");
    const button = share.querySelector("[data-share-copy]");
    const status = share.querySelector("[data-share-status]");
    if (!box || !button || !status) continue;
    button.addEventListener("click", async () => {
      const copied = await copy(box.value, box);
      status.textContent = copied ? gettext("Copied") : gettext("Select the text and copy it");
      share.dataset.copied = copied ? "yes" : "no";
    });
  }
}
