// A copy button for a link shown on the page (a race room's invite link): it copies the link
// with the Clipboard API and says so; where the browser will not, it selects the link for the
// player to copy. Hidden without scripts: the link itself is shown either way.

import { gettext } from "./i18n.js";

const SAID_MS = 3000;

/**
 * Wire `button` to copy the text of `link` (an element), saying what happened in `status`
 * (a role="status" element).
 */
export function bindCopyLink(button, link, status) {
  if (!button || !link) return;
  button.hidden = false;
  let timer = 0;
  const say = (text) => {
    window.clearTimeout(timer);
    if (!status) return;
    status.textContent = text;
    timer = window.setTimeout(() => {
      status.textContent = "";
    }, SAID_MS);
  };
  button.addEventListener("click", async () => {
    const text = link.textContent.trim();
    try {
      await navigator.clipboard.writeText(text);
      say(gettext("Link copied."));
    } catch {
      // No clipboard (an insecure page, a refusal): select the link so that a keystroke copies it.
      const range = document.createRange();
      range.selectNodeContents(link);
      const selection = window.getSelection();
      selection.removeAllRanges();
      selection.addRange(range);
      say(gettext("The link is selected: press Ctrl+C (or ⌘C) to copy it."));
    }
  });
}
