"""Durable moves per second over real websockets, beside a bare echo on the same server.

Starts Daphne on loopback against PostgreSQL, then for each N (1, 50, 200 by default) drives N
concurrent websocket clients, first through a bare echo consumer and then through the game, each
game client playing real games move by move (a fitting card when there is one, else a draw; a new
game when one ends). Prints moves per second and the p50/p99 round trip of both, and their ratios.

    .venv/bin/python bench/moves.py [--clients 1 50 200] [--seconds 10]

Needs PostgreSQL on 127.0.0.1:5432 (trust auth): it uses the database ``tripeaks_bench``, made
and migrated on first use, and vacuumed and analysed before each move phase (as autovacuum would
keep it). Prints figures only; nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import secrets
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import django
import websockets
from websockets.typing import Origin

from bench.servers import (
    DATABASE_URL,
    autovacuum_on,
    prepare_database,
    start_server,
    stop_server,
    vacuum_database,
)

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402

from game.engine import Variant  # noqa: E402
from game.players import GUEST_KEY_SESSION_FIELD, Player  # noqa: E402
from game.services import game_start  # noqa: E402

REPLY_TIMEOUT = 30.0
GAMES_DEALT_AHEAD = 3
"""Games started per client before the move phase (a game lasts ~40 moves; more are started on
the fly should a client run out)."""


@dataclass
class Tally:
    """Round trips measured in one phase."""

    round_trips: list[float] = field(default_factory=list)
    errors: int = 0

    def summary(self, seconds: float) -> tuple[float, float, float]:
        """(per second, p50 ms, p99 ms)."""
        if not self.round_trips:
            return 0.0, float("nan"), float("nan")
        ordered = sorted(self.round_trips)
        p99 = ordered[min(len(ordered) - 1, int(len(ordered) * 0.99))]
        return len(ordered) / seconds, statistics.median(ordered) * 1e3, p99 * 1e3


@dataclass
class Guest:
    """A bench player: a stored guest session whose cookie the client sends."""

    cookie: str
    player: Player
    games: list[str] = field(default_factory=list)

    @classmethod
    def create(cls) -> Guest:
        key = secrets.token_urlsafe(16)
        session = SessionStore()
        session[GUEST_KEY_SESSION_FIELD] = key
        session.create()
        return cls(f"{settings.SESSION_COOKIE_NAME}={session.session_key}", Player(None, key))

    def deal_games(self, count: int) -> None:
        """Start games ahead of a phase, so that the clients spend the phase making moves."""
        self.games.extend(
            str(game_start(player=self.player, variant=Variant.TRIPEAKS).id) for _ in range(count)
        )

    def next_game(self) -> str:
        if not self.games:
            self.deal_games(1)
        return self.games.pop()


def next_move(view: dict[str, Any]) -> str:
    """A fitting card when there is one (the server lists them), else a draw."""
    playable = view["playable"]
    return view["tableau"][playable[0]] if playable else "draw"


async def echo_client(base: str, deadline: float, tally: Tally) -> None:
    async with websockets.connect(
        f"{base}/ws/echo/", origin=Origin(base.replace("ws:", "http:"))
    ) as ws:
        seq = 0
        while time.monotonic() < deadline:
            message = json.dumps({"type": "move", "seq": seq, "move": "draw"})
            started = time.perf_counter()
            await ws.send(message)
            await asyncio.wait_for(ws.recv(), REPLY_TIMEOUT)
            tally.round_trips.append(time.perf_counter() - started)
            seq += 1


async def game_client(base: str, guest: Guest, deadline: float, tally: Tally) -> None:
    while time.monotonic() < deadline:
        game_id = guest.games.pop() if guest.games else await asyncio.to_thread(guest.next_game)
        async with websockets.connect(
            f"{base}/ws/games/{game_id}/",
            origin=Origin(base.replace("ws:", "http:")),
            additional_headers={"Cookie": guest.cookie},
        ) as ws:
            view = json.loads(await ws.recv())["game"]
            while view["status"] == "in_progress" and time.monotonic() < deadline:
                started = time.perf_counter()
                await ws.send(
                    json.dumps({"type": "move", "seq": view["seq"], "move": next_move(view)})
                )
                reply = json.loads(await asyncio.wait_for(ws.recv(), REPLY_TIMEOUT))
                if reply["type"] != "state":
                    tally.errors += 1
                tally.round_trips.append(time.perf_counter() - started)
                view = reply["game"]


async def phase(clients: list[Any]) -> None:
    await asyncio.gather(*clients)


def run_phase(kind: str, base: str, guests: list[Guest], seconds: float) -> tuple[Tally, float]:
    tally = Tally()
    deadline = time.monotonic() + seconds
    started = time.monotonic()
    if kind == "echo":
        clients = [echo_client(base, deadline, tally) for _ in guests]
    else:
        clients = [game_client(base, guest, deadline, tally) for guest in guests]
    asyncio.run(phase(clients))
    return tally, time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 50, 200])
    parser.add_argument("--seconds", type=float, default=10.0)
    args = parser.parse_args()

    prepare_database()
    server, base = start_server("bench.echo_asgi:application")
    print(f"Daphne on {base}, PostgreSQL {DATABASE_URL}, {args.seconds:g} s per phase")
    print(f"autovacuum is {'on' if autovacuum_on() else 'off'}; the database is vacuumed and "
          "analysed before each move phase")  # fmt: skip
    print(f"{'N':>5} {'echo/s':>9} {'p50':>7} {'p99':>7} {'moves/s':>9} {'p50':>7} {'p99':>7} "
          f"{'moves/echo':>10} {'p99 ratio':>9} {'errors':>6}")  # fmt: skip
    try:
        for n in args.clients:
            guests = [Guest.create() for _ in range(n)]
            for guest in guests:
                guest.deal_games(GAMES_DEALT_AHEAD)
            echo, echo_seconds = run_phase("echo", base, guests, args.seconds)
            vacuum_database()
            moves, move_seconds = run_phase("moves", base, guests, args.seconds)
            e_rate, e_p50, e_p99 = echo.summary(echo_seconds)
            m_rate, m_p50, m_p99 = moves.summary(move_seconds)
            print(
                f"{n:>5} {e_rate:>9.0f} {e_p50:>6.2f}ms {e_p99:>6.2f}ms {m_rate:>9.0f} "
                f"{m_p50:>6.2f}ms {m_p99:>6.2f}ms {m_rate / e_rate:>10.2f} "
                f"{m_p99 / e_p99:>9.2f} {moves.errors:>6}",
                flush=True,
            )
    finally:
        stop_server(server)


if __name__ == "__main__":
    main()
