"""Every write of the races app: open a room, join, leave, start a round, end it, rate it.

Each service locks the room's row (``select_for_update``) for its transaction, so that joins,
leaves, starts and ends of one room happen one at a time on every process; the seats' unique
constraint refuses a ninth racer even where the lock is a no-op (SQLite serialises writers anyway).
Deadlines (the countdown, the time limit) are stored, not timed in memory: :func:`race_end_if_due`
is idempotent, and any process may call it whenever it hears of the room (a socket's timer, a
move, a page view). Snapshots and game states are pushed only once the transaction has committed.
"""

import secrets
import uuid
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from itertools import groupby
from typing import Final

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.db.models import F
from django.utils import timezone
from django.utils.translation import gettext_noop

from core.broadcast import after_commit, group_send_soon
from core.errors import ClientError, NotFound
from core.groups import room_group
from game.ending import games_abandon
from game.engine import Variant as EngineVariant
from game.models import Game, Mode, Status
from game.players import Player
from game.services import game_start, new_seed
from races.models import (
    CODE_LENGTH,
    MAX_RACERS,
    Entry,
    PlayerRating,
    Racer,
    Room,
    RoomKind,
    RoomState,
    Round,
)
from races.rating import Rating, rate_race
from races.selectors import game_deadline, room_for_code, room_snapshot

HIDDEN_UNTIL_THE_END: Final = datetime(9000, 1, 1, tzinfo=UTC)
"""A race game's ``reveal_after`` while its round runs: set to the round's end once it is over."""
MAX_TIME_LIMIT_S: Final = 60 * 60


class RoomNotFound(NotFound):
    """No room has this code."""


class RoomFull(ClientError):
    code = "room_full"


class RaceStarted(ClientError):
    code = "race_started"


class NotHost(ClientError):
    code = "not_host"


class NotARacer(ClientError):
    code = "not_a_racer"


class NotARace(ClientError):
    """A race command on a friend challenge: its players play from its page, in their own time."""

    code = "not_a_race"


def _race_room(code: str) -> Room:
    room = room_locked(code)
    if room.kind == RoomKind.CHALLENGE:
        raise NotARace(gettext_noop("This is a friend challenge: play it from its page"))
    return room


@dataclass(frozen=True, slots=True)
class RaceEnd:
    """What :func:`race_end_if_due` did: the games it ended (the time limit ran out) and, when
    the round is over, all the round's games (their deal may be revealed from now on)."""

    finished: bool = False
    abandoned: list[uuid.UUID] = field(default_factory=list)
    games: list[uuid.UUID] = field(default_factory=list)


def room_locked(code: str) -> Room:
    try:
        return Room.objects.select_for_update().get(code=code)
    except Room.DoesNotExist:
        raise RoomNotFound(gettext_noop("There is no such room")) from None


def room_changed(room: Room, *fields: str) -> None:
    """Save a changed room with a new version, and push its snapshot once committed."""
    room.version += 1
    room.save(update_fields=["version", *fields])
    after_commit(room_announce, room.code)


def _present(room: Room) -> list[Racer]:
    return list(Racer.objects.filter(room=room, left_at__isnull=True).order_by("seat"))


@transaction.atomic
def room_open(
    *,
    user: AbstractBaseUser,
    variant: EngineVariant,
    public: bool,
    time_limit_s: int | None,
    now: datetime | None = None,
) -> Room:
    """Open a room, with its host in the first seat."""
    now = now or timezone.now()
    room = Room.objects.create(
        code=secrets.token_urlsafe(CODE_LENGTH * 3 // 4),
        host_id=user.pk,
        public=public,
        variant=variant.value,
        time_limit_s=time_limit_s,
        created_at=now,
    )
    Racer.objects.create(room=room, user_id=user.pk, seat=0, joined_at=now)
    return room


@transaction.atomic
def room_join(*, code: str, user: AbstractBaseUser, now: datetime | None = None) -> Room:
    """Take a free seat in a room that is not racing; joining twice changes nothing.

    The first to join a room nobody is in becomes its host.
    """
    now = now or timezone.now()
    room = _race_room(code)
    racer = Racer.objects.filter(room=room, user_id=user.pk).first()
    if racer is not None and racer.present:
        return room
    if room.state == RoomState.RACING:
        raise RaceStarted(gettext_noop("The race has started: join the next one when it is over"))
    seated = _present(room)
    if len(seated) >= MAX_RACERS:
        raise RoomFull(
            gettext_noop("The room is full: %(most)s racers at most"), values={"most": MAX_RACERS}
        )
    seat = min(set(range(MAX_RACERS)) - {other.seat for other in seated})
    try:
        with transaction.atomic():
            if racer is None:
                Racer.objects.create(room=room, user_id=user.pk, seat=seat, joined_at=now)
            else:
                racer.seat, racer.joined_at, racer.left_at = seat, now, None
                racer.save(update_fields=["seat", "joined_at", "left_at"])
    except IntegrityError:  # a seat taken meanwhile where the row lock is a no-op
        raise RoomFull(gettext_noop("The room filled up meanwhile")) from None
    if not seated:
        room.host_id = user.pk
    room_changed(room, "host")
    return room


@transaction.atomic
def room_leave(*, code: str, user: AbstractBaseUser, now: datetime | None = None) -> RaceEnd:
    """Give up one's seat. During a round, the racer's game is abandoned (their score stands)
    and they count as having left; the round may end with them. The host's role passes to the
    racer in the lowest seat."""
    now = now or timezone.now()
    room = _race_room(code)
    racer = Racer.objects.filter(room=room, user_id=user.pk, left_at__isnull=True).first()
    if racer is None:
        raise NotARacer(gettext_noop("You are not racing in this room"))
    racer.left_at = now
    racer.save(update_fields=["left_at"])
    abandoned: list[uuid.UUID] = []
    if room.state == RoomState.RACING:
        round_ = Round.objects.get(room=room, number=room.round_number)
        entry = Entry.objects.filter(round=round_, user_id=user.pk).first()
        if entry is not None:
            entry.left_at = now
            entry.save(update_fields=["left_at"])
            abandoned = games_abandon({entry.game_id: now})
    if room.host_id == user.pk:
        successor = Racer.objects.filter(room=room, left_at__isnull=True).order_by("seat").first()
        if successor is not None:
            room.host_id = successor.user_id
    room_changed(room, "host")
    end = _end_if_due(room, now)
    return RaceEnd(end.finished, abandoned + end.abandoned, end.games)


@transaction.atomic
def race_start(
    *, code: str, user: AbstractBaseUser, seed: str | None = None, now: datetime | None = None
) -> Round:
    """The host starts a round (the first, or a rematch): every racer seated now gets a game on
    one fresh secret deal, dealt now and playable when the countdown ends.

    ``seed`` is for tests only (known deals); no request can pass one.
    """
    now = now or timezone.now()
    room = _race_room(code)
    if room.host_id != user.pk:
        raise NotHost(gettext_noop("Only the host can start the race"))
    if room.state == RoomState.RACING:
        raise RaceStarted(gettext_noop("The race has already started"))
    racers = _present(room)
    if user.pk not in {racer.user_id for racer in racers}:
        raise NotARacer(gettext_noop("Join the room to start a race in it"))
    starts_at = now + timedelta(seconds=settings.RACE_COUNTDOWN_SECONDS)
    round_ = Round.objects.create(
        room=room,
        number=room.round_number + 1,
        seed=seed or new_seed(),
        starts_at=starts_at,
        ends_at=None
        if room.time_limit_s is None
        else starts_at + timedelta(seconds=room.time_limit_s),
    )
    variant = EngineVariant(room.variant)
    for racer in racers:
        game = game_start(
            player=Player(user_id=racer.user_id, guest_key=""),
            variant=variant,
            mode=Mode.RACE,
            seed=round_.seed,
            starts_at=starts_at,
            reveal_after=HIDDEN_UNTIL_THE_END,
        )
        Entry.objects.create(round=round_, user_id=racer.user_id, game=game)
    room.state = RoomState.RACING
    room.round_number = round_.number
    room_changed(room, "state", "round_number")
    return round_


@transaction.atomic
def race_end_if_due(*, code: str, now: datetime | None = None) -> RaceEnd:
    """End the room's round if it is due: every racer has won, lost, given up or left, or the
    time limit has run out (games still in play are then abandoned, their score standing).

    Idempotent: a round that is not due, or already over, is left as it is.
    """
    return _end_if_due(room_locked(code), now or timezone.now())


def _end_if_due(room: Room, now: datetime) -> RaceEnd:
    if room.state != RoomState.RACING:
        return RaceEnd()
    round_ = Round.objects.get(room=room, number=room.round_number)
    entries = list(Entry.objects.filter(round=round_).select_related("game"))
    abandoned = _time_out(room, round_, entries, now)
    if abandoned:
        entries = list(Entry.objects.filter(round=round_).select_related("game"))
    in_play = any(entry.game.status == Status.IN_PROGRESS for entry in entries)
    closed = round_.ends_at is not None and now >= round_.ends_at
    if room.kind == RoomKind.CHALLENGE:
        all_played = len(entries) >= (room.players or 0) and not in_play
        if not (all_played or closed):
            if abandoned:
                room_changed(room)
            return RaceEnd(abandoned=abandoned)
    elif in_play:
        return RaceEnd()
    _rank_and_rate(entries, now, rate=room.kind == RoomKind.RACE)
    games = [entry.game_id for entry in entries]
    # From now on the round's deal may be shown: the finished pages, exports and spectators.
    Game.objects.filter(id__in=games).update(reveal_after=now)
    round_.finished_at = now
    round_.save(update_fields=["finished_at"])
    room.state = RoomState.FINISHED
    room_changed(room, "state")
    return RaceEnd(finished=True, abandoned=abandoned, games=games)


def _time_out(room: Room, round_: Round, entries: list[Entry], now: datetime) -> list[uuid.UUID]:
    """Abandon the games of the round still in play past their deadline (score standing), and
    mark their entries out of time."""
    due = {
        entry.game_id: now
        for entry in entries
        if entry.game.status == Status.IN_PROGRESS
        and (deadline := game_deadline(room, round_, entry.game.started_at)) is not None
        and now >= deadline
    }
    if not due:
        return []
    abandoned = games_abandon(due)
    Entry.objects.filter(game_id__in=abandoned).update(timed_out=True)
    return abandoned


def race_order(entries: list[Entry]) -> list[list[Entry]]:
    """Entries by place, best first; entries in one group tied.

    Racers who stayed come before those who left; then the higher score; then the shorter time.
    """

    def key(entry: Entry) -> tuple[bool, int, int]:
        return (entry.left_at is not None, -entry.game.score, entry.game.duration_ms or 0)

    return [list(group) for _, group in groupby(sorted(entries, key=key), key=key)]


def _rank_and_rate(entries: list[Entry], now: datetime, *, rate: bool = True) -> None:
    """Store each racer's place and, when at least two raced (and ``rate``: a race, not a
    challenge), their new rating: the race is one Glicko-2 rating period, each racer scored
    against every other by place (docs/races.md)."""
    order = race_order(entries)
    rank = 1
    for group in order:
        for entry in group:
            entry.rank = rank
        rank += len(group)
    if rate and len(entries) >= 2:
        user_ids = sorted(entry.user_id for entry in entries)
        stored = {
            row.user_id: row
            for row in PlayerRating.objects.select_for_update()
            .filter(user_id__in=user_ids)
            .order_by("user_id")
        }
        before = {
            user_id: Rating(row.rating, row.deviation, row.volatility)
            if (row := stored.get(user_id)) is not None
            else Rating()
            for user_id in user_ids
        }
        after = rate_race(before, [[entry.user_id for entry in group] for group in order])
        for entry in entries:
            entry.rating_before = before[entry.user_id].rating
            entry.rating_after = after[entry.user_id].rating
        for user_id in user_ids:
            new = after[user_id]
            PlayerRating.objects.update_or_create(
                user_id=user_id,
                defaults={
                    "rating": new.rating,
                    "deviation": new.deviation,
                    "volatility": new.volatility,
                    "races": (stored[user_id].races if user_id in stored else 0) + 1,
                    "updated": now,
                },
            )
    Entry.objects.bulk_update(entries, ["rank", "rating_before", "rating_after"])


def racer_presence(*, code: str, user_id: int, delta: int) -> bool:
    """Count one more (``delta`` 1) or one fewer (-1) of a racer's sockets on the room's page;
    say whether they are a racer of the room (present or in its rounds)."""
    racers = Racer.objects.filter(room__code=code, user_id=user_id)
    if delta < 0:
        racers = racers.filter(sockets__gt=0)
    updated = racers.update(sockets=F("sockets") + delta)
    if updated:
        room = Room.objects.filter(code=code)
        room.update(version=F("version") + 1)
        after_commit(room_announce, code)
    return bool(updated)


def room_announce(code: str) -> None:
    """Push a room's snapshot to every socket on its page (run once the change is committed)."""
    room = room_for_code(code)
    if room is None:
        return
    snapshot = room_snapshot(room)
    event = {
        "type": "race.room",
        "room": snapshot.frame,
        "games": {str(user_id): game for user_id, game in snapshot.games.items()},
        "deadline": snapshot.deadline,
    }
    group_send_soon(room_group(code), event)
