"""The spoiler-free share text of a daily attempt, and the daily challenge streak."""

import re
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client

from accounts.selectors import player_statistics
from game.engine import Card
from game.models import Game
from game.players import Player
from leaderboard import challenge
from leaderboard.models import Daily
from leaderboard.selectors import daily_share_of, daily_streak, share_text
from tests.leaderboard.conftest import Clock
from tests.leaderboard.helpers import DAY, at, play_out

pytestmark = pytest.mark.django_db

BASE = "https://tripeaks.example/"
CARD_CODE = re.compile(r"(?<![0-9A-Za-z])[A2-9TJQK][cdhs](?![0-9A-Za-z])")


def test_the_share_text_is_built_from_the_move_log(finished_attempt: Game) -> None:
    """The date, the score and its share of par, a green square per card played and a black one
    per draw in the order they were made, and the day's link; no card, no seed."""
    moves = list(finished_attempt.moves.order_by("seq").values_list("move", flat=True))
    text = daily_share_of(finished_attempt, base_url=BASE)

    assert text is not None
    headline, squares, link = text.split("\n")
    percent = round(finished_attempt.score * 100 / 2000)
    assert headline == (
        f"TriPeaks Online daily 2026-11-30 — {finished_attempt.score:,} points ({percent}% of par)"
    )
    assert squares == "".join("⬛" if move == "draw" else "🟩" for move in moves)
    assert link == "https://tripeaks.example/daily/2026-11-30/"
    assert CARD_CODE.findall(text) == []
    assert finished_attempt.seed not in text
    assert not any(Card.parse(move).code in text for move in moves if move != "draw")


def test_without_par_the_share_text_leaves_it_out() -> None:
    text = share_text(day=DAY, score=1, par=None, moves=["draw"], url=BASE)
    assert text.splitlines() == ["TriPeaks Online daily 2026-11-30 — 1 point", "⬛", BASE]


def test_only_a_finished_ranked_attempt_has_a_share_text(
    clock: Clock, finished_attempt: Game, ada: User
) -> None:
    casual = Game.objects.create(seed="1", owner=ada, started_at=at(DAY, 15))
    clock.set(at(DAY + timedelta(days=1), 9))
    replay = challenge.daily_replay_start(
        player=Player(user_id=ada.pk, guest_key=""), daily=Daily.objects.get(date=DAY)
    )
    play_out(replay)
    assert daily_share_of(casual, base_url=BASE) is None
    assert daily_share_of(replay, base_url=BASE) is None


def test_the_daily_page_and_the_result_page_offer_the_text_to_copy(
    finished_attempt: Game, ada_client: Client
) -> None:
    expected = daily_share_of(finished_attempt, base_url="http://testserver/")
    assert expected is not None
    for url in ("/daily/", f"/games/{finished_attempt.id}/"):
        html = ada_client.get(url).content.decode()
        assert expected in html
        assert "data-share-copy" in html
        assert "js/leaderboard.js" in html


def test_the_daily_streak_counts_days_in_a_row_up_to_today_or_yesterday(ada: User) -> None:
    for back in (0, 1, 2, 4):
        day = DAY - timedelta(days=back)
        challenge.daily_attempt_start(user=ada, day=day, now=at(day, 9))

    assert daily_streak(ada.pk, DAY) == 3
    assert daily_streak(ada.pk, DAY + timedelta(days=1)) == 3  # today's not played yet
    assert daily_streak(ada.pk, DAY + timedelta(days=2)) == 0
    assert daily_streak(ada.pk, DAY - timedelta(days=3)) == 1


def test_the_profile_shows_the_daily_streak(clock: Clock, ada: User, ada_client: Client) -> None:
    for back in (0, 1):
        day = DAY - timedelta(days=back)
        challenge.daily_attempt_start(user=ada, day=day, now=at(day, 9))
    clock.set(at(DAY, 18))
    assert player_statistics(ada).daily_streak == 2
    html = ada_client.get("/accounts/profile/").content.decode()
    assert "Daily challenge streak" in html
    assert "2 days" in html
