"""Live games: the engine states of the games a process serves, kept in memory.

The move path must be durable and fast. Each process keeps the engine state of the games it
serves, so a move is checked without reading the database; the move writer (:mod:`game.writer`)
commits it with the moves of other games that arrived meanwhile, and only then is it acknowledged.
A process whose cached state is stale learns so from the database (the move fails as taken, or
the stored move count differs) and reads the game again.

Everything here belongs to one event loop (Daphne runs one per process; tests run one per test).
"""

from __future__ import annotations

import asyncio
import threading
import uuid
from collections import OrderedDict
from collections.abc import Iterable
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, Final

import psycopg
from django.db import connection

from core.database import DatabaseThread
from core.groups import game_group
from game.engine import Deal, GameState, Variant
from game.models import Game, Move, Status
from game.writer import MoveWriter

MAX_CACHED_GAMES: Final = 5000


class GameGone(Exception):
    """The game is not in the database (never was, or was deleted with its player's account)."""


@dataclass(eq=False)
class LiveGame:
    """A game row's fixed facts and the engine state its move log gives."""

    game_id: uuid.UUID
    owner_id: int | None
    guest_key: str
    mode: str
    started_at: datetime
    finished_at: datetime | None
    assisted: bool
    reveal_after: datetime | None
    state: GameState
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    # Set by a service call that has just read the game from the database, for the length of the
    # call: within it there is nothing newer to ask the database for.
    just_loaded: bool = False

    @property
    def group_name(self) -> str:
        return game_group(self.game_id)


def replay_log(game: Game) -> GameState:
    """The engine state a stored game's log gives (an abandonment is stored on the row alone)."""
    return _replayed(game.seed, game.variant, game.status, _stored_log(game.id, game.move_count))


def _stored_log(game_id: uuid.UUID, move_count: int) -> list[str]:
    if not move_count:  # a game just dealt: its log is empty, and it is the most often loaded
        return []
    moves = Move.objects.filter(game_id=game_id).order_by("seq").values_list("move", flat=True)
    return list(moves)


def _replayed(seed: str, variant: str, status: str, moves: Iterable[str]) -> GameState:
    state = GameState.replay(Deal.from_seed(seed), Variant(variant), moves)
    if status == Status.ABANDONED and not state.status.is_over:
        state.abandon()
    return state


_LOADED: Final = (
    "owner_id", "guest_key", "mode", "started_at", "finished_at", "assisted", "reveal_after",
    "seed", "variant", "status",
)  # fmt: skip
"""The columns of a game's row that :func:`load_live_game` reads, in order (then its log)."""


def load_live_game(game_id: uuid.UUID) -> LiveGame:
    """Read a game and replay its log (raises Game.DoesNotExist).

    A page or a socket opens a game about once for every fifty moves, and reading it through the
    ORM cost 380-730 µs of the process's CPU, most of it building the queries; on PostgreSQL it is
    one statement written once, with the log in the same row (:data:`_LOAD_GAME`): 80-110 µs,
    the replay included.
    """
    if connection.vendor == "postgresql":
        row = _game_row_postgresql(game_id)
    else:
        *fields, move_count = Game.objects.values_list(*_LOADED, "move_count").get(id=game_id)
        row = (*fields, _stored_log(game_id, move_count))
    owner_id, guest_key, mode, started_at, finished_at, assisted, reveal_after, *log = row
    seed, variant, status, moves = log
    return LiveGame(
        game_id=game_id,
        owner_id=owner_id,
        guest_key=guest_key,
        mode=mode,
        started_at=started_at,
        finished_at=finished_at,
        assisted=assisted,
        reveal_after=reveal_after,
        state=_replayed(seed, variant, status, moves),
    )


_LOAD_GAME: Final = f"""
SELECT {", ".join(f"game.{column}" for column in _LOADED)},
       CASE WHEN game.move_count = 0 THEN '{{}}'::varchar[] ELSE ARRAY(
           SELECT move.move FROM {Move._meta.db_table} AS move
           WHERE move.game_id = game.id ORDER BY move.seq
       ) END
FROM {Game._meta.db_table} AS game WHERE game.id = %s
"""
"""A game's row and its log, in one statement (PostgreSQL)."""


def _game_row_postgresql(game_id: uuid.UUID) -> tuple[Any, ...]:
    connection.ensure_connection()
    # As game.writer does: psycopg's own cursor, the statement prepared on the server once per
    # connection, and Django's wrapper to turn psycopg's errors into Django's.
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(_LOAD_GAME, (game_id,), prepare=True)
        row = cursor.fetchone()
    if row is None:
        raise Game.DoesNotExist(f"No game {game_id}")
    return row


def stored_progress(game_id: uuid.UUID) -> tuple[int, str]:
    """The move count and status the database holds for a game."""
    return Game.objects.values_list("move_count", "status").get(id=game_id)


class LiveGames:
    """This loop's cache of live games, its database threads and its move writer.

    The move writer has its own ways to the database: a batch of moves never waits behind a game
    being read for a new connection, nor behind the bookkeeping of a finished game (which go to
    ``database``), and the moves of games in play never wait behind the score tables' writes of a
    game that has just ended (:class:`~game.writer.MoveWriter`).
    """

    def __init__(self) -> None:
        self.database = DatabaseThread("game-db")
        self.writer = MoveWriter()
        self._games: OrderedDict[uuid.UUID, LiveGame] = OrderedDict()

    async def get(self, game_id: uuid.UUID) -> LiveGame:
        """The live game, loaded on first use (raises GameGone for an unknown game)."""
        live = self._games.get(game_id)
        if live is None:
            loaded = await self._load(game_id)
            # Another call may have loaded it meanwhile: one LiveGame (and one lock) per game.
            live = self._games.setdefault(game_id, loaded)
            while len(self._games) > MAX_CACHED_GAMES:
                self._games.popitem(last=False)
        self._games.move_to_end(game_id)
        return live

    def cached(self, game_id: uuid.UUID) -> bool:
        """Whether the game is in this loop's cache (else ``get`` reads it from the database)."""
        return game_id in self._games

    async def refresh(self, live: LiveGame, *, unless_current: bool = False) -> None:
        """Reload ``live`` from the database (hold its lock): another process may have moved, or
        the game may have changed hands (a guest who signed up).

        With ``unless_current``, first ask whether the stored log differs from the cached one (no
        need, if the game was read from the database in this very call).
        """
        if unless_current and live.just_loaded:
            return
        if unless_current:
            try:
                stored = await self.database.run(stored_progress, live.game_id)
            except Game.DoesNotExist:
                self.forget(live.game_id)
                raise GameGone(str(live.game_id)) from None
            if stored == (live.state.seq, live.state.status.value):
                return
        fresh = await self._load(live.game_id)
        live.owner_id, live.guest_key = fresh.owner_id, fresh.guest_key
        live.state, live.finished_at, live.assisted = fresh.state, fresh.finished_at, fresh.assisted

    async def _load(self, game_id: uuid.UUID) -> LiveGame:
        try:
            return await self.database.run(load_live_game, game_id)
        except Game.DoesNotExist:
            self.forget(game_id)
            raise GameGone(str(game_id)) from None

    def forget(self, game_id: uuid.UUID) -> None:
        """Drop a cached game, so that the next use replays it from the database."""
        self._games.pop(game_id, None)

    @property
    def answering(self) -> bool:
        """Whether every database thread is free of a query the database has not answered."""
        return self.database.answering and self.writer.answering

    def close(self) -> None:
        self.writer.close()
        self.database.close()


_registries: dict[asyncio.AbstractEventLoop, LiveGames] = {}
_registries_lock = threading.Lock()


def live_games() -> LiveGames:
    """The running event loop's live games."""
    loop = asyncio.get_running_loop()
    registry = _registries.get(loop)  # a lookup alone needs no lock: every move makes one
    if registry is not None:
        return registry
    with _registries_lock:
        registry = _registries.get(loop)
        if registry is None:
            registry = _registries[loop] = LiveGames()
        return registry


def close_all() -> None:
    """Close every loop's database thread and cache (tests call this after each test)."""
    with _registries_lock:
        registries = list(_registries.values())
        _registries.clear()
    for registry in registries:
        registry.close()
