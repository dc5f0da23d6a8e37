"""The interactive tutorial in a real browser: a short run on a practice deal, step by step."""

import os
import re
import tempfile
from pathlib import Path

from playwright.sync_api import Page, ViewportSize, expect

from game.tutorial import STEPS, tutorial_frames
from tests.e2e.layout import expect_no_sideways_scroll

SCREENSHOT_DIR = Path(
    os.environ.get("TRIPEAKS_SCREENSHOTS", Path(tempfile.gettempdir()) / "tripeaks-screenshots")
)
PHONE: ViewportSize = {"width": 360, "height": 740}
TARGET = ".board .card--target, .board .stock--target"


def screenshot(page: Page, name: str) -> None:
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOT_DIR / f"{name}.png", full_page=True)


def test_the_tutorial_is_played_by_clicking_what_each_step_asks_for(page: Page) -> None:
    """Each step names a card; clicking it plays on to the next, up to a cleared peak."""
    frames = tutorial_frames()
    page.goto("/")
    page.get_by_role("navigation", name="Main").get_by_role("link", name="Tutorial").click()
    expect(page.get_by_role("heading", level=1)).to_have_text(f"Learn TriPeaks in {STEPS} steps")
    coach = page.locator("[data-coach]")
    expect(coach.locator('[data-t="title"]')).to_have_text("Opening position")
    expect(page.locator(".board__peaks .card--playable")).to_have_count(4)
    screenshot(page, "tutorial-start-desktop")

    page.get_by_role("button", name="Next").click()

    for number, frame in enumerate(frames[1:-1], start=1):
        expect(coach.locator('[data-t="title"]')).to_have_text(frame["title"])
        expect(coach.locator('[data-t="progress"]')).to_have_text(
            f"Step {frame['step']} of {STEPS}"
        )
        target = page.locator(TARGET)
        expect(target).to_have_count(1)
        if frame["move"] == "draw":
            expect(target).to_have_attribute("data-stock", "")
        else:
            expect(target).to_have_attribute("aria-label", re.compile(r"play this card$"))
        target.click()
        expect(page.locator('[data-hud="score"]')).to_have_text(
            str(frames[number + 1]["view"]["score"])
        )

    expect(coach.locator('[data-t="title"]')).to_have_text("Peak cleared")
    expect(page.locator('[data-hud="peaks"]')).to_have_text("1/3")
    expect(page.locator('[data-hud="score"]')).to_have_text("440")
    expect(page.get_by_role("button", name="Play a real game")).to_be_visible()
    screenshot(page, "tutorial-done-desktop")


def test_a_wrong_card_gets_a_hint_and_back_goes_back(page: Page) -> None:
    """Clicking another card than the one asked for explains, and changes nothing."""
    page.goto("/tutorial/")
    page.get_by_role("button", name="Next").click()
    expect(page.locator('[data-t="title"]')).to_have_text("Playing up")

    page.locator(".board__peaks .card--playable:not(.card--target)").first.click()

    expect(page.locator('[data-t="hint"]')).to_have_text("Not that one: this step asks for the 8♦.")
    expect(page.locator('[data-t="title"]')).to_have_text("Playing up")
    expect(page.locator('[data-hud="score"]')).to_have_text("0")
    page.get_by_role("button", name="Back").click()
    expect(page.locator('[data-t="title"]')).to_have_text("Opening position")


def test_the_tutorial_by_keyboard_on_a_phone(page: Page) -> None:
    """On a 360 px phone the tutorial fits without sideways scrolling, and Enter plays the card
    the step asks for once focus is on it."""
    page.set_viewport_size(PHONE)
    page.goto("/tutorial/")
    page.get_by_role("button", name="Next").click()
    target = page.locator(TARGET)

    target.focus()
    page.keyboard.press("Enter")

    expect(page.locator('[data-t="title"]')).to_have_text("Playing down")
    page.locator(TARGET).focus()
    page.keyboard.press("Space")
    expect(page.locator('[data-t="title"]')).to_have_text("A streak")
    expect_no_sideways_scroll(page)
    screenshot(page, "tutorial-phone")
