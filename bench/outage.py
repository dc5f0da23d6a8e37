"""Outage drills: players mid-game while Redis, then PostgreSQL, go down and come back.

Runs the production topology (``deploy/topology.py``: nginx in front of two web processes started
as the image starts them, ``DEBUG=0``, Redis) on a PostgreSQL cluster of its own, so that
stopping and freezing it touches nothing else. N guests start games with the home page's form and
play them through nginx at a steady pace, each starting a new game when one ends, reconnecting and
sending moves again as the game page does. Three drills follow one another:

- **redis stopped**: Redis stopped for ``--outage`` seconds, then started;
- **postgresql stopped**: PostgreSQL stopped (a fast shutdown), then started;
- **postgresql frozen**: every PostgreSQL process stopped with SIGSTOP, then continued.

For each it prints the moves acknowledged per second before, during and after the fault (over
``--settle`` seconds either side), the moves answered "unavailable", the sockets the fault closed,
the longest wait for an answer, how long after the fault ended both web processes served a page
that reads the database again, and how many acknowledged moves the stored logs lack (0, always).

    .venv/bin/python bench/outage.py [--players 30] [--pace 0.1] [--outage 10] [--settle 5]
                                     [--smoke]

Needs Debian's nginx and PostgreSQL server, and redis-server. Prints figures only; nothing here
passes or fails.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import math
import secrets
import signal
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Final

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import psycopg

from bench.options import arguments
from deploy.clients import Player, Visitor, game_player
from deploy.servers import PrivatePostgres
from deploy.topology import Topology, production


@dataclass
class Seat:
    """One guest playing game after game; every game's player is kept, to check its log."""

    topology: Topology
    pace: float
    players: list[tuple[str, Player]] = field(default_factory=list)

    async def play_on(self) -> None:
        while True:
            game_id, session = await self._game_start()
            player = game_player(self.topology, game_id, session)
            self.players.append((game_id, player))
            await player.play(pause=self.pace)

    async def _game_start(self) -> tuple[str, str]:
        """A new game, as soon as the site can deal one (not while PostgreSQL is down)."""
        while True:
            visitor = Visitor(self.topology)
            try:
                game_id = await asyncio.to_thread(visitor.game_start)
            except (AssertionError, OSError):
                await asyncio.sleep(0.5)
                continue
            return game_id, visitor.cookies["sessionid"]


@dataclass(frozen=True)
class Drill:
    name: str
    start: Callable[[], None]
    end: Callable[[], None]


@dataclass(frozen=True)
class Figures:
    before: float
    during: float
    after: float
    unavailable: int
    closed: int
    longest: float
    pages_back: float


PAGE: Final = "/daily/archive/"
"""A page that reads the database on every request (nothing of it is cached)."""


PAGES_CAP: Final = 60.0
"""Seconds :func:`pages_served_again` waits at most (a site that never serves again must not
hang the bench)."""


async def pages_served_again(topology: Topology, since: float) -> float:
    """Seconds from ``since`` until each web process has served :data:`PAGE` (asked of each
    directly, one request after another), the later of the two; infinite if one has not within
    :data:`PAGES_CAP`."""

    async def served(port: int) -> float:
        visitor = Visitor(topology)
        while (await asyncio.to_thread(visitor.get, PAGE, web_port=port)).status != 200:
            if time.monotonic() - since > PAGES_CAP:
                return math.inf
            await asyncio.sleep(0.1)
        return time.monotonic() - since

    return max(await asyncio.gather(*(served(web.port) for web in topology.webs)))


def acknowledgements(seats: list[Seat], since: float, until: float) -> int:
    return sum(
        since <= moment < until
        for seat in seats
        for _, player in seat.players
        for moment in player.acknowledged_at
    )


async def run_drill(
    drill: Drill, topology: Topology, seats: list[Seat], outage: float, settle: float
) -> Figures:
    players = lambda: [player for seat in seats for _, player in seat.players]  # noqa: E731
    unavailable_before = sum(player.retryable_errors for player in players())
    closed_before = sum(len(player.closed_codes) for player in players())
    answers_before = {id(player): len(player.answer_seconds) for player in players()}
    started = time.monotonic()
    await asyncio.sleep(settle)
    drill.start()
    fault = time.monotonic()
    await asyncio.sleep(outage)
    drill.end()
    back = time.monotonic()
    pages = asyncio.create_task(pages_served_again(topology, back))
    await asyncio.sleep(settle)
    done = time.monotonic()
    longest = max(
        (
            answer
            for player in players()
            for answer in player.answer_seconds[answers_before.get(id(player), 0) :]
        ),
        default=0.0,
    )
    return Figures(
        before=acknowledgements(seats, started, fault) / (fault - started),
        during=acknowledgements(seats, fault, back) / (back - fault),
        after=acknowledgements(seats, back, done) / (done - back),
        unavailable=sum(player.retryable_errors for player in players()) - unavailable_before,
        closed=sum(len(player.closed_codes) for player in players()) - closed_before,
        longest=longest,
        pages_back=await pages,
    )


def missing_moves(database: PrivatePostgres, seats: list[Seat]) -> int:
    """Acknowledged moves that the stored logs do not hold at their number."""
    games = {game_id: player for seat in seats for game_id, player in seat.players}
    with psycopg.connect(database.url("tripeaks")) as connection:
        rows = connection.execute(
            "SELECT game_id::text, seq, move FROM game_move WHERE game_id::text = ANY(%s)",
            [list(games)],
        ).fetchall()
    stored = {(game_id, seq): move for game_id, seq, move in rows}
    return sum(
        stored.get((game_id, seq)) != move
        for game_id, player in games.items()
        for seq, move in player.acknowledged.items()
    )


async def drive(
    topology: Topology, database: PrivatePostgres, args: argparse.Namespace
) -> list[tuple[str, Figures]]:
    seats = [Seat(topology, args.pace) for _ in range(args.players)]
    playing = [asyncio.create_task(seat.play_on()) for seat in seats]
    drills = [
        Drill("redis stopped", topology.redis.stop, topology.redis.start),
        Drill("postgresql stopped", database.stop, database.start),
        Drill("postgresql frozen", database.freeze, database.thaw),
    ]
    results = []
    try:
        for drill in drills:
            results.append(
                (drill.name, await run_drill(drill, topology, seats, args.outage, args.settle))
            )
    finally:
        await stop_playing(playing)
    await asyncio.sleep(1)  # the last moves in flight are committed or refused
    lost = missing_moves(database, seats)
    print(f"acknowledged moves missing from the stored logs: {lost}")
    return results


async def stop_playing(tasks: list[asyncio.Task[None]]) -> None:
    """Cancel the seats' tasks, again and again until every one has ended.

    Once is not always enough on Python 3.11: ``asyncio.wait_for`` (which the players' reads go
    through) swallows a cancellation that comes just as the read it waits for completes
    (python/cpython#86296, fixed in 3.12), and that seat would play on for ever; a full run once
    hung so for a quarter of an hour after its last drill.
    """
    pending = set(tasks)
    while pending:
        for task in pending:
            task.cancel()
        _, pending = await asyncio.wait(pending, timeout=1.0)


def report(results: list[tuple[str, Figures]], args: argparse.Namespace) -> None:
    print(
        f"{args.players} players, a move every {args.pace:g} s each; {args.outage:g} s outages,"
        f" {args.settle:g} s before and after"
    )
    print(
        f"{'drill':>20} {'before/s':>9} {'during/s':>9} {'after/s':>8} {'unavailable':>12}"
        f" {'closed':>7} {'longest answer':>15} {'pages back':>11}"
    )
    for name, figures in results:
        print(
            f"{name:>20} {figures.before:>9.1f} {figures.during:>9.1f} {figures.after:>8.1f}"
            f" {figures.unavailable:>12} {figures.closed:>7} {figures.longest:>13.2f} s"
            f" {figures.pages_back:>9.2f} s"
        )


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--players", type=int, default=30)
    parser.add_argument("--pace", type=float, default=0.1, help="seconds between moves")
    parser.add_argument("--outage", type=float, default=10.0, help="seconds each part is down")
    parser.add_argument("--settle", type=float, default=5.0, help="seconds before and after")
    args = arguments(parser, {"players": 4, "outage": 1.5, "settle": 1.0}, argv)
    # Stopped with SIGTERM (timeout, kill), the bench still stops the servers it started: the
    # topology's processes and the private PostgreSQL would otherwise be left running.
    signal.signal(signal.SIGTERM, lambda *_: sys.exit(128 + signal.SIGTERM))
    database = PrivatePostgres()
    try:
        database.start()
        database.createdb("tripeaks")
        with (
            tempfile.TemporaryDirectory(prefix="tripeaks-outage-") as directory,
            production(
                Path(directory),
                database_url=database.url("tripeaks"),
                secret_key=secrets.token_urlsafe(50),
                run_migrations=True,
                extra_env={
                    "GAME_SOCKET_RATE": "1000",
                    "GAME_SOCKET_BURST": "1000",
                    "LOG_LEVEL": "WARNING",
                },
            ) as topology,
        ):
            report(asyncio.run(drive(topology, database, args)), args)
    finally:
        with contextlib.suppress(Exception):
            database.destroy()


if __name__ == "__main__":
    main()
