"""Boards worth trusting, in a real browser: a deal played again along the solver's line leaves
the leaderboards as they were; the leaderboards page at a desktop's, a phone's and a turned
phone's size; the analysis panel's four mistakes.

As in test_play.py, the test reads a game's seed from the database to know the hidden cards; the
page never shows them. Screenshots go to SCREENSHOT_DIR, for a person to look at.
"""

import time
import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.utils import timezone
from playwright.sync_api import Page, ViewportSize, expect

from game.engine import Variant
from game.engine.solver import find_par
from game.models import DealSource, Game, GameAnalysis, Status
from game.players import Player
from game.postgame import analyse_here
from game.services import game_start
from tests.accounts.helpers import make_player
from tests.e2e.layout import expect_no_sideways_scroll
from tests.e2e.test_daily import sign_up
from tests.e2e.test_hint_and_analysis import ANALYSIS_TIMEOUT
from tests.e2e.test_play import (
    DESKTOP,
    GAME_URL,
    PHONE,
    click_move,
    engine_state,
    play_out,
    screenshot,
    start_game,
)
from tests.leaderboard.helpers import finished_game
from tests.leaderboard.helpers import play_out as play_stored

LANDSCAPE_PHONE: ViewportSize = {"width": 740, "height": 360}
BOARDS = ("best", "wins", "rate", "streak")
FOUR_MISTAKES = (
    "Kd Qd draw draw draw 8d 7h draw 7c 6h 5s draw draw draw draw draw 2d 3h draw draw draw draw"
    " Qh draw draw Qs draw 9c draw draw draw draw draw draw draw"
)
"""A game on seed 20, played at random, that makes all four mistakes."""


def boards_shown(page: Page) -> dict[str, list[str]]:
    """Every row of the four boards on the leaderboards page, as the reader sees it."""
    page.goto("/leaderboards/")
    return {
        kind: page.locator(f'table[aria-labelledby="board-{kind}"] tbody tr').all_inner_texts()
        for kind in BOARDS
    }


def game_id_of(page: Page) -> uuid.UUID:
    match = GAME_URL.search(page.url)
    assert match is not None
    return uuid.UUID(match[1])


@pytest.mark.usefixtures("transactional_db")
def test_a_deal_played_again_along_the_solver_s_line_leaves_the_board_unchanged(
    page: Page,
) -> None:
    page.emulate_media(reduced_motion="reduce")
    sign_up(page, "replayer")
    first_id = start_game(page)
    first = engine_state(first_id)
    play_out(page, first)
    expect(page.locator("[data-game-over]")).to_be_visible()

    before = boards_shown(page)
    assert "replayer" in before["best"][0]
    assert str(first.score) in before["best"][0]
    replay_link = page.locator('table[aria-labelledby="board-best"] [data-row-replay]')
    expect(replay_link).to_have_attribute("href", f"/games/{first_id}/")

    page.goto(f"/games/{first_id}/")
    page.get_by_role("button", name="Play this deal again").click()
    expect(page).to_have_url(GAME_URL)
    again_id = game_id_of(page)
    assert again_id != first_id
    again = engine_state(again_id)
    expect(page.locator("[data-connection]")).to_have_attribute("data-state", "open")
    for move in find_par(again.deal, again.variant).line:
        click_move(page, again, move)
    expect(page.locator("[data-game-over]")).to_be_visible()

    assert again.score >= first.score
    replayed = Game.objects.get(id=again_id)
    assert (replayed.status, replayed.score) == (again.status.value, again.score)
    assert (replayed.deal_source, replayed.ranked) == (DealSource.REPLAY, False)
    assert boards_shown(page) == before
    screenshot(page, "leaderboards-after-a-replay-desktop")


def some_players(now_minus: timedelta = timedelta(hours=2)) -> None:
    """A dozen players with ranked games of every kind, so that every board has rows."""
    finished_at = timezone.now() - now_minus
    for n in range(12):
        player = make_player(f"player-{n:02}-{'long-name' if n == 3 else 'x'}", email="")
        for i in range(10 + n % 3):
            finished_game(
                player,
                score=300 + 97 * n + 13 * i,
                duration_ms=60_000 + 1000 * i,
                status=Status.WON if (i + n) % 3 else Status.LOST,
                assisted=i == 1,
                finished_at=finished_at + timedelta(minutes=i),
            )


@pytest.mark.usefixtures("transactional_db")
@pytest.mark.parametrize(
    ("name", "viewport"),
    [("desktop", DESKTOP), ("phone", PHONE), ("phone-landscape", LANDSCAPE_PHONE)],
)
def test_the_leaderboards_page_at_three_sizes(
    page: Page, name: str, viewport: ViewportSize
) -> None:
    """Every board with rows and links, the switches, and what counts: nothing sticks out
    sideways, and every row's links are there to follow."""
    some_players()
    page.set_viewport_size(viewport)
    page.goto("/leaderboards/")
    for kind in BOARDS:
        rows = page.locator(f'table[aria-labelledby="board-{kind}"] tbody tr')
        expect(rows).to_have_count(10)
    expect(page.locator("[data-row-replay]")).to_have_count(10)
    expect(page.locator("[data-row-games]")).to_have_count(30)
    expect(page.get_by_role("navigation", name="Deals")).to_be_visible()
    expect(page.get_by_role("heading", name="What counts")).to_be_visible()
    expect_no_sideways_scroll(page)
    screenshot(page, f"leaderboards-{name}")

    page.get_by_role("navigation", name="Rules").get_by_role("link", name="No wrap").click()
    expect(page.locator('table[aria-labelledby="board-best"] tbody tr')).to_have_text(
        ["Nobody is on this board yet."]
    )
    expect_no_sideways_scroll(page)


def analysis_stored(game_id: uuid.UUID) -> dict[str, Any]:
    """The analysis of a finished game that the server's own analysis loop claimed first (it
    looks for waiting games every few seconds): once stored."""
    deadline = time.monotonic() + ANALYSIS_TIMEOUT / 1000
    while (found := GameAnalysis.objects.filter(game_id=game_id).first()) is None:
        assert time.monotonic() < deadline, "the game was claimed but never analysed"
        time.sleep(0.1)
    report: dict[str, Any] = found.report
    return report


@pytest.mark.usefixtures("transactional_db")
def test_the_analysis_panel_shows_the_four_mistakes(page: Page) -> None:
    """A game on seed 20 that makes all four (found by playing at random): the finished game's
    page shows each at its move, and a move number steps the replay there."""
    line = FOUR_MISTAKES.split()
    owner = make_player("teacher", email="")
    game = game_start(player=Player(user_id=owner.pk, guest_key=""), variant=Variant.TRIPEAKS)
    Game.objects.filter(id=game.id).update(seed="20")
    play_stored(game, line=line)
    report = analyse_here(game.id) or analysis_stored(game.id)
    assert report["missed_king_ace"] == [{"move": 14, "waste": "Kc", "cards": ["As"]}]
    assert report["plays_opening_nothing"] == [{"move": 26, "card": "Qs", "openers": ["As"]}]
    assert report["stock_left_for_last"] == {"move": 29, "draws": 7}

    page.goto(f"/games/{game.id}/")
    section = page.locator("[data-analysis]")
    expect(section).to_have_attribute("data-state", "ready", timeout=ANALYSIS_TIMEOUT)
    expect(section.locator("[data-analysis-draws]")).to_contain_text(
        "Move 4: you drew while 2♦ fitted"
    )
    expect(section.locator("[data-analysis-openers]")).to_have_text(
        "Move 26: you played the Q♠, which opened nothing, while A♠ would have turned a card over"
    )
    expect(section.locator("[data-analysis-wraps]")).to_have_text(
        "Move 14: you drew while A♠ fitted on the K♣: King and Ace are neighbours"
    )
    expect(section.locator("[data-analysis-stock]")).to_contain_text(
        "From move 29, the last 7 draws went by without a play"
    )
    section.locator('[data-analysis-openers] button[data-jump="26"]').click()
    expect(page.locator("[data-position]")).to_contain_text(f"Move 26 of {len(line)}")
    screenshot(page, "analysis-four-mistakes-desktop")
    page.set_viewport_size(PHONE)
    expect_no_sideways_scroll(page)
    section.scroll_into_view_if_needed()
    screenshot(page, "analysis-four-mistakes-phone")
