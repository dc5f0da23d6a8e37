"""The daily challenge in a real browser: sign up, play today's deal to the end, and find yourself
on the day's board, which a second tab sees change live.

As in test_play.py, the test reads the game's seed from the database to know the hidden cards;
the page never shows them.
"""

import re
import uuid

import pytest
from playwright.sync_api import Page, expect

from game.engine import Deal, GameState, Variant
from game.models import Game, Mode
from leaderboard.models import DailyAttempt
from tests.e2e.layout import expect_no_sideways_scroll
from tests.e2e.test_play import GAME_URL, PHONE, expect_seq, play_out, screenshot

PASSWORD = "peaks-and-valleys-42"


def sign_up(page: Page, username: str) -> None:
    page.goto("/accounts/signup/")
    page.fill('input[name="username"]', username)
    page.fill('input[name="password1"]', PASSWORD)
    page.fill('input[name="password2"]', PASSWORD)
    page.get_by_role("button", name="Create account").click()
    expect(page).to_have_url(re.compile(r"/accounts/profile/$"))


@pytest.mark.usefixtures("transactional_db")
def test_sign_up_play_the_daily_and_see_yourself_on_the_board(page: Page) -> None:
    page.emulate_media(reduced_motion="reduce")
    page.context.grant_permissions(["clipboard-read", "clipboard-write"])
    sign_up(page, "dailyplayer")

    page.get_by_role("navigation", name="Main").get_by_role("link", name="Daily").click()
    expect(page.get_by_role("heading", level=1)).to_have_text("Daily challenge")
    expect(page.locator("[data-countdown]")).to_have_text(re.compile(r"\d+ (h|min|s)"))
    # The proof is in plain words; the fingerprint behind "How we prove it".
    page.get_by_text("How we prove it").click()
    expect(page.locator("[data-commitment]")).to_be_visible()
    commitment = page.locator("[data-commitment]").inner_text()

    # A second tab watches today's board while the first one plays.
    watcher = page.context.new_page()
    watcher.goto("/daily/")
    expect(watcher.locator("[data-daily-board]")).to_have_attribute("data-live", "open")
    expect(watcher.locator("[data-board-empty]")).to_be_visible()
    page.bring_to_front()  # a background tab's timers and frames are throttled

    page.get_by_role("button", name="Start today's challenge").click()
    expect(page).to_have_url(GAME_URL)
    match = GAME_URL.search(page.url)
    assert match is not None
    game = Game.objects.get(id=uuid.UUID(match[1]))
    assert game.mode == Mode.DAILY
    assert DailyAttempt.objects.filter(game=game, user__username="dailyplayer").exists()
    expect_seq(page, 0)
    expect(page.locator("[data-connection]")).to_have_attribute("data-state", "open")
    expect(page.locator("[data-hint]")).to_be_hidden()

    state = GameState(Deal.from_seed(game.seed), Variant(game.variant))
    play_out(page, state)

    panel = page.locator("[data-game-over]")
    expect(panel).to_be_visible()
    expect(panel.locator('[data-over="score"]')).to_have_text(str(state.score))

    # The watching tab got the new board without a reload.
    live_row = watcher.locator("[data-daily-board] tr.board-row--me")
    expect(live_row).to_contain_text("dailyplayer")
    expect(live_row).to_contain_text(str(state.score))
    watcher.close()

    panel.get_by_role("link", name="The daily board").click()
    expect(page).to_have_url(re.compile(r"/daily/$"))
    mine = page.locator("[data-daily-board] tr.board-row--me")
    expect(mine).to_have_count(1)
    expect(mine).to_contain_text("dailyplayer")
    expect(mine.locator("td").first).to_have_text("1")
    expect(page.locator("[data-daily-result]")).to_contain_text(f"{state.score} point")
    assert page.locator("[data-commitment]").text_content() == commitment
    assert game.seed not in page.content()

    share = page.locator("[data-share-text]")
    expect(share).to_have_value(re.compile(r"^TriPeaks Online daily \d{4}-\d\d-\d\d — "))
    page.get_by_role("button", name="Copy").click()
    expect(page.locator("[data-share-status]")).to_have_text("Copied")
    assert page.evaluate("navigator.clipboard.readText()") == share.input_value()
    screenshot(page, "daily-after-attempt-desktop")

    # No second ranked attempt: the start button is gone, the replay is unranked.
    expect(page.get_by_role("button", name="Start today's challenge")).to_have_count(0)
    page.get_by_role("button", name=re.compile("Play today's deal again")).click()
    expect(page).to_have_url(GAME_URL)
    assert DailyAttempt.objects.filter(user__username="dailyplayer").count() == 1


@pytest.mark.parametrize("path", ["/daily/", "/daily/archive/", "/leaderboards/"])
def test_the_daily_and_leaderboard_pages_fit_a_phone(page: Page, path: str) -> None:
    """At 360 px wide nothing scrolls sideways, the 64-digit fingerprint included."""
    page.set_viewport_size(PHONE)
    response = page.goto(path)
    assert response is not None
    assert response.status == 200
    expect_no_sideways_scroll(page)
    screenshot(page, f"phone{path.replace('/', '-').rstrip('-')}")
