"""A race in two real browsers: one player opens a room, another joins, the host starts, both
play, each sees the other's progress live, and the results come when the race is over.

As in test_play.py, the test reads the deal from the database to know the hidden cards; the
pages never show them.
"""

import re
from collections.abc import Iterator
from contextlib import contextmanager

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Browser, Page, expect

from game.engine import Deal, GameState, Variant
from races.models import Room, Round
from tests.e2e.conftest import DESKTOP_VIEWPORT
from tests.e2e.layout import expect_no_sideways_scroll
from tests.e2e.test_axe import violations
from tests.e2e.test_play import PHONE, click_move, expect_seq, play_out, screenshot

PASSWORD = "peaks-and-valleys-42"
ROOM_URL = re.compile(r"/races/([A-Za-z0-9_-]{12})/$")


def sign_in(page: Page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(re.compile(r"/accounts/profile/$"))


@contextmanager
def two_signed_in(
    page: Page, browser: Browser, server_url: str, first: str, second: str
) -> Iterator[Page]:
    """Accounts ``first`` and ``second``, signed in: the first on ``page``, the second on the page
    yielded, in a browser context of its own; both without motion."""
    for username in (first, second):
        User.objects.create_user(username=username, password=PASSWORD)
    page.emulate_media(reduced_motion="reduce")
    context = browser.new_context(base_url=server_url, viewport=DESKTOP_VIEWPORT)
    try:
        other = context.new_page()
        other.emulate_media(reduced_motion="reduce")
        sign_in(page, first)
        sign_in(other, second)
        yield other
    finally:
        context.close()


FIELDS = {1: "status", 2: "cards-left", 3: "score", 4: "streak", 5: "peaks", 6: "moves"}


def racer_row(page: Page, player: str):
    """A racer's line in the room's strip of racers."""
    return page.locator(f'[data-racers] li[data-player="{player}"]')


def racer_cell(page: Page, player: str, column: int):
    """A figure of a racer's line: 1 status, 2 cards left, 3 score, 4 streak, 5 peaks, 6 moves."""
    return racer_row(page, player).locator(f'[data-field="{FIELDS[column]}"]')


@pytest.mark.usefixtures("transactional_db")
def test_two_players_race_and_see_each_other(page: Page, browser: Browser, server_url: str) -> None:
    with two_signed_in(page, browser, server_url, "hostess", "rival") as rival:
        # The host opens a public room from the lobby.
        page.goto("/races/")
        page.get_by_role("button", name="Open a room").click()
        expect(page).to_have_url(ROOM_URL)
        room = Room.objects.get(host__username="hostess")
        expect(page.locator(".race__header [data-connection]")).to_have_attribute(
            "data-state", "open"
        )

        # The invite link copies with one button.
        page.context.grant_permissions(["clipboard-read", "clipboard-write"])
        page.get_by_role("button", name="Copy link").click()
        expect(page.locator("[data-copy-status]")).to_have_text("Link copied.")
        assert page.evaluate("navigator.clipboard.readText()") == page.url

        # The rival finds it in the lobby and joins; the host sees them arrive.
        rival.goto("/races/")
        rival.get_by_role("link", name="hostess's room").click()
        expect(rival).to_have_url(ROOM_URL)
        expect(rival.locator(".race__header [data-connection]")).to_have_attribute(
            "data-state", "open"
        )
        rival.get_by_role("button", name="Join the race").click()
        expect(racer_row(page, "rival")).to_be_visible()
        expect(rival.get_by_role("button", name="Leave the room")).to_be_visible()
        expect(rival.get_by_role("button", name="Start the race")).to_be_hidden()

        # The host starts: both pages bring their board, and the countdown runs out, large over
        # the host's board (seconds, then "Go!").
        page.get_by_role("button", name="Start the race").click()
        countdown = page.locator("[data-race-countdown]")
        expect(countdown).to_have_text(re.compile(r"^(\d+|Go!)$"), timeout=10_000)
        screenshot(page, "race-countdown")
        expect(countdown).to_be_hidden(timeout=15_000)
        for each in (page, rival):
            expect_seq(each, 0)
            expect(each.locator("[data-race-status]")).to_contain_text("Go!", timeout=15_000)
            expect(each.locator("[data-game] [data-connection]")).to_have_attribute(
                "data-state", "open"
            )
        # The racer's own board comes first: on screen at once, below the strip of racers.
        expect(page.locator("[data-game] [data-board]")).to_be_in_viewport()
        expect(racer_row(page, "rival")).to_be_in_viewport()
        round_ = Round.objects.get(room=room, number=1)
        host_state = GameState(Deal.from_seed(round_.seed), Variant.TRIPEAKS)
        rival_state = GameState(Deal.from_seed(round_.seed), Variant.TRIPEAKS)
        screenshot(page, "race-started")
        assert violations(page) == []

        # A few moves each; each sees the other's figures change.
        for _ in range(3):
            click_move(page, host_state, host_state.legal_moves()[0])
        expect(racer_cell(rival, "hostess", 6)).to_have_text("3")
        expect(racer_cell(rival, "hostess", 3)).to_have_text(str(host_state.score))
        expect(racer_cell(rival, "hostess", 2)).to_have_text(str(host_state.cards_left))
        for _ in range(2):
            click_move(rival, rival_state, rival_state.legal_moves()[0])
        expect(racer_cell(page, "rival", 6)).to_have_text("2")

        # No face-down card of the host's reached the rival's page.
        rival_html = rival.content()
        assert round_.seed not in rival_html

        # The host plays to the end; the rival leaves; both see the results.
        play_out(page, host_state)
        expect(racer_cell(rival, "hostess", 1)).to_have_text(
            "won" if host_state.status.value == "won" else "no more moves"
        )
        rival.get_by_role("button", name="Leave the room").click()
        for each in (page, rival):
            results = each.locator("[data-results]")
            expect(results).to_be_visible()
            expect(results.locator("tbody tr")).to_have_count(2)
            expect(results.locator("tbody tr").first).to_contain_text("hostess")
            expect(results.locator("tbody tr").nth(1)).to_contain_text("left")
            expect(results).to_be_in_viewport()  # brought into view, never "above" out of sight
        expect(page.get_by_role("button", name="Rematch: a new deal")).to_be_visible()
        assert violations(page) == []
        page.set_viewport_size(PHONE)
        screenshot(page, "race-results-phone")
        expect_no_sideways_scroll(page)
        page.set_viewport_size(DESKTOP_VIEWPORT)

        # A rematch: the host's board moves on to the new round's game, on the same page.
        page.evaluate("window.__samePage = true")
        board = page.locator("[data-game]")
        first_game = board.get_attribute("data-game-id") or ""
        page.get_by_role("button", name="Rematch: a new deal").click()
        # (Dealing the round takes the server a moment: longer on a busy machine.)
        expect(board).not_to_have_attribute("data-game-id", first_game, timeout=15_000)
        expect(page.locator("[data-game-over]")).to_be_hidden()
        expect_seq(page, 0)
        expect(page.locator("[data-race-status]")).to_contain_text("Go!", timeout=15_000)
        rematch = Round.objects.get(room=room, number=2)
        assert board.get_attribute("data-game-id") == str(rematch.entries.get().game_id)
        rematch_state = GameState(Deal.from_seed(rematch.seed), Variant.TRIPEAKS)
        click_move(page, rematch_state, rematch_state.legal_moves()[0])
        assert page.evaluate("window.__samePage") is True
