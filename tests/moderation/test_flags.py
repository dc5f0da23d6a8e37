"""Automatic flags on finished games: an impossible result, inhumanly fast play, a run of perfect
play on hard deals. They fire on crafted games, not on ordinary ones; never twice for one game
and kind; and never hide anything."""

from datetime import UTC, datetime, timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client, override_settings
from django.urls import reverse

from game import events
from game.engine import Variant
from game.models import Game, Move, Status
from moderation.models import Flag, FlagKind, FlagStatus
from moderation.selectors import deal_hardness, fast_play_evidence, game_verification
from moderation.services import flags_raise
from tests.moderation.helpers import par_of, timed_game

pytestmark = pytest.mark.django_db

START = datetime(2026, 11, 30, 12, tzinfo=UTC)
HUMAN = [1400, 2300, 900, 3100, 1700, 650, 2600]  # ms between moves: a person thinking


def kinds(game: Game) -> set[str]:
    return set(Flag.objects.filter(game=game).values_list("kind", flat=True))


def test_an_ordinary_game_raises_no_flag(ada: User) -> None:
    game = timed_game(ada, gaps_ms=HUMAN, start=START)
    assert game_verification(game).ok
    assert flags_raise(game.id) == []
    assert not Flag.objects.exists()


def test_a_tampered_score_is_an_impossible_result(ada: User) -> None:
    game = timed_game(ada, gaps_ms=HUMAN, start=START)
    Game.objects.filter(id=game.id).update(score=game.score + 10)

    flags_raise(game.id)

    flag = Flag.objects.get(game=game)
    assert flag.kind == FlagKind.IMPOSSIBLE
    assert flag.details["mismatches"]["score"]["stored"] == game.score + 10
    assert not Game.objects.get(id=game.id).hidden  # a flag hides nothing


def test_a_tampered_move_row_is_an_impossible_result(ada: User) -> None:
    game = timed_game(ada, gaps_ms=HUMAN, start=START)
    row = Move.objects.filter(game=game).exclude(move="draw").order_by("seq").first()
    assert row is not None
    Move.objects.filter(id=row.id).update(move="draw")  # a played card becomes a draw

    flags_raise(game.id)

    assert kinds(game) == {FlagKind.IMPOSSIBLE}


def test_a_gap_in_the_log_is_an_impossible_result(ada: User) -> None:
    game = timed_game(ada, gaps_ms=HUMAN, start=START)
    Move.objects.filter(game=game, seq=3).delete()
    assert not game_verification(game).ok
    assert "log" in game_verification(game).mismatches


def test_a_stored_status_that_the_log_does_not_reach_is_impossible(ada: User) -> None:
    game = timed_game(ada, gaps_ms=HUMAN, start=START)
    assert game.status == Status.LOST
    Game.objects.filter(id=game.id).update(status=Status.WON, cards_left=0)
    verification = game_verification(Game.objects.get(id=game.id))
    assert set(verification.mismatches) == {"status", "cards_left"}


def test_inhumanly_fast_play_by_the_median_gap(ada: User) -> None:
    game = timed_game(ada, gaps_ms=[150, 180, 120], start=START)

    flags_raise(game.id)

    flag = Flag.objects.get(game=game)
    assert flag.kind == FlagKind.FAST_PLAY
    assert flag.details["median_gap_ms"] < 300


def test_inhumanly_fast_play_by_a_burst(ada: User) -> None:
    gaps = HUMAN * 2 + [80] * 9 + HUMAN * 3  # ten moves within 720 ms, in a slow game
    game = timed_game(ada, gaps_ms=gaps, start=START)

    evidence = fast_play_evidence(game.id)

    assert evidence is not None
    assert "median_gap_ms" not in evidence
    assert evidence["burst"] == {"moves": 10, "within_ms": 720}
    assert kinds(game) == set()
    flags_raise(game.id)
    assert kinds(game) == {FlagKind.FAST_PLAY}


def test_a_quick_but_human_burst_is_not_flagged(ada: User) -> None:
    gaps = HUMAN * 2 + [200] * 9 + HUMAN * 3  # ten moves in 1.8 s: quick, possible
    game = timed_game(ada, gaps_ms=gaps, start=START)
    assert fast_play_evidence(game.id) is None


@override_settings(MODERATION_FAST_MEDIAN_MS=2000)
def test_the_thresholds_are_settings(ada: User) -> None:
    game = timed_game(ada, gaps_ms=HUMAN, start=START)
    assert fast_play_evidence(game.id) is not None


def perfect_games(owner: User, count: int, *, line_moves: int = 50, reach: bool = True,
                  start: datetime = START, prefix: str = "perfect") -> list[Game]:  # fmt: skip
    """Games whose deals the solver (crafted) calls hard, each scoring exactly par or not."""
    games = []
    for i in range(count):
        game = timed_game(
            owner, gaps_ms=HUMAN, start=start + timedelta(hours=i), seed=f"{prefix}-{i}"
        )
        par_of(game, par=game.score if reach else game.score + 30, line_moves=line_moves)
        games.append(game)
    return games


def test_a_run_of_par_on_hard_deals_is_flagged_on_the_game_that_completes_it(ada: User) -> None:
    first, second, third = perfect_games(ada, 3)

    assert flags_raise(first.id) == []
    assert flags_raise(second.id) == []
    raised = flags_raise(third.id)

    assert [flag.kind for flag in raised] == [FlagKind.PERFECT_RUN]
    perfect = raised[0].details["perfect"]
    assert {item["game"] for item in perfect} == {str(g.id) for g in (first, second, third)}
    assert perfect[0]["hard"] == ["par line of 50 moves"]


def test_par_missed_or_easy_deals_make_no_run(ada: User, bob: User) -> None:
    missed = perfect_games(ada, 3, reach=False, prefix="missed")
    easy = perfect_games(bob, 3, line_moves=40, prefix="easy")
    for game in (*missed, *easy):
        assert flags_raise(game.id) == []


def test_nowrap_deals_are_hard(ada: User) -> None:
    game = timed_game(ada, gaps_ms=HUMAN, start=START, variant=Variant.NOWRAP, seed="n")
    par = par_of(game, par=game.score, line_moves=30)
    assert deal_hardness(game, par).reasons == ("nowrap",)


def test_a_run_counts_only_the_recent_window(ada: User) -> None:
    old = perfect_games(ada, 2, start=START - timedelta(days=30), prefix="old")
    for i in range(10):  # ten ordinary games since
        timed_game(ada, gaps_ms=HUMAN, start=START - timedelta(days=20 - i), seed=f"plain-{i}")
    (latest,) = perfect_games(ada, 1)
    assert flags_raise(latest.id) == []
    assert old  # the two perfect games are out of the last ten


def test_no_flag_is_raised_twice_for_one_game_and_kind(ada: User) -> None:
    game = timed_game(ada, gaps_ms=[100], start=START)
    Game.objects.filter(id=game.id).update(score=game.score + 10)

    flags_raise(game.id)
    flags_raise(game.id)
    Flag.objects.filter(game=game).update(status=FlagStatus.DISMISSED, closed_at=START)
    flags_raise(game.id)  # a dismissed flag stays dismissed

    assert Flag.objects.filter(game=game).count() == 2
    assert kinds(game) == {FlagKind.IMPOSSIBLE, FlagKind.FAST_PLAY}
    assert not Flag.objects.filter(status=FlagStatus.OPEN).exists()


def test_guests_games_are_not_flagged(db: None) -> None:
    game = timed_game(None, gaps_ms=[100], start=START)
    assert flags_raise(game.id) == []


def test_the_app_listens_for_finished_analyses(ada: User) -> None:
    game = timed_game(ada, gaps_ms=[100], start=START)
    events.game_analysed(game.id)
    assert kinds(game) == {FlagKind.FAST_PLAY}


def test_flags_land_in_the_queue_open_first(ada: User, moderator_client: Client) -> None:
    fast = timed_game(ada, gaps_ms=[100], start=START, seed="f")
    flags_raise(fast.id)
    closed = timed_game(ada, gaps_ms=[100], start=START, seed="g")
    flags_raise(closed.id)
    Flag.objects.filter(game=closed).update(status=FlagStatus.RESOLVED, closed_at=START)

    page = moderator_client.get(reverse("moderation:queue"))
    flags = list(page.context["page"])
    assert [flag.game_id for flag in flags] == [fast.id, closed.id]
    filtered = moderator_client.get(reverse("moderation:queue"), {"kind": "impossible"})
    assert list(filtered.context["page"]) == []
