"""The races' services: a room's life cycle, its rules, the end of a round, ranking and ratings."""

from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from game.engine import Variant
from game.models import Game, Mode, Status
from races import services
from races.models import MAX_RACERS, Entry, PlayerRating, Racer, RoomState, Round
from races.selectors import lobby_rooms, ratings_page, room_snapshot
from tests.concurrency import at_once
from tests.races.conftest import SEED, make_player

pytestmark = pytest.mark.django_db


def open_room(host, *, time_limit_s=None, public=True):
    return services.room_open(
        user=host, variant=Variant.TRIPEAKS, public=public, time_limit_s=time_limit_s
    )


def entries_by_player(round_: Round) -> dict[int, Entry]:
    """A round's entries, with their games, by the racer's user id."""
    return {
        entry.user_id: entry for entry in Entry.objects.filter(round=round_).select_related("game")
    }


def finish(game: Game, *, status: Status, score: int, duration_ms: int) -> None:
    """Record a game's end as the move path would (its log is not played out here)."""
    Game.objects.filter(id=game.id).update(
        status=status,
        score=score,
        cards_left=0 if status == Status.WON else 5,
        finished_at=game.started_at + timedelta(milliseconds=duration_ms),
        duration_ms=duration_ms,
    )


def test_the_host_opens_a_room_in_the_first_seat() -> None:
    """A new room waits for racers, with its host seated and an unguessable code."""
    ada = make_player("ada")
    room = open_room(ada)
    assert room.state == RoomState.WAITING
    assert len(room.code) == 12
    assert list(Racer.objects.filter(room=room).values_list("user_id", "seat")) == [(ada.pk, 0)]
    assert [item["room"] for item in lobby_rooms()] == [room]


def test_a_private_room_is_not_in_the_lobby() -> None:
    room = open_room(make_player("ada"), public=False)
    assert room not in [item["room"] for item in lobby_rooms()]


def test_joining_takes_the_lowest_free_seat_and_twice_changes_nothing() -> None:
    ada, bea, cy = make_player("ada"), make_player("bea"), make_player("cy")
    room = open_room(ada)
    services.room_join(code=room.code, user=bea)
    services.room_join(code=room.code, user=bea)
    services.room_leave(code=room.code, user=ada)
    services.room_join(code=room.code, user=cy)
    seats = dict(
        Racer.objects.filter(room=room, left_at__isnull=True).values_list("user_id", "seat")
    )
    assert seats == {bea.pk: 1, cy.pk: 0}
    room.refresh_from_db()
    assert room.host_id == bea.pk  # the host's role passed on when ada left


def test_a_ninth_racer_is_refused() -> None:
    players = [make_player(f"racer{n}") for n in range(MAX_RACERS + 1)]
    room = open_room(players[0])
    for player in players[1:MAX_RACERS]:
        services.room_join(code=room.code, user=player)
    with pytest.raises(services.RoomFull):
        services.room_join(code=room.code, user=players[MAX_RACERS])
    assert Racer.objects.filter(room=room, left_at__isnull=True).count() == MAX_RACERS


def test_the_database_refuses_a_taken_seat_and_a_ninth_seat() -> None:
    """Even past the services: a present seat is taken once, and there is no seat 8."""
    ada, bea = make_player("ada"), make_player("bea")
    room = open_room(ada)
    now = timezone.now()
    with pytest.raises(IntegrityError), transaction.atomic():
        Racer.objects.create(room=room, user=bea, seat=0, joined_at=now)
    with pytest.raises(IntegrityError), transaction.atomic():
        Racer.objects.create(room=room, user=bea, seat=MAX_RACERS, joined_at=now)


def test_only_the_host_starts() -> None:
    ada, bea = make_player("ada"), make_player("bea")
    room = open_room(ada)
    services.room_join(code=room.code, user=bea)
    with pytest.raises(services.NotHost):
        services.race_start(code=room.code, user=bea)
    assert not Round.objects.filter(room=room).exists()


def test_a_host_who_left_an_empty_room_cannot_start_it() -> None:
    ada = make_player("ada")
    room = open_room(ada)
    services.room_leave(code=room.code, user=ada)
    with pytest.raises(services.NotARacer):
        services.race_start(code=room.code, user=ada)
    assert not Round.objects.exists()


def test_starting_deals_one_secret_deal_to_every_racer(settings) -> None:
    """Each racer gets a race game on the round's seed, dealt now, playable after the countdown,
    its deal hidden until the race is over."""
    settings.RACE_COUNTDOWN_SECONDS = 5
    ada, bea = make_player("ada"), make_player("bea")
    room = open_room(ada, time_limit_s=120)
    services.room_join(code=room.code, user=bea)
    before = timezone.now()
    round_ = services.race_start(code=room.code, user=ada)
    games = [entry.game for entry in Entry.objects.filter(round=round_).select_related("game")]
    assert {game.owner_id for game in games} == {ada.pk, bea.pk}
    assert {game.seed for game in games} == {round_.seed}
    assert {game.mode for game in games} == {Mode.RACE}
    assert all(game.started_at == round_.starts_at for game in games)
    assert round_.starts_at >= before + timedelta(seconds=5)
    assert round_.ends_at == round_.starts_at + timedelta(seconds=120)
    assert all(game.reveal_after == services.HIDDEN_UNTIL_THE_END for game in games)
    room.refresh_from_db()
    assert (room.state, room.round_number) == (RoomState.RACING, 1)
    assert room_snapshot(room).frame["state"] == "countdown"


def test_no_joining_a_started_race() -> None:
    ada, bea = make_player("ada"), make_player("bea")
    room = open_room(ada)
    services.race_start(code=room.code, user=ada)
    with pytest.raises(services.RaceStarted):
        services.room_join(code=room.code, user=bea)
    with pytest.raises(services.RaceStarted):
        services.race_start(code=room.code, user=ada)


def test_the_round_ends_when_every_racer_is_done_ranked_by_score_then_time() -> None:
    ada, bea, cy = make_player("ada"), make_player("bea"), make_player("cy")
    room = open_room(ada)
    for player in (bea, cy):
        services.room_join(code=room.code, user=player)
    round_ = services.race_start(code=room.code, user=ada, seed=SEED)
    entries = entries_by_player(round_)
    finish(entries[ada.pk].game, status=Status.LOST, score=300, duration_ms=90_000)
    finish(entries[bea.pk].game, status=Status.WON, score=300, duration_ms=60_000)
    assert services.race_end_if_due(code=room.code) == services.RaceEnd()  # cy still plays
    finish(entries[cy.pk].game, status=Status.WON, score=500, duration_ms=120_000)

    end = services.race_end_if_due(code=room.code)

    assert end.finished
    assert not end.abandoned
    ranks = dict(Entry.objects.filter(round=round_).values_list("user_id", "rank"))
    assert ranks == {cy.pk: 1, bea.pk: 2, ada.pk: 3}
    round_.refresh_from_db()
    room.refresh_from_db()
    assert room.state == RoomState.FINISHED
    assert round_.finished_at is not None
    # The deal may be shown from the end of the race on.
    assert set(
        Game.objects.filter(race_entry__round=round_).values_list("reveal_after", flat=True)
    ) == {round_.finished_at}
    assert services.race_end_if_due(code=room.code) == services.RaceEnd()  # idempotent


def test_ratings_follow_the_ranking_one_period_per_race() -> None:
    ada, bea = make_player("ada"), make_player("bea")
    room = open_room(ada)
    services.room_join(code=room.code, user=bea)
    round_ = services.race_start(code=room.code, user=ada, seed=SEED)
    entries = entries_by_player(round_)
    finish(entries[ada.pk].game, status=Status.WON, score=600, duration_ms=60_000)
    finish(entries[bea.pk].game, status=Status.LOST, score=200, duration_ms=60_000)
    services.race_end_if_due(code=room.code)
    ratings = {row.user_id: row for row in PlayerRating.objects.all()}
    # Glicko-2 for two newcomers, one win each way (races/rating.py's own doctest figures).
    assert round(ratings[ada.pk].rating, 2) == 1662.31
    assert round(ratings[bea.pk].rating, 2) == 1337.69
    assert ratings[ada.pk].races == ratings[bea.pk].races == 1
    ada_entry = Entry.objects.get(round=round_, user=ada)
    assert ada_entry.rating_before == 1500.0
    assert ada_entry.rating_after is not None
    assert round(ada_entry.rating_after, 2) == 1662.31


def test_a_race_alone_is_practice_and_rates_nobody() -> None:
    ada = make_player("ada")
    room = open_room(ada)
    round_ = services.race_start(code=room.code, user=ada)
    finish(Entry.objects.get(round=round_).game, status=Status.WON, score=600, duration_ms=1_000)
    assert services.race_end_if_due(code=room.code).finished
    assert not PlayerRating.objects.exists()


def test_leaving_during_the_race_gives_the_game_up_and_ranks_last() -> None:
    ada, bea = make_player("ada"), make_player("bea")
    room = open_room(ada)
    services.room_join(code=room.code, user=bea)
    round_ = services.race_start(code=room.code, user=ada, seed=SEED)
    entries = entries_by_player(round_)
    Game.objects.filter(id=entries[ada.pk].game_id).update(score=900)  # ada is ahead, then leaves
    finish(entries[bea.pk].game, status=Status.LOST, score=100, duration_ms=10_000)

    end = services.room_leave(code=room.code, user=ada)

    assert end.abandoned == [entries[ada.pk].game_id]
    assert end.finished
    assert Game.objects.get(id=entries[ada.pk].game_id).status == Status.ABANDONED
    ranks = dict(Entry.objects.filter(round=round_).values_list("user_id", "rank"))
    assert ranks == {bea.pk: 1, ada.pk: 2}
    room.refresh_from_db()
    assert room.host_id == bea.pk
    with pytest.raises(services.NotARacer):
        services.room_leave(code=room.code, user=ada)


def test_the_time_limit_ends_games_in_play_with_their_score() -> None:
    ada, bea = make_player("ada"), make_player("bea")
    room = open_room(ada, time_limit_s=60)
    services.room_join(code=room.code, user=bea)
    round_ = services.race_start(code=room.code, user=ada, seed=SEED)
    ends_at = round_.ends_at
    assert ends_at is not None
    entries = entries_by_player(round_)
    finish(entries[ada.pk].game, status=Status.WON, score=700, duration_ms=50_000)
    Game.objects.filter(id=entries[bea.pk].game_id).update(score=120)
    assert not services.race_end_if_due(code=room.code, now=ends_at - timedelta(seconds=1)).finished

    end = services.race_end_if_due(code=room.code, now=ends_at + timedelta(seconds=1))

    assert end.finished
    assert end.abandoned == [entries[bea.pk].game_id]
    bea_entry = Entry.objects.select_related("game").get(round=round_, user=bea)
    assert bea_entry.timed_out
    assert (bea_entry.game.status, bea_entry.game.score, bea_entry.rank) == (
        Status.ABANDONED,
        120,
        2,
    )
    room.refresh_from_db()
    assert room_snapshot(room).frame["results"][1]["status"] == "out_of_time"


def test_a_rematch_deals_a_new_deal_to_the_racers_still_in_the_room() -> None:
    ada, bea, cy = make_player("ada"), make_player("bea"), make_player("cy")
    room = open_room(ada)
    services.room_join(code=room.code, user=bea)
    first = services.race_start(code=room.code, user=ada)
    for entry in Entry.objects.filter(round=first).select_related("game"):
        finish(entry.game, status=Status.LOST, score=50, duration_ms=1_000)
    services.race_end_if_due(code=room.code)
    services.room_leave(code=room.code, user=bea)
    services.room_join(code=room.code, user=cy)  # between rounds, anyone may join

    second = services.race_start(code=room.code, user=ada)

    assert second.number == 2
    assert second.seed != first.seed
    assert set(Entry.objects.filter(round=second).values_list("user_id", flat=True)) == {
        ada.pk,
        cy.pk,
    }


def test_the_ratings_board_lists_active_players_with_enough_races() -> None:
    ada, bea, cy = make_player("ada"), make_player("bea"), make_player("cy")
    now = timezone.now()
    PlayerRating.objects.create(user=ada, rating=1700, deviation=60, races=5, updated=now)
    PlayerRating.objects.create(user=bea, rating=1800, deviation=300, races=5, updated=now)
    PlayerRating.objects.create(user=cy, rating=1900, deviation=50, races=1, updated=now)
    assert [row["player"] for row in ratings_page().rows] == ["ada", "bea"]
    ada.is_active = False  # banned
    ada.save()
    assert [row["player"] for row in ratings_page().rows] == ["bea"]


@pytest.mark.django_db(transaction=True)
def test_concurrent_joins_never_seat_a_ninth_racer() -> None:
    """Twelve players join one room at once, each in their own connection: eight get a seat, the
    others are told the room is full, and no seat is taken twice.

    PostgreSQL only: there the room's row lock orders the joins. SQLite has one writer at a time
    and answers a second "database is locked" instead of making it wait its turn here.
    """
    if connection.vendor != "postgresql":
        pytest.skip("concurrent writers need PostgreSQL")
    host = make_player("host")
    room = open_room(host)
    players = [make_player(f"racer{n}") for n in range(12)]

    def join(player: User) -> str:
        try:
            services.room_join(code=room.code, user=player)
        except services.RoomFull:
            return "full"
        return "seated"

    outcomes = at_once(join, players)

    assert outcomes.count("seated") == MAX_RACERS - 1
    assert outcomes.count("full") == len(players) - (MAX_RACERS - 1)
    seats = list(
        Racer.objects.filter(room=room, left_at__isnull=True).values_list("seat", flat=True)
    )
    assert sorted(seats) == list(range(MAX_RACERS))
