"""Reads of the all-time, weekly and day boards: board pages, ranks, the games behind a row.

Every board is one index range of a score table (see ``leaderboard/models.py``), read a page of 50
at a time; a player's rank is the number of rows ahead of theirs, counted on the same index.
Players whose account was deactivated (banned) are left out here, at read time, so that a ban
needs no rewrite of the tables; deleted players' rows went with their account.
"""

import uuid
from dataclasses import dataclass
from datetime import UTC, date, datetime, time, timedelta
from enum import StrEnum
from functools import reduce
from operator import or_
from typing import Any, Final

from django.contrib.auth import get_user_model
from django.db.models import BooleanField, ExpressionWrapper, Q, QuerySet
from django.utils import timezone

from core.formats import iso
from game.models import Game, Status, Variant
from leaderboard.models import (
    ALL_TIME,
    WIN_RATE_MIN_GAMES,
    Daily,
    DailyAttempt,
    Deals,
    PlayerBest,
    PlayerTally,
)
from leaderboard.selectors import PAGE_SIZE, week_period

BOARD_DEPTH: Final = 5_000
"""Rows of a board that can be paged through (100 pages) and ranked exactly: reaching row N costs
the database a walk over the N rows before it."""


class BoardKind(StrEnum):
    """The all-time and weekly boards."""

    BEST = "best"
    """Best single score; ties to the shorter game, then the earlier finish."""
    WINS = "wins"
    """Most games won; ties to fewer games played."""
    RATE = "rate"
    """Best win rate, among players with at least WIN_RATE_MIN_GAMES games; ties to more games."""
    STREAK = "streak"
    """Longest run of wins; ties to whoever reached it first."""


BOARD_TITLES: Final = {
    BoardKind.BEST: "Best score",
    BoardKind.WINS: "Most wins",
    BoardKind.RATE: "Best win rate",
    BoardKind.STREAK: "Longest win streak",
}


@dataclass(frozen=True, slots=True)
class Board:
    """One of the all-time or weekly boards: a kind, a period, clean games only or all, and the
    variant and deal pool whose games it ranks (standard TriPeaks on random deals by default)."""

    kind: BoardKind
    period: str = ALL_TIME
    clean: bool = False
    variant: str = Variant.TRIPEAKS
    deals: str = Deals.RANDOM


def board_for(
    kind: BoardKind,
    *,
    weekly: bool = False,
    clean: bool = False,
    variant: str = Variant.TRIPEAKS,
    deals: str = Deals.RANDOM,
    now: datetime | None = None,
) -> Board:
    """A board as the pages ask for it: all time, or the week that ``now`` falls in."""
    period = week_period(now or timezone.now()) if weekly else ALL_TIME
    return Board(kind, period, clean, variant, deals)


@dataclass(frozen=True, slots=True)
class DailyBoard:
    """A day's board: every ranked attempt finished within the day."""

    daily_id: int


AnyBoard = Board | DailyBoard


@dataclass(frozen=True, slots=True)
class BoardRow:
    """One line of a board; the fields a board does not show are None."""

    rank: int
    user_id: int
    player: str
    game_id: uuid.UUID | None = None
    """The game behind a best-score or day's row: its replay and export show how it was made."""
    score: int | None = None
    duration_ms: int | None = None
    finished_at: datetime | None = None
    won: int | None = None
    played: int | None = None
    win_rate: float | None = None
    streak: int | None = None
    streak_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class BoardPage:
    """A page of a board, numbered from 1."""

    rows: list[BoardRow]
    number: int
    has_next: bool

    @property
    def has_previous(self) -> bool:
        return self.number > 1


@dataclass(frozen=True, slots=True)
class _Spec:
    """How a board reads: the rows of its period (or day), which of them are on it, their order
    (field, descending), and what a row shows."""

    base: QuerySet[Any]
    member: Q
    order: tuple[tuple[str, bool], ...]
    columns: dict[str, str]
    """Row attribute to table column, in the order of the index that serves the board."""

    @property
    def rows(self) -> QuerySet[Any]:
        """The board's rows, banned players' included."""
        return self.base.filter(self.member)

    @property
    def shown(self) -> QuerySet[Any]:
        """The rows on the board: deactivated (banned) players are left out when read, so that a
        ban needs no rewrite of the tables (a partial index keeps their list a few pages long)."""
        return self.rows.exclude(user_id__in=_banned())


def _banned() -> QuerySet[Any]:
    return get_user_model().objects.filter(is_active=False).values("pk")


_BY_SCORE: Final = (("score", True), ("duration_ms", False), ("finished_at", False))
_SCORE_COLUMNS: Final = {
    "score": "score",
    "duration_ms": "duration_ms",
    "finished_at": "finished_at",
    "game_id": "game_id",
}


def _spec(board: AnyBoard) -> _Spec:
    if isinstance(board, DailyBoard):
        return _Spec(
            DailyAttempt.objects.filter(daily_id=board.daily_id),
            Q(score__isnull=False),
            (*_BY_SCORE, ("user_id", False)),
            _SCORE_COLUMNS,
        )
    key = {
        "variant": board.variant,
        "deals": board.deals,
        "period": board.period,
        "clean_only": board.clean,
    }
    if board.kind == BoardKind.BEST:
        return _Spec(
            PlayerBest.objects.filter(**key),
            Q(score__gte=0),
            (*_BY_SCORE, ("user_id", False)),
            _SCORE_COLUMNS,
        )
    tallies = PlayerTally.objects.filter(**key)
    if board.kind == BoardKind.WINS:
        return _Spec(
            tallies,
            Q(won__gt=0),
            (("won", True), ("played", False), ("user_id", False)),
            {"won": "won", "played": "played"},
        )
    if board.kind == BoardKind.RATE:
        return _Spec(
            tallies,
            Q(played__gte=WIN_RATE_MIN_GAMES),
            (("win_rate", True), ("played", True), ("user_id", False)),
            {"win_rate": "win_rate", "played": "played", "won": "won"},
        )
    return _Spec(
        tallies,
        Q(longest_streak__gt=0),
        (("longest_streak", True), ("longest_streak_at", False), ("user_id", False)),
        {"streak": "longest_streak", "streak_at": "longest_streak_at"},
    )


def board_page(board: AnyBoard, number: int = 1, *, size: int = PAGE_SIZE) -> BoardPage:
    """Page ``number`` of a board; pages past its end, or past its first BOARD_DEPTH rows, are
    empty."""
    spec = _spec(board)
    number = max(1, number)
    offset = (number - 1) * size
    if offset >= BOARD_DEPTH:
        return BoardPage(rows=[], number=number, has_next=False)
    ordering = [f"-{field}" if descending else field for field, descending in spec.order]
    fields = ["user_id", *spec.columns.values()]
    wanted = min(size, BOARD_DEPTH - offset)
    found = list(spec.shown.order_by(*ordering).values_list(*fields)[offset : offset + wanted + 1])
    names = dict(
        get_user_model()
        .objects.filter(pk__in=[row[0] for row in found[:wanted]])
        .values_list("pk", "username")
    )
    rows = [
        BoardRow(
            rank=offset + i + 1,
            user_id=row[0],
            player=names.get(row[0], ""),
            **dict(zip(spec.columns, row[1:], strict=True)),
        )
        for i, row in enumerate(found[:wanted])
    ]
    has_next = len(found) > wanted and offset + wanted < BOARD_DEPTH
    return BoardPage(rows=rows, number=number, has_next=has_next)


@dataclass(frozen=True, slots=True)
class Rank:
    """A player's place on a board: exact within its first BOARD_DEPTH rows; further down, only
    that it is further down (counting every row ahead would cost a walk over all of them)."""

    position: int | None

    @property
    def deeper(self) -> bool:
        return self.position is None


def rank_of(user_id: int, board: AnyBoard) -> Rank | None:
    """A player's place on a board, or None when they are not on it.

    The rows ahead are counted as plain ranges of the board's index, each stopped after
    BOARD_DEPTH rows: those ahead on the first key, then those tied on it but ahead on the next
    keys; less the banned players' rows ahead (their list is short).
    """
    spec = _spec(board)
    keys = [field for field, _ in spec.order]
    mine = spec.shown.filter(user_id=user_id).values(*keys).first()
    if mine is None:
        return None
    first, descending = spec.order[0]
    banned = _banned_ahead(spec, mine)
    limit = BOARD_DEPTH + banned
    beyond = spec.rows.filter(**{f"{first}__{'gt' if descending else 'lt'}": mine[first]})
    ahead = beyond.values("pk")[:limit].count()
    if ahead < limit:
        tied = spec.rows.filter(**{first: mine[first]}).filter(_ahead(spec.order[1:], mine))
        ahead += tied.values("pk")[: limit - ahead].count()
    ahead -= banned
    return Rank(ahead + 1 if ahead < BOARD_DEPTH else None)


def _banned_ahead(spec: _Spec, mine: dict[str, Any]) -> int:
    """How many banned players' rows are ahead of ``mine`` on the board.

    Their rows are fetched by player, a few probes of the (player, period) unique index, and
    whether they are on the board is worked out beside them (not in the query's conditions,
    which would lead the database to read the whole board by its own index instead).
    """
    banned_ids = list(_banned().values_list("pk", flat=True))
    if not banned_ids:
        return 0
    on_board = ExpressionWrapper(spec.member, output_field=BooleanField())
    rows = spec.base.filter(user_id__in=banned_ids).annotate(on_board=on_board)
    keys = [field for field, _ in spec.order]
    mine_key = _sort_key(spec.order, mine)
    return sum(
        row["on_board"] and _sort_key(spec.order, row) < mine_key
        for row in rows.values(*keys, "on_board")
    )


def _sort_key(order: tuple[tuple[str, bool], ...], values: dict[str, Any]) -> tuple[Any, ...]:
    """A row's place in ``order`` as a tuple that sorts the same way (descending keys are
    numbers, so they are negated)."""
    return tuple(-values[field] if descending else values[field] for field, descending in order)


def _ahead(order: tuple[tuple[str, bool], ...], values: dict[str, Any]) -> Q:
    """The rows that come before ``values`` in ``order``.

    The first key's bound is implied by the rest but lets the database read only the rows ahead
    (and the ties), as one range of the board's index.
    """
    first, first_descending = order[0]
    bound = Q(**{f"{first}__gte" if first_descending else f"{first}__lte": values[first]})
    same = Q()
    alternatives = []
    for field, descending in order:
        alternatives.append(
            same & Q(**{f"{field}__gt" if descending else f"{field}__lt": values[field]})
        )
        same &= Q(**{field: values[field]})
    return bound & reduce(or_, alternatives)


def row_games(user_id: int, board: Board) -> QuerySet[Game]:
    """The games a player's row on an all-time or weekly board counts, in the order they ended:
    their ranked games of the board's variant and deal pool, in its period, clean ones only on a
    clean board (the games a moderator hid apart)."""
    games = (
        Game.objects.filter(
            owner_id=user_id,
            ranked=True,
            hidden=False,
            variant=board.variant,
            deal_source=board.deals,
        )
        .exclude(status=Status.IN_PROGRESS)
        .order_by("finished_at", "id")
    )
    if board.clean:
        games = games.filter(assisted=False)
    if board.period != ALL_TIME:
        monday = datetime.combine(date.fromisoformat(board.period), time.min, tzinfo=UTC)
        games = games.filter(finished_at__gte=monday, finished_at__lt=monday + timedelta(days=7))
    return games


def daily_board_snapshot(daily: Daily) -> dict[str, Any]:
    """The first page of a day's board as the websocket pushes it (``docs/protocol.md``).

    ``version`` is the time the snapshot was read, in ms: a client keeps the highest it has seen.
    """
    version = int(timezone.now().timestamp() * 1000)
    page = board_page(DailyBoard(daily.id))
    return {
        "type": "board",
        "date": daily.date.isoformat(),
        "version": version,
        "rows": [
            {
                "rank": row.rank,
                "player": row.player,
                "score": row.score,
                "duration_ms": row.duration_ms,
                "finished_at": iso(row.finished_at),
            }
            for row in page.rows
        ],
    }
