"""Watching in a real browser: a player plays in one browser context while a spectator, in
another, finds the game on the live-now page and watches its board follow each move.

The player signs in through the sign-in page; the spectator is a guest. Where the test needs the
hidden cards it asks the engine, never a page.
"""

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from game.engine import Deal, GameState, Variant
from game.models import Game
from game.players import Player
from game.services import game_start
from tests.e2e.conftest import DESKTOP_VIEWPORT
from tests.e2e.layout import expect_no_sideways_scroll
from tests.e2e.test_play import PHONE, card_labels, click_move, expect_seq, screenshot
from tests.e2e.test_settings import make_player, sign_in

SEED = "watch-e2e-1"


def expect_watching(spectator: Page, seq: int) -> None:
    """Wait until the spectator's board shows the snapshot after ``seq`` moves."""
    expect(spectator.locator("[data-watch]")).to_have_attribute("data-seq", str(seq))


@pytest.mark.usefixtures("transactional_db")
def test_a_spectator_watches_the_board_follow_each_move(
    page: Page, browser: Browser, server_url: str
) -> None:
    ada = make_player("ada")
    sign_in(page, "ada")
    game = game_start(
        player=Player(user_id=ada.pk, guest_key=""), variant=Variant.TRIPEAKS, seed=SEED
    )
    page.goto(game.get_absolute_url())
    expect_seq(page, 0)
    expect(page.locator("[data-connection]")).to_have_attribute("data-state", "open")

    context = browser.new_context(base_url=server_url, viewport=DESKTOP_VIEWPORT)
    try:
        spectator = context.new_page()
        spectator.goto("/live/")
        row = spectator.locator("[data-live-rows] tr", has_text="ada")
        expect(row).to_have_count(1)
        row.get_by_role("link", name="Watch ada’s game").click()
        expect(spectator).to_have_url(re.compile(rf"/watch/{game.id}/$"))
        expect_watching(spectator, 0)
        expect(spectator.locator("[data-connection]")).to_have_attribute("data-state", "open")
        expect(spectator.get_by_role("heading", level=1)).to_have_text(re.compile("Watching ada"))

        # Read-only: every card and the stock are disabled, and they say what the player's say.
        for card in spectator.locator(".board__peaks .card").all():
            expect(card).to_be_disabled()
        expect(spectator.locator(".stock")).to_be_disabled()
        assert card_labels(spectator) == card_labels(page)

        state = GameState(Deal.from_seed(SEED), Variant.TRIPEAKS)
        while not state.status.is_over:
            click_move(page, state, state.legal_moves()[0])
            expect_watching(spectator, state.seq)
            assert card_labels(spectator) == card_labels(page)
            expect(spectator.locator('[data-hud="score"]')).to_have_text(str(state.score))
            expect(spectator.locator("[data-watch-stock]")).to_have_text(str(state.stock_count))
            if state.seq == 6:
                spectator.set_viewport_size(PHONE)
                expect_no_sideways_scroll(spectator)
                screenshot(spectator, "watch-phone")
                spectator.set_viewport_size(DESKTOP_VIEWPORT)

        over = spectator.locator("[data-watch-over]")
        expect(over).to_be_visible()
        expect(over.get_by_role("link", name="See the finished game")).to_have_attribute(
            "href", f"/games/{game.id}/"
        )
        screenshot(spectator, "watch-over")
        assert Game.objects.get(id=game.id).is_over
    finally:
        context.close()


@pytest.mark.usefixtures("transactional_db")
def test_the_live_now_page_fills_in_as_games_start(page: Page) -> None:
    """Empty at first, with its empty state; the list refreshes by itself (here, at once: the
    page refreshes whenever it becomes visible again) and shows the new game."""
    page.goto("/live/")
    expect(page.get_by_text("Nobody is playing a game that can be watched")).to_be_visible()
    expect(page.locator("[data-live-table]")).to_be_hidden()

    bea = make_player("bea")
    game = game_start(player=Player(user_id=bea.pk, guest_key=""), variant=Variant.TRIPEAKS)
    page.evaluate("document.dispatchEvent(new Event('visibilitychange'))")

    expect(page.locator("[data-live-rows] tr")).to_have_count(1)
    expect(page.locator("[data-live-count]")).to_have_text("1 game live now.")
    expect(page.locator("[data-live-empty]")).to_be_hidden()
    watch = page.get_by_role("link", name="Watch bea’s game")
    expect(watch).to_have_attribute("href", f"/watch/{game.id}/")
    page.set_viewport_size(PHONE)
    expect_no_sideways_scroll(page)
    expect(watch).to_be_visible()
    screenshot(page, "live-now-phone")
