"""Friend challenges' services and selectors: made, played once each, ranked by score then time,
ended when all have played or when they close, their deal hidden until then, and unranked."""

from datetime import timedelta

import pytest
from django.utils import timezone

from core.errors import ClientError
from game.engine import Variant
from game.models import DealSource, Game, Mode, Status
from game.selectors import deal_revealed
from races import challenges, services
from races.models import Entry, PlayerRating, Room, RoomKind, RoomState, Round
from races.selectors import lobby_rooms, race_game, room_snapshot
from tests.races.conftest import SEED, make_player
from tests.races.test_services import finish

pytestmark = pytest.mark.django_db


def make_challenge(host, *, players=3, open_days=7, time_limit_s=None, now=None) -> Room:
    return challenges.challenge_open(
        user=host,
        variant=Variant.TRIPEAKS,
        players=players,
        open_days=open_days,
        time_limit_s=time_limit_s,
        seed=SEED,
        now=now,
    )


def reload(game: Game) -> Game:
    return Game.objects.get(id=game.id)


def test_a_challenge_is_a_private_room_of_one_open_round_on_a_secret_deal() -> None:
    ada = make_player("ada")
    now = timezone.now()
    room = challenges.challenge_open(
        user=ada, variant=Variant.NOWRAP, players=2, open_days=7, time_limit_s=None, now=now
    )
    assert (room.kind, room.public, room.state, room.players) == (
        RoomKind.CHALLENGE,
        False,
        RoomState.RACING,
        2,
    )
    round_ = Round.objects.get(room=room)
    assert round_.ends_at == now + timedelta(days=7)
    assert len(round_.seed) == 32  # a fresh secret seed, not a known one
    assert room not in [item["room"] for item in lobby_rooms()]
    assert room.get_absolute_url() == f"/challenges/{room.code}/"
    frame = room_snapshot(room).frame
    assert frame["kind"] == "challenge"
    assert frame["players"] == 2
    assert [racer["player"] for racer in frame["racers"]] == ["ada"]
    assert frame["racers"][0]["progress"] is None  # made it, not played yet


def test_each_player_plays_the_deal_once_unranked_and_hidden() -> None:
    ada, bob = make_player("ada"), make_player("bob")
    room = make_challenge(ada)
    game = challenges.challenge_play(code=room.code, user=bob)
    assert (game.seed, game.mode, game.deal_source, game.ranked) == (
        SEED,
        Mode.CHALLENGE,
        DealSource.CHALLENGE,
        False,
    )
    assert challenges.challenge_play(code=room.code, user=bob) == game  # the same game again
    assert Entry.objects.filter(round__room=room, user=bob).count() == 1
    assert game.reveal_after == Round.objects.get(room=room).ends_at
    finish(game, status=Status.WON, score=900, duration_ms=60_000)
    assert not deal_revealed(reload(game))  # over, but others still have to play it
    assert race_game(game.id) is not None  # its moves reach the challenge's page


def test_a_challenge_refuses_more_players_than_it_is_for_and_race_commands() -> None:
    ada, bob, cy = make_player("ada"), make_player("bob"), make_player("cy")
    room = make_challenge(ada, players=2)
    challenges.challenge_play(code=room.code, user=ada)
    challenges.challenge_play(code=room.code, user=bob)
    with pytest.raises(services.RoomFull):
        challenges.challenge_play(code=room.code, user=cy)
    for command in (services.room_join, services.room_leave, services.race_start):
        with pytest.raises(services.NotARace):
            command(code=room.code, user=cy if command is services.room_join else ada)
    assert Entry.objects.filter(round__room=room).count() == 2


def test_a_race_room_is_no_challenge() -> None:
    ada = make_player("ada")
    room = services.room_open(user=ada, variant=Variant.TRIPEAKS, public=True, time_limit_s=None)
    with pytest.raises(services.RoomNotFound):
        challenges.challenge_play(code=room.code, user=ada)


def test_it_ends_when_all_have_played_ranked_by_score_then_time_with_no_rating() -> None:
    ada, bob, cy = make_player("ada"), make_player("bob"), make_player("cy")
    room = make_challenge(ada, players=3)
    games = {user: challenges.challenge_play(code=room.code, user=user) for user in (ada, bob, cy)}
    finish(games[ada], status=Status.LOST, score=500, duration_ms=90_000)
    finish(games[bob], status=Status.LOST, score=500, duration_ms=60_000)
    assert not services.race_end_if_due(code=room.code).finished  # cy still plays
    snapshot = room_snapshot(Room.objects.get(id=room.id)).frame
    assert [racer["player"] for racer in snapshot["racers"]] == ["bob", "ada", "cy"]
    assert snapshot["results"] is None
    finish(games[cy], status=Status.WON, score=1200, duration_ms=120_000)
    end = services.race_end_if_due(code=room.code)
    assert end.finished
    assert sorted(end.games) == sorted(game.id for game in games.values())
    room.refresh_from_db()
    assert room.state == RoomState.FINISHED
    results = room_snapshot(room).frame["results"]
    assert [(row["rank"], row["player"]) for row in results] == [(1, "cy"), (2, "bob"), (3, "ada")]
    assert all(row["rating"] is None for row in results)
    assert not PlayerRating.objects.exists()
    assert all(deal_revealed(reload(game)) for game in games.values())
    with pytest.raises(challenges.ChallengeClosed):
        challenges.challenge_play(code=room.code, user=make_player("dee"))


def test_it_closes_on_time_ending_games_in_play_and_revealing_the_deal() -> None:
    ada, bob = make_player("ada"), make_player("bob")
    start = timezone.now() - timedelta(days=8)
    room = make_challenge(ada, players=4, now=start)
    game = challenges.challenge_play(code=room.code, user=bob, now=start + timedelta(days=1))
    assert not services.race_end_if_due(code=room.code, now=start + timedelta(days=6)).finished
    closed_at = start + timedelta(days=7)
    end = services.race_end_if_due(code=room.code, now=closed_at)
    assert end.finished
    assert end.abandoned == [game.id]
    game = reload(game)
    assert game.status == Status.ABANDONED
    assert deal_revealed(game)
    entry = Entry.objects.get(game=game)
    assert entry.timed_out
    assert entry.rank == 1
    results = room_snapshot(Room.objects.get(id=room.id)).frame["results"]
    assert [(row["player"], row["status"]) for row in results] == [("bob", "out_of_time")]
    with pytest.raises(challenges.ChallengeClosed):
        challenges.challenge_play(code=room.code, user=ada, now=closed_at)


def test_no_one_plays_a_closed_challenge_before_it_is_ended() -> None:
    """Past its closing time, nobody may start a game, even before anyone ended it."""
    start = timezone.now() - timedelta(days=2)
    room = make_challenge(make_player("ada"), open_days=1, now=start)
    with pytest.raises(ClientError):
        challenges.challenge_play(code=room.code, user=make_player("bob"))


def test_each_game_has_its_own_time_limit_from_its_start() -> None:
    ada, bob = make_player("ada"), make_player("bob")
    start = timezone.now()
    room = make_challenge(ada, players=2, time_limit_s=300, now=start)
    late = start + timedelta(hours=2)
    ada_game = challenges.challenge_play(code=room.code, user=ada, now=start)
    bob_game = challenges.challenge_play(code=room.code, user=bob, now=late)
    bobs = race_game(bob_game.id)
    assert bobs is not None
    assert bobs.ends_at == late + timedelta(seconds=300)
    snapshot = room_snapshot(Room.objects.get(id=room.id), now=late)
    assert snapshot.deadline == (start + timedelta(seconds=300)).timestamp()
    end = services.race_end_if_due(code=room.code, now=late + timedelta(seconds=1))
    assert end.abandoned == [ada_game.id]
    assert not end.finished
    assert reload(bob_game).status == Status.IN_PROGRESS
    assert not deal_revealed(reload(ada_game))
    end = services.race_end_if_due(code=room.code, now=late + timedelta(seconds=300))
    assert end.finished
    assert end.abandoned == [bob_game.id]
    assert Entry.objects.filter(round__room=room, timed_out=True).count() == 2
