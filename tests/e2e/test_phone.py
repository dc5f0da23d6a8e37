"""Phone-first play: the game fits the screen at a desktop's, an upright phone's and a sideways
phone's size, and every link of the menu can be reached at each.

"On screen" is judged by the boxes the browser lays out: every one of the 28 places of the peaks,
the stock, the waste, the numbers above the board and the game's actions lies wholly inside the
window, with the page scrolled to its top and nowhere sideways. Screenshots go to SCREENSHOT_DIR,
outside the repository, for a person to look at.
"""

import re
from typing import Any

import pytest
from playwright.sync_api import Browser, FloatRect, Locator, Page, ViewportSize, expect

from tests.e2e.layout import expect_no_sideways_scroll
from tests.e2e.test_play import SCREENSHOT_DIR, expect_seq, start_game

SIZES: dict[str, ViewportSize] = {
    "desktop": {"width": 1280, "height": 800},
    "phone": {"width": 360, "height": 740},
    "landscape": {"width": 740, "height": 360},
    # In between and around: a small tablet upright, a short laptop window, a narrow desktop
    # window, a small phone either way up.
    "tablet": {"width": 600, "height": 900},
    "short-laptop": {"width": 1024, "height": 560},
    "narrow-window": {"width": 900, "height": 640},
    "small-phone": {"width": 320, "height": 568},
    "small-landscape": {"width": 568, "height": 320},
}

# The parts of the game that must be on screen at once while playing.
GAME_PARTS = {
    "numbers": "dl.hud",
    "stock": ".stock",
    "waste": ".waste",
    "give up": "[data-abandon]",
    "settings": ".game__tools .settings summary",
}

# The sum of the layout shifts that no input caused, since the page began to load.
LAYOUT_SHIFT = """() => new Promise((resolve) => {
  let total = 0;
  new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) if (!entry.hadRecentInput) total += entry.value;
  }).observe({ type: "layout-shift", buffered: true });
  requestAnimationFrame(() => requestAnimationFrame(() => resolve(total)));
})"""


def screenshot(page: Page, name: str) -> None:
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOT_DIR / f"{name}.png")


def box_of(locator: Locator) -> FloatRect:
    box = locator.bounding_box()
    assert box is not None, f"{locator} is not laid out"
    return box


def off_screen(box: FloatRect, size: ViewportSize) -> bool:
    """Whether any part of ``box`` lies outside a window of ``size`` (half a pixel of rounding
    allowed)."""
    return (
        box["x"] < -0.5
        or box["y"] < -0.5
        or box["x"] + box["width"] > size["width"] + 0.5
        or box["y"] + box["height"] > size["height"] + 0.5
    )


def parts_off_screen(page: Page, size: ViewportSize, *, over: bool = False) -> list[str]:
    """The names of the game's parts that are not wholly on screen (once the game is ``over``,
    its actions have gone)."""
    parts = {
        name: selector for name, selector in GAME_PARTS.items() if not over or name != "give up"
    }
    missing = [
        name for name, selector in parts.items() if off_screen(box_of(page.locator(selector)), size)
    ]
    cards = page.locator(".board__peaks .card")
    expect(cards).to_have_count(28)
    for position in range(28):
        if off_screen(box_of(cards.nth(position)), size):
            missing.append(f"card {position}")
    return missing


@pytest.mark.parametrize("size", SIZES)
def test_the_whole_game_is_on_screen(page: Page, size: str) -> None:
    """Numbers, all 28 cards, stock, waste and actions, without scrolling; the board's place was
    kept for it before it was built, so nothing moved when it was."""
    viewport = SIZES[size]
    page.set_viewport_size(viewport)
    start_game(page)
    page.evaluate("window.scrollTo(0, 0)")

    assert parts_off_screen(page, viewport) == []
    expect_no_sideways_scroll(page)
    assert page.evaluate(LAYOUT_SHIFT) < 0.01
    screenshot(page, f"fit-{size}")


def test_an_upright_phone_gives_the_table_its_width_and_folds_the_header(page: Page) -> None:
    """At 360 px the ten cards of the bottom row span nearly the window, and the header is one
    slim row with a menu button instead of the links."""
    page.set_viewport_size(SIZES["phone"])
    start_game(page)

    bottom = page.locator(".board__peaks .card")
    left, right = box_of(bottom.nth(18)), box_of(bottom.nth(27))
    assert right["x"] + right["width"] - left["x"] >= 0.9 * SIZES["phone"]["width"]
    assert left["width"] >= 32
    assert box_of(page.locator(".site-header"))["height"] <= 64
    expect(page.locator("[data-menu-button]")).to_be_visible()
    expect(page.get_by_role("navigation", name="Main")).to_be_hidden()


@pytest.mark.parametrize("size", ["desktop", "landscape"])
def test_the_final_table_can_be_seen_behind_the_game_over_panel(page: Page, size: str) -> None:
    """The panel folds away to one button and the whole table is on screen; it unfolds again."""
    viewport = SIZES[size]
    page.set_viewport_size(viewport)
    start_game(page)
    page.get_by_role("button", name="Give up").click()
    page.get_by_role("dialog").get_by_role("button", name="Give up").click()
    panel = page.locator("[data-game-over]")
    expect(panel).to_be_visible()
    expect(panel.get_by_role("heading", name="Game given up")).to_be_visible()

    fold = panel.get_by_role("button", name="See the table")
    expect(fold).to_have_attribute("aria-expanded", "true")
    fold.click()

    unfold = panel.get_by_role("button", name="Show the result")
    expect(unfold).to_have_attribute("aria-expanded", "false")
    expect(unfold).to_be_focused()
    expect(panel.get_by_role("heading", name="Game given up")).to_be_hidden()
    # Nothing of the table is under what is left of the panel but, at most, the foot of the felt.
    folded = box_of(panel)
    peaks = box_of(page.locator(".board__peaks"))
    assert folded["y"] >= peaks["y"] + peaks["height"] - 1
    assert parts_off_screen(page, viewport, over=True) == []
    screenshot(page, f"over-folded-{size}")

    unfold.click()
    expect(panel.get_by_role("heading", name="Game given up")).to_be_visible()
    expect(panel.get_by_role("button", name="See the table")).to_have_attribute(
        "aria-expanded", "true"
    )


# Calls the page's own module, as the game-over panel does when a game is won.
CELEBRATE = """async () => {
  const { celebrate } = await import("/static/js/celebrate.js");
  const felt = document.querySelector(".game__felt");
  return [celebrate(felt), felt.querySelectorAll(".celebration__piece").length];
}"""


@pytest.mark.parametrize("motion", ["no-preference", "reduce"])
def test_a_win_is_celebrated_only_where_motion_is_welcome(page: Page, motion: Any) -> None:
    page.emulate_media(reduced_motion=motion)
    start_game(page)

    celebrated, pieces = page.evaluate(CELEBRATE)

    if motion == "reduce":
        assert (celebrated, pieces) == (False, 0)
    else:
        assert celebrated is True
        assert pieces > 0
        # Decorative: hidden from screen readers, and never in the way of a click.
        layer = page.locator(".celebration")
        expect(layer).to_have_attribute("aria-hidden", "true")
        assert layer.evaluate("node => getComputedStyle(node).pointerEvents") == "none"
        page.locator(".stock").click()
        expect_seq(page, 1)


def menu_links(page: Page) -> list[str]:
    """The names of the links and buttons of the main menu, as the page lists them."""
    nav = page.locator("#site-nav")
    return nav.locator("a, button").evaluate_all("nodes => nodes.map((n) => n.textContent.trim())")


@pytest.mark.parametrize("size", ["desktop", "phone", "landscape"])
@pytest.mark.parametrize("where", ["/", "game"])
def test_every_menu_link_is_reachable(page: Page, size: str, where: str) -> None:
    """Each link of the menu can be clicked, on a page and during a game: at once where the links
    fit, after opening the menu button where they do not."""
    viewport = SIZES[size]
    page.set_viewport_size(viewport)
    if where == "game":
        start_game(page)
    else:
        page.goto(where)
    names = menu_links(page)
    assert {"Home", "Daily", "Races", "Leaderboards", "Live now", "Sign in"} <= set(names)
    button = page.locator("[data-menu-button]")
    nav = page.get_by_role("navigation", name="Main")

    for name in names:
        if button.is_visible():
            expect(button).to_have_attribute("aria-expanded", "false")
            button.click()
            expect(button).to_have_attribute("aria-expanded", "true")
        link = nav.get_by_role("link", name=name, exact=True)
        link.scroll_into_view_if_needed()
        expect(link).to_be_visible()
        assert not off_screen(box_of(link), viewport), name
        link.click(trial=True)  # visible, still, and nothing lies over it
        if button.is_visible():
            page.keyboard.press("Escape")
            expect(button).to_have_attribute("aria-expanded", "false")
            expect(button).to_be_focused()
    if size == "phone":
        screenshot(page, f"menu-{where.strip('/') or 'home'}-{size}")


def test_the_menu_button_works_from_the_keyboard(page: Page, server_url: str) -> None:
    page.set_viewport_size(SIZES["phone"])
    page.goto("/")
    button = page.get_by_role("button", name="Menu")
    button.focus()
    page.keyboard.press("Enter")
    expect(button).to_have_attribute("aria-expanded", "true")
    nav = page.get_by_role("navigation", name="Main")
    expect(nav).to_be_visible()
    screenshot(page, "menu-open-phone")

    page.keyboard.press("Tab")
    expect(nav.get_by_role("link", name="Home")).to_be_focused()
    page.keyboard.press("Enter")
    expect(page).to_have_url(f"{server_url}/")


def test_without_scripts_every_link_is_laid_out(browser: Browser, server_url: str) -> None:
    """With scripting off there is no menu button: the links wrap in rows, each one visible."""
    context = browser.new_context(
        base_url=server_url, viewport=SIZES["phone"], java_script_enabled=False
    )
    try:
        page = context.new_page()
        page.goto("/")
        expect(page.locator("[data-menu-button]")).to_be_hidden()
        nav = page.get_by_role("navigation", name="Main")
        for link in nav.get_by_role("link").all():
            expect(link).to_be_visible()
        expect_no_sideways_scroll(page)
        names = {re.sub(r"\s+", " ", text) for text in nav.get_by_role("link").all_inner_texts()}
        assert {"Home", "Daily", "Races", "Leaderboards"} <= names
    finally:
        context.close()
