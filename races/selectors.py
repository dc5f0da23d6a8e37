"""Reads of the races app: a room's snapshot, the lobby, the ratings board, and what a race game's
change needs to know about its race.

Nothing here ever names a card or a seed: while a round runs, racers and onlookers see progress
figures only (cards left, score, streak, peaks cleared, moves, status, time).
"""

import uuid
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from django.db.models import F
from django.utils import timezone

from core.formats import iso
from game.engine import Deal, GameState, Variant
from game.models import Game, Move, Status
from races.models import Entry, PlayerRating, Racer, Room, RoomKind, RoomState, Round

RATINGS_PAGE_SIZE: Final = 50
RATINGS_MIN_RACES: Final = 3
"""Races a player needs before the ratings board lists them: one race says little."""
LOBBY_ROOMS: Final = 50
RECENT_RESULTS: Final = 10

Progress = dict[str, Any]
Snapshot = dict[str, Any]


class RacerStatus:
    """How a racer stands in a round, as the protocol names it."""

    READY = "ready"  # dealt, the countdown still running
    PLAYING = "playing"
    WON = "won"
    LOST = "lost"  # no move left: the engine ends a game as soon as it is stuck
    GAVE_UP = "gave_up"  # gave their game up on the board, but stayed in the room
    LEFT = "left"
    OUT_OF_TIME = "out_of_time"


def racer_status(game_status: str, *, left: bool, timed_out: bool, started: bool = True) -> str:
    """A racer's status from their game's and their entry's."""
    if left:
        return RacerStatus.LEFT
    if timed_out:
        return RacerStatus.OUT_OF_TIME
    if game_status == Status.IN_PROGRESS:
        return RacerStatus.PLAYING if started else RacerStatus.READY
    if game_status == Status.ABANDONED:
        return RacerStatus.GAVE_UP
    return game_status  # won or lost


def room_for_code(code: str) -> Room | None:
    return Room.objects.select_related("host").filter(code=code).first()


def current_round(room: Room) -> Round | None:
    if room.round_number == 0:
        return None
    return Round.objects.filter(room=room, number=room.round_number).first()


def _states(games: list[Game]) -> dict[uuid.UUID, GameState]:
    """The engine state of each game, replayed from the logs read in one query."""
    moves: dict[uuid.UUID, list[str]] = defaultdict(list)
    for game_id, move in (
        Move.objects.filter(game_id__in=[game.id for game in games])
        .order_by("game_id", "seq")
        .values_list("game_id", "move")
    ):
        moves[game_id].append(move)
    deals: dict[str, Deal] = {}
    states = {}
    for game in games:
        deal = deals.get(game.seed) or deals.setdefault(game.seed, Deal.from_seed(game.seed))
        states[game.id] = GameState.replay(deal, Variant(game.variant), moves[game.id])
    return states


def _progress(entry: Entry, state: GameState, now: datetime) -> Progress:
    game = entry.game
    return {
        "status": racer_status(
            game.status,
            left=entry.left_at is not None,
            timed_out=entry.timed_out,
            started=game.started_at <= now,
        ),
        "cards_left": game.cards_left,
        "score": game.score,
        "streak": state.streak,
        "peaks_cleared": state.peaks_cleared,
        "moves": game.move_count,
        "finished_ms": game.duration_ms,
    }


def progress_of_view(view: Mapping[str, Any], *, status: str) -> Progress:
    """The progress figures of a racer from their game's VIEW (never a card of it)."""
    finished_ms = None
    if view["finished_at"] is not None and view["started_at"] is not None:
        finished = datetime.fromisoformat(view["finished_at"])
        started = datetime.fromisoformat(view["started_at"])
        finished_ms = max(0, int((finished - started).total_seconds() * 1000))
    return {
        "status": status,
        "cards_left": view["cards_left"],
        "score": view["score"],
        "streak": view["streak"],
        "peaks_cleared": view["peaks_cleared"],
        "moves": view["seq"],
        "finished_ms": finished_ms,
    }


@dataclass(frozen=True, slots=True)
class RoomSnapshot:
    """A room's ``room`` frame, and what only the server knows: each racer's game of the round
    (a socket adds its own player's as ``your_game``) and the next deadline to check."""

    frame: Snapshot
    games: dict[int, str]
    deadline: float | None


def room_snapshot(room: Room, now: datetime | None = None) -> RoomSnapshot:
    """The whole state of a room as the protocol's ``room`` frame (docs/races.md)."""
    now = now or timezone.now()
    racers = list(
        Racer.objects.filter(room=room, left_at__isnull=True)
        .select_related("user")
        .order_by("seat")
    )
    round_ = current_round(room)
    entries: list[Entry] = []
    if round_ is not None:
        entries = list(
            Entry.objects.filter(round=round_).select_related("user", "game").order_by("id")
        )
    states = _states([entry.game for entry in entries])
    progress = {entry.user_id: _progress(entry, states[entry.game_id], now) for entry in entries}
    sockets = dict(
        Racer.objects.filter(room=room, user_id__in=[e.user_id for e in entries]).values_list(
            "user_id", "sockets"
        )
    )
    if room.kind == RoomKind.CHALLENGE:  # the live ranking: who has played first, by standing
        standing = {entry.user_id: live_standing(entry.game) for entry in entries}
        racers.sort(key=lambda racer: standing.get(racer.user_id, (True, 0, 0)))
    lines = [
        {
            "player": racer.user.get_username(),
            "seat": racer.seat,
            "host": racer.user_id == room.host_id,
            "in_room": True,
            "connected": racer.sockets > 0,
            "progress": progress.get(racer.user_id),
        }
        for racer in racers
    ]
    present = {racer.user_id for racer in racers}
    lines += [
        {
            "player": entry.user.get_username(),
            "seat": None,
            "host": False,
            "in_room": False,
            "connected": sockets.get(entry.user_id, 0) > 0,
            "progress": progress[entry.user_id],
        }
        for entry in entries
        if entry.user_id not in present
    ]
    finished = round_ is not None and round_.finished_at is not None
    frame: Snapshot = {
        "type": "room",
        "version": room.version,
        "code": room.code,
        "kind": room.kind,
        "players": room.players,
        "state": _state(room, round_, now),
        "public": room.public,
        "variant": room.variant,
        "time_limit_s": room.time_limit_s,
        "host": room.host.get_username(),
        "server_time": iso(now),
        "round": None
        if round_ is None
        else {
            "number": round_.number,
            "starts_at": iso(round_.starts_at),
            "ends_at": iso(round_.ends_at),
            "finished_at": iso(round_.finished_at),
        },
        "racers": lines,
        "results": _results(entries) if finished else None,
    }
    deadline = None
    if room.state == RoomState.RACING and round_ is not None:
        deadline = next_deadline(room, round_, entries)
    games = {entry.user_id: str(entry.game_id) for entry in entries}
    return RoomSnapshot(frame=frame, games=games, deadline=deadline)


def live_standing(game: Game) -> tuple[bool, int, int]:
    """A game's place in a challenge's live ranking: by score, higher first, then by time, shorter
    first, games still in play after those that are over at the same score."""
    return (False, -game.score, game.duration_ms if game.duration_ms is not None else 2**62)


def game_deadline(room: Room, round_: Round, started_at: datetime) -> datetime | None:
    """When a game of the round must end: the round's time limit; in a challenge, the game's
    own time limit from its start, or the challenge's close, whichever comes first."""
    if room.kind != RoomKind.CHALLENGE or room.time_limit_s is None:
        return round_.ends_at
    own = started_at + timedelta(seconds=room.time_limit_s)
    return own if round_.ends_at is None else min(own, round_.ends_at)


def next_deadline(room: Room, round_: Round, entries: list[Entry]) -> float | None:
    """The next moment the round may have to be ended (a time limit, a challenge's close), as a
    timestamp, or None."""
    moments = [round_.ends_at] + [
        game_deadline(room, round_, entry.game.started_at)
        for entry in entries
        if entry.game.status == Status.IN_PROGRESS
    ]
    found = [moment.timestamp() for moment in moments if moment is not None]
    return min(found) if found else None


def _state(room: Room, round_: Round | None, now: datetime) -> str:
    if room.state == RoomState.RACING and round_ is not None and now < round_.starts_at:
        return "countdown"
    return str(room.state)


def _results(entries: list[Entry]) -> list[dict[str, Any]]:
    """A finished round's results by rank; each racer's game is public from now on."""
    ranked = sorted(entries, key=lambda entry: (entry.rank or 0, entry.id))
    return [
        {
            "rank": entry.rank,
            "player": entry.user.get_username(),
            "status": racer_status(
                entry.game.status, left=entry.left_at is not None, timed_out=entry.timed_out
            ),
            "score": entry.game.score,
            "cards_left": entry.game.cards_left,
            "duration_ms": entry.game.duration_ms,
            "rating": entry.rating_after,
            "rating_change": None
            if entry.rating_after is None or entry.rating_before is None
            else entry.rating_after - entry.rating_before,
            "game": str(entry.game_id),
        }
        for entry in ranked
    ]


@dataclass(frozen=True, slots=True)
class RaceGame:
    """What a change to a race game needs to know about its race, cached by :mod:`races.live`."""

    code: str
    round_number: int
    player: str
    starts_at: datetime
    ends_at: datetime | None


def race_game(game_id: uuid.UUID) -> RaceGame | None:
    """The race a game belongs to, or None for a game that is in no race."""
    entry = (
        Entry.objects.select_related("round__room", "user", "game").filter(game_id=game_id).first()
    )
    if entry is None:
        return None
    return RaceGame(
        code=entry.round.room.code,
        round_number=entry.round.number,
        player=entry.user.get_username(),
        starts_at=entry.round.starts_at,
        ends_at=game_deadline(entry.round.room, entry.round, entry.game.started_at),
    )


def entry_status(game_id: uuid.UUID) -> str | None:
    """A race game's racer status, read from the database (for a game that has just ended)."""
    entry = Entry.objects.select_related("game").filter(game_id=game_id).first()
    if entry is None:
        return None
    return racer_status(
        entry.game.status, left=entry.left_at is not None, timed_out=entry.timed_out
    )


def lobby_rooms(limit: int = LOBBY_ROOMS) -> list[dict[str, Any]]:
    """Public rooms one can join now (waiting, or between rounds), newest first."""
    rooms = list(
        Room.objects.filter(public=True, state__in=[RoomState.WAITING, RoomState.FINISHED])
        .select_related("host")
        .order_by("-created_at")[:limit]
    )
    counts = _present_counts([room.id for room in rooms])
    return [
        {"room": room, "racers": counts[room.id]} for room in rooms if counts.get(room.id, 0) > 0
    ]


def _present_counts(room_ids: list[int]) -> dict[int, int]:
    counts: dict[int, int] = defaultdict(int)
    for room_id in Racer.objects.filter(room_id__in=room_ids, left_at__isnull=True).values_list(
        "room_id", flat=True
    ):
        counts[room_id] += 1
    return counts


def recent_results(limit: int = RECENT_RESULTS) -> list[dict[str, Any]]:
    """The latest finished rounds of public rooms, with their winners."""
    rounds = list(
        Round.objects.filter(room__public=True, finished_at__isnull=False)
        .select_related("room")
        .order_by("-finished_at")[:limit]
    )
    winners: dict[int, list[str]] = defaultdict(list)
    racers: dict[int, int] = defaultdict(int)
    for round_id, rank, name in Entry.objects.filter(round__in=rounds).values_list(
        "round_id", "rank", "user__username"
    ):
        racers[round_id] += 1
        if rank == 1:
            winners[round_id].append(name)
    return [
        {
            "round": round_,
            "winners": sorted(winners[round_.id]),
            "racers": racers[round_.id],
        }
        for round_ in rounds
    ]


@dataclass(frozen=True, slots=True)
class RatingsPage:
    rows: list[dict[str, Any]]
    number: int
    has_next: bool

    @property
    def has_previous(self) -> bool:
        return self.number > 1


def ratings_page(number: int = 1, *, size: int = RATINGS_PAGE_SIZE) -> RatingsPage:
    """A page of the ratings board: by conservative rating (rating less two deviations, so that
    one lucky race does not top the board), players of at least RATINGS_MIN_RACES races whose
    account is active (a ban deactivates it)."""
    number = max(1, number)
    offset = (number - 1) * size
    found = list(
        PlayerRating.objects.filter(races__gte=RATINGS_MIN_RACES, user__is_active=True)
        .annotate(conservative=F("rating") - 2 * F("deviation"))
        .order_by("-conservative", "user_id")
        .values("user_id", "user__username", "rating", "deviation", "races", "conservative")[
            offset : offset + size + 1
        ]
    )
    rows = [
        {
            "rank": offset + index + 1,
            "user_id": row["user_id"],
            "player": row["user__username"],
            "rating": row["rating"],
            "deviation": row["deviation"],
            "conservative": row["conservative"],
            "races": row["races"],
        }
        for index, row in enumerate(found[:size])
    ]
    return RatingsPage(rows=rows, number=number, has_next=len(found) > size)


def rating_of(user_id: int) -> PlayerRating | None:
    return PlayerRating.objects.filter(user_id=user_id).first()


def is_racer(room: Room, user_id: int | None) -> bool:
    """Whether the player holds a seat in the room."""
    if user_id is None:
        return False
    return Racer.objects.filter(room=room, user_id=user_id, left_at__isnull=True).exists()


def own_game(room: Room, user_id: int | None) -> Game | None:
    """The player's game in the room's current round, if they race it."""
    if user_id is None or room.round_number == 0:
        return None
    entry = (
        Entry.objects.select_related("game")
        .filter(round__room=room, round__number=room.round_number, user_id=user_id)
        .first()
    )
    return entry.game if entry is not None else None
