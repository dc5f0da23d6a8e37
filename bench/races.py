"""How long a race move takes to reach every other racer, on one process and on two behind Redis.

For each R (rooms of 8 racers), opens R rooms in the bench database, starts a race in each on a
fresh deal once every racer sits in the room (no countdown), and has every racer play their own
game on the player's socket (``/ws/play/``) at a human pace (a fitting card when there is one,
else a draw) while listening on the room socket. A move's delay is the time from sending it to the
moment the last of the other seven racers has its ``progress`` frame. Run once with one Daphne
process (the in-process channel layer), then with two processes sharing PostgreSQL and Redis,
racers of every room split between them.

    .venv/bin/python bench/races.py [--rooms 1 5 10] [--seconds 10] [--pace 0.25] [--smoke]

Needs PostgreSQL and Redis: the bench database and Redis server of ``bench/environment.py``.
``--smoke`` runs one room for a second, a move every 0.1 s. Prints figures only; nothing here
passes or fails.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import django
import websockets
from websockets.asyncio.client import ClientConnection
from websockets.typing import Origin

from bench.options import arguments
from bench.servers import REDIS_URL, prepare_database, start_servers, vacuum_database
from deploy.clients import view_after
from deploy.processes import stop_process

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.auth.models import User  # noqa: E402
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402

from game.engine import Variant  # noqa: E402
from races import services  # noqa: E402
from races.models import MAX_RACERS, Entry  # noqa: E402

SITE = "tripeaks_site.asgi:application"
TIMEOUT = 30.0
DEPARTURE_SECONDS = 1.0
"""Time for the servers to take the racers' departures before they are stopped: a Daphne stopped
while it is doing so hangs until it is killed, ten seconds later."""


@dataclass
class Racer:
    """A bench racer: an account, a signed-in session, and the game it got in its room's race."""

    name: str
    room: str
    cookie: str
    game_id: str = ""


@dataclass
class Timings:
    """When each move was sent, and when each racer saw it: (player, moves) → time."""

    sent: dict[tuple[str, int], float] = field(default_factory=dict)
    seen: dict[tuple[str, int], list[float]] = field(default_factory=dict)

    def delays(self) -> list[float]:
        """For every move seen by all seven others, the time until the last of them saw it."""
        return [
            max(self.seen[key]) - sent
            for key, sent in self.sent.items()
            if len(self.seen.get(key, ())) == MAX_RACERS - 1
        ]


def signed_in_cookie(user: User) -> str:
    session = SessionStore()
    session["_auth_user_id"] = str(user.pk)
    session["_auth_user_backend"] = "django.contrib.auth.backends.ModelBackend"
    session["_auth_user_hash"] = user.get_session_auth_hash()
    session.create()
    return f"{settings.SESSION_COOKIE_NAME}={session.session_key}"


def rooms_seated(rooms: int, tag: str) -> list[Racer]:
    """``rooms`` rooms of eight seated racers each, waiting for their host to start."""
    racers: list[Racer] = []
    for r in range(rooms):
        users = [
            User.objects.create_user(f"bench-{tag}-{r}-{seat}", password=None)
            for seat in range(MAX_RACERS)
        ]
        room = services.room_open(
            user=users[0], variant=Variant.TRIPEAKS, public=False, time_limit_s=None
        )
        for user in users[1:]:
            services.room_join(code=room.code, user=user)
        racers += [Racer(user.username, room.code, signed_in_cookie(user)) for user in users]
    return racers


def races_start(racers: list[Racer]) -> None:
    """Every room's host starts its race (no countdown); each racer learns its game."""
    settings.RACE_COUNTDOWN_SECONDS = 0
    for racer in racers[::MAX_RACERS]:
        host = User.objects.get(username=racer.name)
        services.race_start(code=racer.room, user=host)
    games = dict(
        Entry.objects.filter(round__room__code__in={racer.room for racer in racers}).values_list(
            "user__username", "game_id"
        )
    )
    for racer in racers:
        racer.game_id = str(games[racer.name])


async def connect(base: str, path: str, cookie: str) -> ClientConnection:
    return await websockets.connect(
        f"{base}{path}",
        origin=Origin(base.replace("ws:", "http:")),
        additional_headers={"Cookie": cookie},
    )


async def listen(room: ClientConnection, me: str, timings: Timings) -> None:
    """Note when this racer sees each other racer's moves."""
    async for text in room:
        frame = json.loads(text)
        if frame["type"] == "progress" and frame["player"] != me:
            key = (frame["player"], frame["moves"])
            timings.seen.setdefault(key, []).append(time.perf_counter())


async def race(
    base: str, racer: Racer, started: asyncio.Event, seconds: float, pace: float, timings: Timings
) -> None:
    """Sit in the room until the race starts, then play this racer's game move by move until it
    ends or time is up."""
    room = await connect(base, f"/ws/races/{racer.room}/", racer.cookie)
    await room.recv()  # the room as it stands: this racer is in
    listener = asyncio.create_task(listen(room, racer.name, timings))
    await started.wait()
    deadline = time.monotonic() + seconds
    board = await connect(base, "/ws/play/", racer.cookie)
    try:
        await board.send(json.dumps({"type": "open", "game": racer.game_id}))
        view = json.loads(await board.recv())["game"]
        while view["status"] == "in_progress" and time.monotonic() < deadline:
            await asyncio.sleep(pace)
            playable = view["playable"]
            move = view["tableau"][playable[0]] if playable else "draw"
            timings.sent[(racer.name, view["seq"] + 1)] = time.perf_counter()
            await board.send(json.dumps({"type": "move", "seq": view["seq"], "move": move}))
            reply = json.loads(await asyncio.wait_for(board.recv(), TIMEOUT))
            view = view_after(view, reply) if reply["type"] == "moved" else reply.get("game")
            if view is None:
                break  # neither the move's change nor the state: nothing to go on from
        await asyncio.sleep(1.0)  # let the last moves reach the others
    finally:
        listener.cancel()
        await room.close()
        await board.close()


async def drive(
    bases: list[str], racers: list[Racer], seconds: float, pace: float, settle: float
) -> Timings:
    """Seat everyone in their rooms (racers of a room alternate between the processes), wait
    ``settle`` seconds for the rooms to settle, start the races, and time the moves."""
    timings = Timings()
    started = asyncio.Event()
    racing = [
        asyncio.create_task(race(bases[i % len(bases)], racer, started, seconds, pace, timings))
        for i, racer in enumerate(racers)
    ]
    await asyncio.sleep(settle)
    await asyncio.to_thread(races_start, racers)
    started.set()
    await asyncio.gather(*racing)
    return timings


def percentile(ordered: list[float], fraction: float) -> float:
    return ordered[min(len(ordered) - 1, int(len(ordered) * fraction))]


def run(label: str, processes: int, rooms: int, seconds: float, pace: float, settle: float) -> None:
    extra_env = {"REDIS_URL": REDIS_URL} if processes > 1 else {}
    servers = start_servers(SITE, processes, extra_env=extra_env)
    try:
        racers = rooms_seated(rooms, f"{time.time_ns()}-{processes}")
        timings = asyncio.run(drive([base for _, base in servers], racers, seconds, pace, settle))
        time.sleep(DEPARTURE_SECONDS)
    finally:
        for server, _ in servers:
            stop_process(server)
    delays = sorted(timings.delays())
    if not delays:
        print(f"{label:>13} {rooms:>5}  no move reached every racer")
        return
    print(
        f"{label:>13} {rooms:>5} {len(racers):>6} {len(delays):>7} "
        f"{statistics.median(delays) * 1e3:>7.2f}ms {percentile(delays, 0.99) * 1e3:>7.2f}ms",
        flush=True,
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rooms", type=int, nargs="+", default=[1, 5, 10])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument("--pace", type=float, default=0.25, help="seconds between a racer's moves")
    parser.add_argument(
        "--settle",
        type=float,
        default=3.0,
        help="seconds for every racer to sit in their room before the races start, as players "
        "do before the host starts (their arrivals are not what is measured)",
    )
    args = arguments(parser, {"rooms": [1], "seconds": 1.0, "pace": 0.1, "settle": 0.5})
    prepare_database()
    print(f"{args.seconds:g} s per run, a move every {args.pace:g} s per racer")
    print(f"{'processes':>13} {'rooms':>5} {'racers':>6} {'moves':>7} {'p50':>9} {'p99':>9}")
    for rooms in args.rooms:
        vacuum_database()
        run("1", 1, rooms, args.seconds, args.pace, args.settle)
        vacuum_database()
        run("2 (Redis)", 2, rooms, args.seconds, args.pace, args.settle)


if __name__ == "__main__":
    main()
