"""Checks of a page's layout shared by the browser tests."""

import contextlib

from playwright.sync_api import Page
from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

SETTLE_MS = 2_000
"""How long a page may take to lay itself out again after a resize or a change."""

STEADY_MS = 300
"""How long a page must have fitted its window, frame after frame, to count as laid out."""

FITS_STEADILY = """(steadyMs) => {
    const now = performance.now();
    if (document.documentElement.scrollWidth > innerWidth) {
        window.__fitsSince = null;
        return false;
    }
    window.__fitsSince ??= now;
    return now - window.__fitsSince >= steadyMs;
}"""
"""True once the page has fitted its window in every frame for steadyMs (polled each frame)."""

STICKING_OUT = """() => [...document.querySelectorAll("body *")]
    .filter((el) => {
        const box = el.getBoundingClientRect();
        return box.right > innerWidth + 0.5 || box.left + el.scrollWidth > innerWidth + 0.5;
    })
    .slice(-8)
    .map((el) => {
        const box = el.getBoundingClientRect();
        return `${el.tagName.toLowerCase()}.${[...el.classList].join(".")}`
            + ` (right edge ${Math.round(box.right)} px,`
            + ` content to ${Math.round(box.left + el.scrollWidth)} px)`;
    })"""
"""The elements whose box or content reaches past the window, by tag and classes: the last eight
in document order, which puts the deepest culprits after the ancestors that contain them."""


def expect_no_sideways_scroll(page: Page) -> None:
    """Nothing on the page sticks out sideways once its layout has caught up with the window.

    Right after a resize Chromium lays out a few frames on the way to the new width (text sized
    in container units, then a board sized by a resize observer: the page can fit, overflow by a
    few pixels, then fit for good), which nobody sees. So the page must fit for STEADY_MS on end
    before it is measured; a page that stays wider than its window fails, saying by how much and
    what sticks out.
    """
    page.evaluate("window.__fitsSince = null")
    with contextlib.suppress(PlaywrightTimeoutError):
        page.wait_for_function(FITS_STEADILY, arg=STEADY_MS, timeout=SETTLE_MS)
    scroll_width, inner_width = page.evaluate("[document.documentElement.scrollWidth, innerWidth]")
    assert scroll_width <= inner_width, (
        f"{scroll_width} px of page in a {inner_width} px window; sticking out: "
        + ", ".join(page.evaluate(STICKING_OUT))
    )
