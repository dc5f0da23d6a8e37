// Tables wider than the screen scroll sideways inside their .table-wrap. This marks each wrap that
// overflows (data-overflows) and whether it is scrolled to its end (data-at-end), so that CSS can
// fade the cut edge and say "scroll sideways" (site.css), and makes such a wrap reachable with the
// keyboard (tabindex, a named region) so that it can be scrolled with the arrow keys.

import { format, gettext } from "./i18n.js";

/** A name for the scrolling region: its table's, and that it scrolls (unlike the section's). */
function regionName(wrap) {
  const table = wrap.querySelector("table");
  const labelledBy = table?.getAttribute("aria-labelledby");
  const label = labelledBy
    ? document.getElementById(labelledBy)?.textContent
    : table?.caption?.textContent;
  return format(gettext("%(table)s, scrolls sideways"), {
    table: (label || gettext("Table")).trim(),
  });
}

/** Update the marks of one wrap from its sizes and scroll position. */
export function markOverflow(wrap) {
  const overflows = wrap.scrollWidth > wrap.clientWidth + 1;
  wrap.toggleAttribute("data-overflows", overflows);
  wrap.toggleAttribute("data-at-end", wrap.scrollLeft + wrap.clientWidth >= wrap.scrollWidth - 1);
  if (overflows) {
    wrap.tabIndex = 0;
    wrap.setAttribute("role", "region");
    if (!wrap.hasAttribute("aria-label")) wrap.setAttribute("aria-label", regionName(wrap));
  } else {
    wrap.removeAttribute("tabindex");
    wrap.removeAttribute("role");
  }
}

/** Watch every .table-wrap under `root`, now and as it resizes or scrolls. */
export function watchTables(root = document) {
  const wraps = root.querySelectorAll(".table-wrap");
  if (wraps.length === 0) return;
  const observer = new ResizeObserver((entries) => {
    for (const entry of entries) markOverflow(entry.target);
  });
  for (const wrap of wraps) {
    observer.observe(wrap);
    const table = wrap.querySelector("table");
    if (table) observer.observe(table);
    wrap.addEventListener("scroll", () => markOverflow(wrap), { passive: true });
  }
}

watchTables();
