"""Durable moves per second over real websockets, beside three baselines on the same server.

Starts Daphne on loopback against PostgreSQL, then for each N (1, 50, 200 by default) drives N
concurrent websocket clients through two bare echo consumers, then through the game (each client
playing real games move by move: a fitting card when there is one, else a draw; a new game, on a
new socket, when one ends), then through the floor. Prints the rate and the p50/p99 round trip of
each baseline beside the moves', and the ratios of the moves' figures to each baseline's.

The baselines (``bench/echo_asgi.py``):

- "bare": an echo on the site's own socket base, the same plumbing as the game's consumer; the
  ceiling for one message in, one message out.
- "channels": an echo on Channels' default consumer, which also hops to a worker thread before
  every message (the game's consumer does not): what a plain Channels echo costs.
- "floor": a socket that speaks the game's protocol without playing (the same middleware, a whole
  VIEW per answer), whose clients open a new socket after as many moves as the games just played
  took on average: what the protocol's shape costs before any game is played.

    .venv/bin/python bench/moves.py [--clients 1 50 200] [--seconds 10] [--smoke]

Needs PostgreSQL: it uses the bench database (see ``bench/environment.py``), made and migrated on
first use, and vacuumed and analysed before each move phase (as autovacuum would keep it).
``--smoke`` runs two clients for 1.5 s per phase (long enough for a game to end). Prints figures
only; nothing here passes or fails.
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

from bench.environment import without_password
from bench.options import arguments
from bench.servers import (
    DATABASE_URL,
    autovacuum_on,
    prepare_database,
    start_servers,
    vacuum_database,
)
from deploy.processes import stop_process

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
    game_lengths: list[int] = field(default_factory=list)
    """Moves made in each game that ended within the phase."""

    def moves_per_game(self) -> int:
        """The average length of the games that ended (about 48 moves; 50 if none did)."""
        return round(statistics.mean(self.game_lengths)) if self.game_lengths else 50

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


async def echo_client(base: str, path: str, deadline: float, tally: Tally) -> None:
    async with websockets.connect(
        f"{base}{path}", origin=Origin(base.replace("ws:", "http:"))
    ) as ws:
        seq = 0
        while time.monotonic() < deadline:
            message = json.dumps({"type": "move", "seq": seq, "move": "draw"})
            started = time.perf_counter()
            await ws.send(message)
            await asyncio.wait_for(ws.recv(), REPLY_TIMEOUT)
            tally.round_trips.append(time.perf_counter() - started)
            seq += 1


async def game_client(
    base: str, guest: Guest, deadline: float, tally: Tally, *, floor_game: int | None = None
) -> None:
    """Play the guest's games move by move, a new socket per game; or, with ``floor_game``, make
    that many moves per socket on the floor socket, which plays no game."""
    while time.monotonic() < deadline:
        if floor_game is None:
            game_id = guest.games.pop() if guest.games else await asyncio.to_thread(guest.next_game)
            path = f"/ws/games/{game_id}/"
        else:
            path = FLOOR_PATH
        async with websockets.connect(
            f"{base}{path}",
            origin=Origin(base.replace("ws:", "http:")),
            additional_headers={"Cookie": guest.cookie},
        ) as ws:
            view = json.loads(await ws.recv())["game"]
            while (
                view["status"] == "in_progress"
                and time.monotonic() < deadline
                and (floor_game is None or view["seq"] < floor_game)
            ):
                started = time.perf_counter()
                await ws.send(
                    json.dumps({"type": "move", "seq": view["seq"], "move": next_move(view)})
                )
                reply = json.loads(await asyncio.wait_for(ws.recv(), REPLY_TIMEOUT))
                if reply["type"] != "state":
                    tally.errors += 1
                tally.round_trips.append(time.perf_counter() - started)
                view = reply["game"]
            if view["status"] != "in_progress":
                tally.game_lengths.append(view["seq"])


async def phase(clients: list[Any]) -> None:
    await asyncio.gather(*clients)


ECHOES = {"bare": "/ws/echo/bare/", "channels": "/ws/echo/"}
"""The echo phases, by the name their rows are printed under, and the paths that
``bench/echo_asgi.py`` serves them on."""
FLOOR_PATH = "/ws/floor/"
"""``bench/echo_asgi.py``'s socket that speaks the game's protocol but plays no game."""


def run_phase(
    kind: str, base: str, guests: list[Guest], seconds: float, floor_game: int | None = None
) -> tuple[Tally, float]:
    """Drive one client per guest for ``seconds``: through the echo named ``kind``, the game, or
    (with ``floor_game``, the moves per socket) the floor."""
    tally = Tally()
    deadline = time.monotonic() + seconds
    started = time.monotonic()
    if kind in ECHOES:
        clients = [echo_client(base, ECHOES[kind], deadline, tally) for _ in guests]
    else:
        clients = [
            game_client(base, guest, deadline, tally, floor_game=floor_game) for guest in guests
        ]
    asyncio.run(phase(clients))
    return tally, time.monotonic() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 50, 200])
    parser.add_argument("--seconds", type=float, default=10.0)
    args = arguments(parser, {"clients": [2], "seconds": 1.5})

    prepare_database()
    [(server, base)] = start_servers("bench.echo_asgi:application")
    print(
        f"Daphne on {base}, PostgreSQL {without_password(DATABASE_URL)}, "
        f"{args.seconds:g} s per phase"
    )
    print(f"autovacuum is {'on' if autovacuum_on() else 'off'}; the database is vacuumed and "
          "analysed before each move phase")  # fmt: skip
    print(f"{'N':>5} {'baseline':>8} {'/s':>7} {'p50':>8} {'p99':>8} {'moves/s':>8} {'p50':>8} "
          f"{'p99':>8} {'moves/base':>10} {'p99 ratio':>9} {'errors':>6}")  # fmt: skip
    try:
        for n in args.clients:
            guests = [Guest.create() for _ in range(n)]
            for guest in guests:
                guest.deal_games(GAMES_DEALT_AHEAD)
            baselines = {kind: run_phase(kind, base, guests, args.seconds) for kind in ECHOES}
            vacuum_database()
            moves, move_seconds = run_phase("moves", base, guests, args.seconds)
            floor_game = moves.moves_per_game()
            baselines["floor"] = run_phase("floor", base, guests, args.seconds, floor_game)
            m_rate, m_p50, m_p99 = moves.summary(move_seconds)
            for kind, (baseline, baseline_seconds) in baselines.items():
                b_rate, b_p50, b_p99 = baseline.summary(baseline_seconds)
                print(
                    f"{n:>5} {kind:>8} {b_rate:>7.0f} {b_p50:>6.2f}ms {b_p99:>6.2f}ms "
                    f"{m_rate:>8.0f} {m_p50:>6.2f}ms {m_p99:>6.2f}ms {m_rate / b_rate:>10.2f} "
                    f"{m_p99 / b_p99:>9.2f} {moves.errors + baseline.errors:>6}",
                    flush=True,
                )
            print(f"{'':>5} (a game took {floor_game} moves on average; the floor's clients "
                  "made as many on each socket)")  # fmt: skip
    finally:
        stop_process(server)


if __name__ == "__main__":
    main()
