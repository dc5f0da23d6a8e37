"""The move writer: group commit of moves from every game, in two lanes.

A move is acknowledged only after its transaction has committed. The writer commits the moves of
every game that arrived while the previous batch was being written in one transaction (on
PostgreSQL, one statement), so a move is durable without costing a commit of its own. The
database stays the referee between processes: a move row is unique per (game, seq), and a game row
is updated only if its stored log is exactly ``seq`` moves long, so a process whose cached state is
stale cannot write over a move made elsewhere; the move fails with :class:`MoveConflict`. The
moves that end an account's game go in a lane of their own (:class:`MoveWriter`).
"""

from __future__ import annotations

import asyncio
import functools
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

import psycopg
from django.db import IntegrityError, connection, models, transaction

from core.database import DatabaseThread, LoopConnection
from core.metrics import WRITER_BATCH_MOVES, WRITER_BATCH_SECONDS
from game import events
from game.models import Game, Move, Status

MAX_BATCH: Final = 500
MOVES_SESSION: Final = "tripeaks-moves"
"""The ``application_name`` of the session each process sends its moves in play on."""
PLAYING_LANE: Final = "playing"
ENDING_LANE: Final = "ending"
"""The writer's lanes, as ``tripeaks_writer_batch_seconds`` names them (:class:`MoveWriter`)."""


class MoveConflict(Exception):
    """The move's sequence number was taken meanwhile, by another process or connection."""


@dataclass(frozen=True, slots=True)
class MoveWrite:
    """One move to append to a game's log, with the derived fields it changes."""

    game_id: uuid.UUID
    seq: int
    move: str
    played_at: datetime
    status: str
    score: int
    cards_left: int
    finished_at: datetime | None
    duration_ms: int | None
    guest: bool = False
    """Whether the game was a guest's when its process last read it. Nothing counts a guest's
    game as it ends (it enters the score tables if and when it is handed to an account), so its
    last move goes with the moves in play and tells no one; sent from the event loop, it is
    refused (:class:`MoveConflict`) if the game has been handed to an account meanwhile."""


BatchWrite = Callable[[list["MoveWrite"]], Awaitable[list[Exception | None]]]
"""Writes a batch of moves and answers each: None if it was committed, else why not."""


def write_moves(batch: list[MoveWrite]) -> list[Exception | None]:
    """Write a batch: each move whose game is still where the move expects it is committed, the
    others fail with MoveConflict. Should the database refuse a row (a constraint), the moves are
    written one by one instead, so that the refused one fails alone.

    A batch holds at most one move per game, since a game's next move waits for the answer to its
    last (on PostgreSQL a second one would fail as taken)."""
    try:
        written = _write_batch(batch)
    except IntegrityError:
        return [_write_alone(item) for item in batch]
    return [_outcome(item, written) for item in batch]


def _write_alone(item: MoveWrite) -> Exception | None:
    try:
        written = _write_batch([item])
    except IntegrityError as error:
        return error
    return _outcome(item, written)


async def write_moves_now(
    database: LoopConnection, batch: list[MoveWrite]
) -> list[Exception | None]:
    """:func:`write_moves` for a batch in which no game ends but a guest's, on PostgreSQL, from the
    event loop: one statement, sent from the loop on ``database`` (which may send it twice: a move
    written the first time fails the second as taken, and its service then finds it recorded).

    No listener hears of the guests' games that end here (``game.events``): each such move is
    refused if its game has an owner by then, so that its service reads the game again and sends
    the move as an account's, to be told in its transaction."""
    try:
        written = await _appended_now(database, batch)
    except psycopg.IntegrityError:
        return [await _written_alone_now(database, item) for item in batch]
    return [_outcome(item, written) for item in batch]


async def _written_alone_now(database: LoopConnection, item: MoveWrite) -> Exception | None:
    try:
        written = await _appended_now(database, [item])
    except psycopg.IntegrityError as error:
        return error
    return _outcome(item, written)


async def _appended_now(
    database: LoopConnection, batch: list[MoveWrite]
) -> set[tuple[uuid.UUID, int]]:
    rows = await database.fetchall(
        _APPEND_MOVES_UNTOLD, _arrays([_append_row(item) for item in batch])
    )
    return {(game_id, seq) for game_id, seq in rows}


def _outcome(item: MoveWrite, written: set[tuple[uuid.UUID, int]]) -> MoveConflict | None:
    if (item.game_id, item.seq) in written:
        return None
    return MoveConflict(f"move {item.seq} of game {item.game_id} was taken meanwhile")


def _write_batch(batch: list[MoveWrite]) -> set[tuple[uuid.UUID, int]]:
    """Append the moves whose games' stored logs are exactly ``seq`` moves long and still in
    play, update those games, and enter the games that have just ended into the score tables, all
    in one transaction; return the (game, seq) of the moves written.

    On PostgreSQL the batches of moves in play do not come here: the event loop sends them
    itself, as one statement that is its own transaction (:func:`write_moves_now`), with no
    thread to wake and no interpreter's lock to win back after each reply.
    """
    postgresql = connection.vendor == "postgresql"
    ending = [item for item in batch if item.status != Status.IN_PROGRESS]
    with transaction.atomic():
        written = _append_postgresql(batch) if postgresql else _append_portable(batch)
        finished = [item.game_id for item in ending if (item.game_id, item.seq) in written]
        if finished:
            events.games_finished(finished)
    return written


def _append_postgresql(batch: list[MoveWrite]) -> set[tuple[uuid.UUID, int]]:
    """The batch as one statement over arrays (``unnest``), whatever its size.

    The arrays go as parameters bound by the server (psycopg's own cursor, on Django's connection
    and in its transaction, if one is open) rather than spelled out into the SQL text in Python as
    Django's cursor would.
    """
    connection.ensure_connection()
    # Django's wrapper turns psycopg's errors into Django's (an IntegrityError then sends the batch
    # to be written move by move) and marks the connection to be checked after any other error.
    with connection.wrap_database_errors, psycopg.Cursor(connection.connection) as cursor:
        cursor.execute(_APPEND_MOVES_POSTGRESQL, _arrays([_append_row(item) for item in batch]))
        return {(game_id, seq) for game_id, seq in cursor.fetchall()}


def _arrays(rows: list[tuple[Any, ...]]) -> list[list[Any]]:
    """Rows turned into one list per column: the arrays that ``unnest`` turns back into rows."""
    return [list(column) for column in zip(*rows, strict=True)]


def _append_portable(batch: list[MoveWrite]) -> set[tuple[uuid.UUID, int]]:
    """The batch as two statements per move (SQLite, the embedded default)."""
    written: set[tuple[uuid.UUID, int]] = set()
    with connection.cursor() as cursor:
        for item in batch:
            cursor.execute(_UPDATE_GAME, _update_params(item))
            if cursor.rowcount == 1:
                cursor.execute(_INSERT_MOVE, _insert_params(item))
                written.add((item.game_id, item.seq))
    return written


def _field(model: type[models.Model], name: str) -> models.Field[Any, Any]:
    field = model._meta.get_field(name)
    assert isinstance(field, models.Field)
    return field


def _column(model: type[models.Model], name: str) -> str:
    return connection.ops.quote_name(_field(model, name).column)


def _prepared(model: type[models.Model], name: str, value: object) -> Any:
    return _field(model, name).get_db_prep_value(value, connection, prepared=False)


_GAME_FIELDS: Final = (
    "move_count", "status", "score", "cards_left", "last_move_at", "finished_at", "duration_ms",
)  # fmt: skip
_UPDATE_GAME: Final = (
    "UPDATE {table} SET {sets} WHERE {id} = %s AND {count} = %s AND {status} = %s".format(
        table=connection.ops.quote_name(Game._meta.db_table),
        sets=", ".join(f"{_column(Game, name)} = %s" for name in _GAME_FIELDS),
        id=_column(Game, "id"),
        count=_column(Game, "move_count"),
        status=_column(Game, "status"),
    )
)
_MOVE_FIELDS: Final = ("game", "seq", "move", "played_at")
_INSERT_MOVE: Final = "INSERT INTO {table} ({columns}) VALUES ({values})".format(
    table=connection.ops.quote_name(Move._meta.db_table),
    columns=", ".join(_column(Move, name) for name in _MOVE_FIELDS),
    values=", ".join(["%s"] * len(_MOVE_FIELDS)),
)


# The arrays go in binary (``%b``): psycopg writes a list as an array's text in Python, quoting
# each element, which took 89 µs for a batch of 10 moves and 336 µs for 40; in binary, 38 and 86.
# bench/writer.py (200 moves a batch): 48-59 µs a move in text, 41-46 in binary.
def _append_moves_statement(guard: str) -> str:
    """The batch as one statement; ``guard``, a further condition on each game updated."""
    return f"""
WITH batch AS (
    SELECT * FROM unnest(%b::uuid[], %b::integer[], %b::varchar[], %b::varchar[], %b::integer[],
                         %b::integer[], %b::timestamptz[], %b::timestamptz[], %b::bigint[])
    AS batch(id, seq, move, status, score, cards_left, played_at, finished_at, duration_ms)
), updated AS (
    UPDATE {Game._meta.db_table} AS game
    SET move_count = batch.seq + 1, status = batch.status, score = batch.score,
        cards_left = batch.cards_left, last_move_at = batch.played_at,
        finished_at = batch.finished_at, duration_ms = batch.duration_ms
    FROM batch
    WHERE game.id = batch.id AND game.move_count = batch.seq
      AND game.status = '{Status.IN_PROGRESS.value}' {guard}
    RETURNING game.id, batch.seq
)
INSERT INTO {Move._meta.db_table} (game_id, seq, move, played_at)
SELECT batch.id, batch.seq, batch.move, batch.played_at FROM batch JOIN updated USING (id, seq)
RETURNING game_id, seq
"""


_APPEND_MOVES_POSTGRESQL: Final = _append_moves_statement("")
_APPEND_MOVES_UNTOLD: Final = _append_moves_statement(
    f"AND (batch.status = '{Status.IN_PROGRESS.value}' OR game.owner_id IS NULL)"
)
"""The statement the event loop sends: a game may end in it only while it has no owner."""


def _append_row(item: MoveWrite) -> tuple[Any, ...]:
    """A move's values in the order of ``_APPEND_MOVES_POSTGRESQL``'s arrays."""
    return (
        item.game_id, item.seq, item.move, item.status, item.score, item.cards_left,
        item.played_at, item.finished_at, item.duration_ms,
    )  # fmt: skip


def _update_params(item: MoveWrite) -> list[Any]:
    new_values = (
        item.seq + 1,
        item.status,
        item.score,
        item.cards_left,
        item.played_at,
        item.finished_at,
        item.duration_ms,
    )
    return [
        *(
            _prepared(Game, name, value)
            for name, value in zip(_GAME_FIELDS, new_values, strict=True)
        ),
        _prepared(Game, "id", item.game_id),
        item.seq,
        Status.IN_PROGRESS.value,
    ]


def _insert_params(item: MoveWrite) -> list[Any]:
    values = (item.game_id, item.seq, item.move, item.played_at)
    return [_prepared(Move, name, value) for name, value in zip(_MOVE_FIELDS, values, strict=True)]


class MoveWriter:
    """Group commit in two lanes, each a :class:`WriterLane`: the moves of games still in play
    (and the last moves of guests' games, which no listener hears of), and the moves that end an
    account's game.

    A batch of moves in play is one statement on PostgreSQL; one in which an account's game ends
    is a transaction that also enters the game in the score tables (:func:`_write_batch`), several
    round trips, each of which waits for the thread to be woken and given the interpreter's lock
    again. In one lane, the moves in play that arrived meanwhile waited for all of them: under
    the move bench's load the batches that ended a game took 1.4 to 1.9 times as long as the
    others (on the thread, 22 to 33 ms for 3 to 4.5 ms of its CPU), and they were a fifth to a
    third of the batches. A game's moves never race each other across the lanes: its next move
    waits for the answer to its last, and the move that ends it is its last.

    The accounts' endings go through a database thread of their own (they need Django's
    transaction and the score tables' events). On PostgreSQL the moves in play are sent from the
    event loop on a :class:`~core.database.LoopConnection`, with no thread to wake; elsewhere
    (SQLite, the embedded default) they have a database thread too.
    """

    def __init__(self) -> None:
        self._threads = [DatabaseThread("game-endings")]
        self._sessions: list[LoopConnection] = []
        if connection.vendor == "postgresql":
            self._sessions.append(LoopConnection(MOVES_SESSION))
            playing: BatchWrite = functools.partial(write_moves_now, self._sessions[0])
        else:
            self._threads.append(DatabaseThread("game-moves"))
            playing = functools.partial(self._threads[1].run, write_moves)
        self._playing = WriterLane(playing, PLAYING_LANE)
        self._ending = WriterLane(functools.partial(self._threads[0].run, write_moves), ENDING_LANE)

    async def write(self, item: MoveWrite) -> None:
        """Return once ``item`` is committed; raise MoveConflict if its seq was taken."""
        told = item.status != Status.IN_PROGRESS and not item.guest
        lane = self._ending if told else self._playing
        await lane.write(item)

    @property
    def answering(self) -> bool:
        """Whether no database thread of the writer waits on a query not answered in time."""
        return all(thread.answering for thread in self._threads)

    def close(self) -> None:
        """Close the writer's sessions and threads (its lanes idle)."""
        for session in self._sessions:
            session.close()
        for thread in self._threads:
            thread.close()


class WriterLane:
    """Group commit: the moves queued while the last batch was being written are written
    together by ``write_batch``, then each is answered. Each batch's time is observed under
    ``lane`` (``tripeaks_writer_batch_seconds``)."""

    def __init__(self, write_batch: BatchWrite, lane: str) -> None:
        self._write_batch = write_batch
        self._batch_seconds = WRITER_BATCH_SECONDS.labels(lane=lane)
        self._pending: list[tuple[MoveWrite, asyncio.Future[None]]] = []
        self._task: asyncio.Task[None] | None = None

    async def write(self, item: MoveWrite) -> None:
        """Return once ``item`` is committed; raise MoveConflict if its seq was taken."""
        future: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._pending.append((item, future))
        if self._task is None or self._task.done():
            self._task = asyncio.create_task(self._run(), name="move-writer")
        await future

    async def _run(self) -> None:
        while self._pending:
            batch, self._pending = self._pending[:MAX_BATCH], self._pending[MAX_BATCH:]
            WRITER_BATCH_MOVES.observe(len(batch))
            started = time.perf_counter()
            try:
                results = await self._write_batch([item for item, _ in batch])
            except Exception as error:  # the database is down: every move waiting fails
                results = [error] * len(batch)
            self._batch_seconds.observe(time.perf_counter() - started)
            for (_, future), result in zip(batch, results, strict=True):
                if future.done():
                    continue
                if result is None:
                    future.set_result(None)
                elif isinstance(result, IntegrityError | psycopg.IntegrityError | MoveConflict):
                    future.set_exception(MoveConflict(str(result)))
                else:
                    future.set_exception(result)
