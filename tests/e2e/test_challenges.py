"""A friend challenge in two real browsers: one player makes it from the races lobby, a friend
opens its link, each plays the same deal once on the ordinary game page, each sees the other on
the challenge's live ranking, and once both have played the page shows the results and the deal.

As in test_races.py, the test reads the deal from the database to know the hidden cards; the
pages never show them before the end.
"""

import re

import pytest
from playwright.sync_api import Browser, Page, expect

from game.engine import Deal, GameState, Variant
from races.models import Room, Round
from tests.e2e.test_play import click_move, expect_seq, play_out, screenshot
from tests.e2e.test_races import two_signed_in

CHALLENGE_URL = re.compile(r"/challenges/([A-Za-z0-9_-]{12})/$")
GAME_URL = re.compile(r"/games/[0-9a-f-]{36}/$")


def ranking_cell(page: Page, player: str, column: int):
    """A figure of a player's ranking line: 0 place, 1 status, 2 cards left, 3 score, 4 time."""
    return page.locator(f'[data-racers] tr[data-player="{player}"] td').nth(column)


def finish_text(state: GameState) -> str:
    return "won" if state.status.value == "won" else "no more moves"


@pytest.mark.usefixtures("transactional_db")
def test_two_friends_play_one_challenge_and_see_each_other_ranked(
    page: Page, browser: Browser, server_url: str
) -> None:
    with two_signed_in(page, browser, server_url, "maker", "friend") as friend:
        # The maker makes a challenge for two from the lobby and lands on its page.
        page.goto("/races/")
        page.get_by_role("button", name="Make a challenge").click()
        expect(page).to_have_url(CHALLENGE_URL)
        room = Room.objects.get(host__username="maker")
        link = page.locator("[data-challenge-link]").text_content() or ""
        assert link.endswith(f"/challenges/{room.code}/")
        seed = Round.objects.get(room=room).seed

        # The friend opens the link and follows the ranking live.
        friend.goto(link)
        expect(friend.locator("[data-connection]")).to_have_attribute("data-state", "open")
        expect(ranking_cell(friend, "maker", 1)).to_have_text("not played yet")

        # The maker plays on the ordinary game page; the friend sees their figures change.
        page.get_by_role("button", name="Play the challenge").click()
        expect(page).to_have_url(GAME_URL)
        expect_seq(page, 0)
        maker_state = GameState(Deal.from_seed(seed), Variant.TRIPEAKS)
        for _ in range(3):
            click_move(page, maker_state, maker_state.legal_moves()[0])
        expect(ranking_cell(friend, "maker", 3)).to_have_text(str(maker_state.score))
        expect(ranking_cell(friend, "maker", 2)).to_have_text(str(maker_state.cards_left))
        expect(ranking_cell(friend, "maker", 1)).to_have_text("playing")
        play_out(page, maker_state)
        expect(ranking_cell(friend, "maker", 1)).to_have_text(finish_text(maker_state))
        assert seed not in friend.content()

        # The maker's finished game keeps its deal hidden while the friend has yet to play.
        assert page.request.get(page.url + "export.json").status == 409

        # The maker follows the challenge; the friend plays, and the maker sees them ranked.
        page.goto(link)
        expect(page.locator("[data-connection]")).to_have_attribute("data-state", "open")
        friend.get_by_role("button", name="Play the challenge").click()
        expect(friend).to_have_url(GAME_URL)
        expect_seq(friend, 0)
        friend_state = GameState(Deal.from_seed(seed), Variant.TRIPEAKS)
        click_move(friend, friend_state, friend_state.legal_moves()[0])
        expect(ranking_cell(page, "friend", 3)).to_have_text(str(friend_state.score))
        expect(page.locator('[data-racers] tr[data-player="friend"]')).to_be_visible()
        screenshot(page, "challenge-ranking")

        # The friend plays to the end: the challenge is over, and the page shows it all.
        play_out(friend, friend_state)
        results = page.locator("[data-results]")
        expect(results).to_be_visible(timeout=15_000)
        expect(results.locator("tbody tr")).to_have_count(2)
        expect(page.locator("[data-seed]")).to_contain_text(seed)
        expect(results.get_by_role("link", name="Replay")).to_have_count(2)
        screenshot(page, "challenge-results")
        friend.goto(link)
        expect(friend.locator("[data-results] tbody tr")).to_have_count(2)
