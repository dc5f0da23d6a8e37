"""Durable moves per second over real websockets, beside three baselines on the same server.

Starts Daphne on loopback against PostgreSQL, then for each N (1, 50, 200 by default) drives N
concurrent websocket clients through two bare echo consumers, then through the game (each client
playing real games move by move on one player's socket, ``/ws/play/``: a fitting card when there
is one, else a draw; the next game, opened on the same socket, when one ends), then through the
floor. Prints the rate and the p50/p99 round trip of
each baseline beside the moves', and the ratios of the moves' figures to each baseline's.

Each phase's clock, and the server's CPU it charges to the phase, start once all of its clients
have connected: it measures sockets in use, not 200 handshakes at once.

It does so ``--rounds`` times at each N (3 by default), each round the Channels echo, half of the
bare echo, the moves, the other half of the bare echo (once the analyses have drained) and the
floor one after the other, and then prints the median of the rounds' ratios, with the targets of
issue #17 against the bare echo (moves/s at least 0.35 of its rate, p99 at most 3 times its p99).
On a machine whose load drifts, one round's ratio says little: the bare echo's own rate has moved
by half from one run to the next, and by up to a tenth between the start and the end of a round.
The bare echo's two halves, pooled, bracket the moves, so that a drift over the round weighs on
both sides of the ratio; each round prints the two halves' rates.

The games that end are analysed by the server's analysis worker meanwhile (``game.postgame``).
For each move phase it also prints the games finished, the CPU the worker processes used (their
CPU seconds from /proc over the phase's wall time, beside the Daphne process's own share), the
backlog (finished games still without an analysis) at the end of the phase, and how long the
worker took to drain it after the phase (up to ``--drain-cap`` seconds; the next phase waits);
how the moves that ended a game fared; the move writer's batches in each lane, their mean time
and the share of the phase a batch was in flight (from the server's metrics); and for every
phase, the Daphne process's own CPU time per answered message (a move, an echo).

The baselines (``bench/echo_asgi.py``):

- "bare": an echo on the site's own socket base, the same plumbing as the game's consumer; the
  ceiling for one message in, one message out.
- "channels": an echo on Channels' default consumer, which also hops to a worker thread before
  every message (the game's consumer does not): what a plain Channels echo costs.
- "floor": a socket that speaks the game's protocol without playing (the same middleware, a
  move's change per answer), whose clients open a new "game" after as many moves as the games just
  played took on average: what the protocol's shape costs before any game is played.

    .venv/bin/python bench/moves.py [--clients 1 50 200] [--seconds 10] [--rounds 3]
                                    [--drain-cap 300] [--processes 2] [--smoke]

With ``--processes K`` it then plays the same move phases through the production topology
(``deploy/topology.py``: nginx with TLS in front of web processes started as the image starts them,
Redis between them), first with one web process, then with K, and prints the rates, round trips
and the scaling factor (K processes' moves per second over one's). The smoke run does it with 2.

Needs PostgreSQL: it uses the bench database (see ``bench/environment.py``), made and migrated on
first use, and vacuumed and analysed before each move phase (as autovacuum would keep it). Games
that earlier runs left without an analysis are deleted first, and the coming days' challenges made
(the server would otherwise solve them in the first move phase): each run measures its own games.
``--smoke`` runs two clients for 1.5 s per phase (long enough for a game to end), two rounds.
Prints figures only; nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import asyncio
import functools
import gc
import json
import math
import os
import secrets
import ssl
import statistics
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from datetime import datetime
from pathlib import Path
from typing import Any, Final, Generic, TypeVar

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import django
import websockets
from websockets.typing import Origin

from bench.environment import without_password
from bench.options import arguments
from bench.procfs import cpu_seconds, descendants, machine_busy_seconds, named
from bench.servers import (
    DATABASE_URL,
    RATE_LIMITS_OFF,
    SERVER_ENV,
    autovacuum_on,
    prepare_database,
    start_servers,
    vacuum_database,
)
from deploy.clients import tls_context, view_after
from deploy.processes import stop_process
from deploy.topology import Topology, production

django.setup()

from django.conf import settings  # noqa: E402
from django.contrib.sessions.backends.db import SessionStore  # noqa: E402
from django.db import connection  # noqa: E402
from django.utils import timezone  # noqa: E402

from game.engine import Variant  # noqa: E402
from game.models import Game  # noqa: E402
from game.players import GUEST_KEY_SESSION_FIELD, Player  # noqa: E402
from game.postgame import waiting_games  # noqa: E402
from game.services import game_start  # noqa: E402
from game.writer import ENDING_LANE, PLAYING_LANE  # noqa: E402
from leaderboard.challenge import days_prepare  # noqa: E402

S = TypeVar("S")
"""What a phase samples as its clock starts and as it ends."""

REPLY_TIMEOUT = 30.0
GAMES_DEALT_AHEAD = 6
"""Games started per client before the move phase (a game lasts ~48 moves; on a fast machine a
client makes 230 moves in a 10 s phase); more are started on the fly should a client run out."""


@dataclass
class Tally:
    """Round trips measured in one phase."""

    round_trips: list[float] = field(default_factory=list)
    errors: int = 0
    game_lengths: list[int] = field(default_factory=list)
    """Moves made in each game that ended within the phase."""
    last_moves: list[float] = field(default_factory=list)
    """The round trips of the moves that ended their game (also in ``round_trips``)."""

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

    def last_moves_summary(self) -> str:
        """How the moves that ended a game fared: their median round trip, and their share of
        the moves slower than the p99."""
        if not self.last_moves or not self.round_trips:
            return "no game ended"
        _, _, p99 = self.summary(1.0)
        slow = sum(1 for trip in self.round_trips if trip * 1e3 > p99)
        slow_last = sum(1 for trip in self.last_moves if trip * 1e3 > p99)
        return (
            f"a game's last move answered in {statistics.median(self.last_moves) * 1e3:.1f} ms "
            f"(median of {len(self.last_moves)}); {slow_last} of the {slow} moves over the p99 "
            "were last moves"
        )


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
        """The next game to play, dealt now if none is left. Called in a worker thread of the
        phase's event loop: the thread's database connection goes back to the pool at once, or
        each phase's threads would keep theirs until the pool had none left to give."""
        if not self.games:
            try:
                self.deal_games(1)
            finally:
                connection.close()
        return self.games.pop()


def next_move(view: dict[str, Any]) -> str:
    """A fitting card when there is one (the server lists them), else a draw."""
    playable = view["playable"]
    return view["tableau"][playable[0]] if playable else "draw"


class Start(Generic[S]):
    """A phase's clock, which starts once every client has connected: a phase measures the
    steady state of its sockets, not the handshakes of 200 clients connecting at once (a player's
    socket carries game after game). ``sample`` is read as the clock starts and as the phase
    ends (the CPU the server has used, for instance)."""

    def __init__(self, clients: int, seconds: float, sample: Callable[[], S]) -> None:
        self.clients, self.seconds, self.sample = clients, seconds, sample
        self.connected = 0
        self.go = asyncio.Event()
        self.started = self.deadline = math.inf
        self.before: S | None = None

    async def ready(self) -> float:
        """Wait, connected, until every other client is; then the phase's deadline."""
        self.connected += 1
        if self.connected == self.clients:
            self.before = self.sample()
            self.started = time.monotonic()
            self.deadline = self.started + self.seconds
            self.go.set()
        await asyncio.wait_for(self.go.wait(), REPLY_TIMEOUT)
        return self.deadline


async def echo_client(base: str, path: str, start: Start[Any], tally: Tally) -> None:
    async with websockets.connect(
        f"{base}{path}", origin=Origin(base.replace("ws:", "http:"))
    ) as ws:
        seq = 0
        deadline = await start.ready()
        while time.monotonic() < deadline:
            message = json.dumps({"type": "move", "seq": seq, "move": "draw"})
            started = time.perf_counter()
            await ws.send(message)
            await asyncio.wait_for(ws.recv(), REPLY_TIMEOUT)
            tally.round_trips.append(time.perf_counter() - started)
            seq += 1


async def game_client(
    base: str,
    guest: Guest,
    start: Start[Any],
    tally: Tally,
    *,
    floor_game: int | None = None,
    tls: ssl.SSLContext | None = None,
) -> None:
    """Play the guest's games move by move on one player's socket, opening each in turn as the
    page moves from game to game, and applying each answer (the move's change) to the VIEW as the
    page does; or, with ``floor_game``, make that many moves per opened "game" on the floor
    socket, which plays no game. ``tls``: the context to reach ``base`` (``wss://``) with."""
    path = PLAY_PATH if floor_game is None else FLOOR_PATH
    async with websockets.connect(
        f"{base}{path}",
        origin=Origin(base.replace("ws", "http", 1)),
        additional_headers={"Cookie": guest.cookie},
        ssl=tls,
    ) as ws:
        deadline = await start.ready()
        while time.monotonic() < deadline:
            if floor_game is None:
                game_id = (
                    guest.games.pop() if guest.games else await asyncio.to_thread(guest.next_game)
                )
            else:
                game_id = FLOOR_GAME
            await ws.send(json.dumps({"type": "open", "game": game_id}))
            view = await opened_view(ws)
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
                trip = time.perf_counter() - started
                tally.round_trips.append(trip)
                after = view_after(view, reply) if reply["type"] == "moved" else None
                if after is None:
                    tally.errors += 1
                    break  # open the next game
                view = after
                if view["status"] != "in_progress":
                    tally.last_moves.append(trip)
            if view["status"] != "in_progress":
                tally.game_lengths.append(view["seq"])


async def opened_view(ws: Any) -> dict[str, Any]:
    """The VIEW the server answers an ``open`` with. The analysis of the game just finished may
    come first (the worker can finish it before the socket moves on): the page shows it, the bench
    passes over it."""
    while True:
        frame = json.loads(await asyncio.wait_for(ws.recv(), REPLY_TIMEOUT))
        if frame["type"] != "analysis":
            view: dict[str, Any] = frame["game"]
            return view


@dataclass(frozen=True)
class CpuSample:
    """CPU seconds used so far by the server process and by each of its descendants (the
    analysis worker and multiprocessing's resource tracker)."""

    daphne: float
    workers: dict[int, float]

    @classmethod
    def of(cls, pid: int) -> CpuSample:
        return cls(cpu_seconds(pid), {child: cpu_seconds(child) for child in descendants(pid)})

    def shares_until(self, later: CpuSample, seconds: float) -> tuple[float, float]:
        """(Daphne's, the workers') CPU seconds from this sample to ``later``, per second."""
        workers = sum(cpu - self.workers.get(pid, 0.0) for pid, cpu in later.workers.items())
        return (later.daphne - self.daphne) / seconds, workers / seconds


def backlog(since: datetime) -> int:
    """Games finished since ``since`` that wait for their analysis."""
    return waiting_games(since).count()


def drain_seconds(since: datetime, cap: float) -> float | None:
    """Seconds until no game finished since ``since`` waits for its analysis (None: not within
    ``cap`` seconds)."""
    started = time.monotonic()
    while backlog(since):
        if time.monotonic() - started > cap:
            return None
        time.sleep(0.25)
    return time.monotonic() - started


def stale_backlog_delete() -> int:
    """Delete the finished games that earlier runs left without an analysis: the server would
    analyse them during this run's phases."""
    _, by_model = waiting_games().delete()
    return by_model.get(Game._meta.label, 0)


async def phase(clients: list[Any]) -> None:
    await asyncio.gather(*clients)


ECHOES = {"bare": "/ws/echo/bare/", "channels": "/ws/echo/"}
"""The echo phases, by the name their rows are printed under, and the paths that
``bench/echo_asgi.py`` serves them on."""
PLAY_PATH = "/ws/play/"
"""The player's socket (protocol v2)."""
FLOOR_PATH = "/ws/floor/"
"""``bench/echo_asgi.py``'s socket that speaks the game's protocol but plays no game."""
FLOOR_GAME = "00000000-0000-0000-0000-000000000000"
"""The id the floor's one "game" goes by."""


def cpu_per_round_trip(measured: Phase[CpuSample]) -> float:
    """Daphne's CPU microseconds per answered message over a phase (its analysis worker and
    other children apart)."""
    used = measured.after.daphne - measured.before.daphne
    return used / max(1, len(measured.tally.round_trips)) * 1e6


@dataclass(frozen=True)
class Phase(Generic[S]):
    """What one phase measured: its round trips over its seconds, and the samples taken as its
    clock started and as it ended."""

    tally: Tally
    seconds: float
    before: S
    after: S


def pooled(first: Phase[CpuSample], second: Phase[CpuSample]) -> Phase[CpuSample]:
    """Two phases of the same kind as one: their round trips over their seconds together, and
    Daphne's CPU over both (as the difference of the returned samples; the workers' are left
    out, which only the moves' phase reports)."""
    tally = Tally(
        round_trips=first.tally.round_trips + second.tally.round_trips,
        errors=first.tally.errors + second.tally.errors,
    )
    cpu = sum(phase.after.daphne - phase.before.daphne for phase in (first, second))
    return Phase(tally, first.seconds + second.seconds, CpuSample(0.0, {}), CpuSample(cpu, {}))


def run_phase(
    kind: str,
    base: str,
    guests: list[Guest],
    seconds: float,
    sample: Callable[[], S],
    floor_game: int | None = None,
    tls: ssl.SSLContext | None = None,
) -> Phase[S]:
    """Drive one client per guest for ``seconds`` once all have connected: through the echo
    named ``kind``, the game, or (with ``floor_game``, the moves per socket) the floor.

    The clients' own pauses are not the server's latency: the cycle collector of this process is
    set as the web process's is (``tripeaks_site/asgi.py``), what exists before the phase frozen
    and the young generation 10,000 objects (with the default, the full passes over the guests,
    their games and Django took up to 78 ms, every client waiting meanwhile)."""
    gc.freeze()
    gc.set_threshold(10_000, 10, 10)
    tally = Tally()

    async def clients() -> Phase[S]:
        start = Start(len(guests), seconds, sample)
        if kind in ECHOES:
            await phase([echo_client(base, ECHOES[kind], start, tally) for _ in guests])
        else:
            await phase(
                [
                    game_client(base, guest, start, tally, floor_game=floor_game, tls=tls)
                    for guest in guests
                ]
            )
        after, ended = sample(), time.monotonic()
        assert start.before is not None
        return Phase(tally, ended - start.started, start.before, after)

    return asyncio.run(clients())


PARTS: Final = ("web processes", "analysis workers", "nginx", "Redis", "PostgreSQL", "clients")
"""The parts of the production topology whose CPU a move phase through it is charged with."""


def part_pids(topology: Topology) -> dict[str, list[int]]:
    """The processes of each of :data:`PARTS` now (PostgreSQL's: all of this machine's)."""
    webs = [web.process.pid for web in topology.webs if web.process is not None]
    nginx = [] if topology.nginx is None else [topology.nginx.pid]
    redis = [] if topology.redis.process is None else [topology.redis.process.pid]
    return {
        "web processes": webs,
        "analysis workers": [child for pid in webs for child in descendants(pid)],
        "nginx": nginx + [child for pid in nginx for child in descendants(pid)],
        "Redis": redis,
        "PostgreSQL": named("postgres"),
        "clients": [os.getpid()],
    }


@dataclass(frozen=True)
class MachineSample:
    """The CPU seconds used so far by each process of each part, and by the whole machine."""

    parts: dict[str, dict[int, float]]
    busy: float

    @classmethod
    def of(cls, topology: Topology) -> MachineSample:
        parts = {
            part: {pid: cpu_seconds(pid) for pid in pids}
            for part, pids in part_pids(topology).items()
        }
        return cls(parts, machine_busy_seconds())

    def cores_until(self, later: MachineSample, seconds: float) -> dict[str, float]:
        """The cores each part kept busy from this sample to ``later`` (a process that was not
        there yet counts from 0), and the machine's ("machine")."""
        cores = {
            part: sum(cpu - self.parts[part].get(pid, 0.0) for pid, cpu in pids.items()) / seconds
            for part, pids in later.parts.items()
        }
        return {**cores, "machine": (later.busy - self.busy) / seconds}


TopologyFigures = tuple[float, float, float, int, dict[str, float]]
"""Moves per second, p50 and p99 (ms), errors, and the cores each part kept busy."""


def topology_moves(webs: int, clients: list[int], seconds: float) -> dict[int, TopologyFigures]:
    """Moves per second, p50 and p99 (ms) for each number of clients, through the production
    topology (nginx in front of ``webs`` web processes started as the image starts them, on the
    bench database, with Redis between them), and where the CPU went meanwhile."""
    figures = {}
    with (
        tempfile.TemporaryDirectory(prefix="bench-topology-") as directory,
        production(
            Path(directory),
            database_url=DATABASE_URL,
            secret_key=SERVER_ENV["SECRET_KEY"],
            webs=webs,
            extra_env={key: SERVER_ENV[key] for key in RATE_LIMITS_OFF},
        ) as topology,
    ):
        tls = tls_context(topology)
        for n in clients:
            guests = [Guest.create() for _ in range(n)]
            for guest in guests:
                guest.deal_games(GAMES_DEALT_AHEAD)
            vacuum_database()
            moves = run_phase(
                "moves",
                topology.ws_url,
                guests,
                seconds,
                functools.partial(MachineSample.of, topology),
                tls=tls,
            )
            cores = moves.before.cores_until(moves.after, moves.seconds)
            figures[n] = (*moves.tally.summary(moves.seconds), moves.tally.errors, cores)
    return figures


def print_scaling(processes: int, clients: list[int], seconds: float) -> None:
    """The moves through nginx with one web process, then with ``processes``, the factor, and
    where the CPU went: on a machine whose cores are all busy with one web process, a second has
    nothing to run on."""
    one = topology_moves(1, clients, seconds)
    many = topology_moves(processes, clients, seconds)
    print(f"\nThrough nginx (TLS, the production topology): 1 web process against {processes}")
    print(f"{'N':>5} {'1 proc/s':>9} {'p50':>8} {'p99':>8} {f'{processes} procs/s':>10} "
          f"{'p50':>8} {'p99':>8} {'scaling':>7} {'errors':>6}")  # fmt: skip
    for n in clients:
        (r1, p50_1, p99_1, e1, _), (rk, p50_k, p99_k, ek, _) = one[n], many[n]
        print(f"{n:>5} {r1:>9.0f} {p50_1:>6.2f}ms {p99_1:>6.2f}ms {rk:>10.0f} {p50_k:>6.2f}ms "
              f"{p99_k:>6.2f}ms {rk / r1:>7.2f} {e1 + ek:>6}", flush=True)  # fmt: skip
    print(f"Cores kept busy during those moves (this machine has {os.cpu_count()}):")
    for n in clients:
        for webs, figures in ((1, one), (processes, many)):
            cores = figures[n][4]
            print(f"{n:>5} {webs:>2} web: "
                  + ", ".join(f"{part} {cores[part]:.2f}" for part in PARTS)
                  + f"; the machine {cores['machine']:.2f}", flush=True)  # fmt: skip


@dataclass(frozen=True)
class Round:
    """One round at one N: the baselines and the moves, measured one after the other."""

    baselines: dict[str, Phase[CpuSample]]
    moves: Phase[CpuSample]
    floor_game: int
    finished: int
    waiting: int
    drained: float | None
    writer: dict[str, tuple[float, float]]
    """Each writer lane's batches during the moves phase, and the seconds they took."""
    bare_halves: tuple[Phase[CpuSample], Phase[CpuSample]]
    """The bare echo before the moves and after them (pooled in ``baselines["bare"]``)."""

    def cpu(self) -> dict[str, float]:
        """Daphne's CPU microseconds per answer, by phase ("move" for the moves)."""
        phases = {**self.baselines, "move": self.moves}
        return {kind: cpu_per_round_trip(measured) for kind, measured in phases.items()}

    def shares(self) -> tuple[float, float]:
        """Daphne's and the analysis worker's CPU per second of the moves phase."""
        return self.moves.before.shares_until(self.moves.after, self.moves.seconds)

    def writer_summary(self) -> str:
        """The move writer's lanes in the moves phase: their batches, each one's mean time as the
        event loop saw it, and the share of the phase a batch was in flight."""
        lanes = [
            f"{lane} {count:.0f} batches of {seconds / count * 1e3:.1f} ms on average, "
            f"in flight {seconds / self.moves.seconds:.0%} of the phase"
            for lane, (count, seconds) in self.writer.items()
            if count
        ]
        return "the move writer: " + ("; ".join(lanes) if lanes else "no batch")

    def ratios(self, kind: str) -> tuple[float, float]:
        """(moves/s over the baseline's, the moves' p99 over the baseline's)."""
        m_rate, _, m_p99 = self.moves.tally.summary(self.moves.seconds)
        baseline = self.baselines[kind]
        b_rate, _, b_p99 = baseline.tally.summary(baseline.seconds)
        return m_rate / b_rate if b_rate else math.nan, m_p99 / b_p99


WRITER_LANES: Final = (PLAYING_LANE, ENDING_LANE)
"""The move writer's lanes (``game.writer.MoveWriter``): the moves in play, an account's endings."""


def writer_batches(base: str) -> dict[str, tuple[float, float]]:
    """Each lane's batches so far and the seconds they took, from the server's metrics
    (``tripeaks_writer_batch_seconds``)."""
    with urllib.request.urlopen(base.replace("ws", "http", 1) + "/metrics", timeout=10) as page:
        samples = dict(
            line.rsplit(" ", 1) for line in page.read().decode().splitlines()
            if line.startswith("tripeaks_writer_batch_seconds_")
        )  # fmt: skip
    return {
        lane: (
            float(samples.get(f'tripeaks_writer_batch_seconds_count{{lane="{lane}"}}', 0)),
            float(samples.get(f'tripeaks_writer_batch_seconds_sum{{lane="{lane}"}}', 0)),
        )
        for lane in WRITER_LANES
    }


def since(before: tuple[float, float], after: tuple[float, float]) -> tuple[float, float]:
    """A lane's batches and seconds from one reading of the metrics to a later one."""
    return after[0] - before[0], after[1] - before[1]


def measure_round(server: Any, base: str, guests: list[Guest], args: argparse.Namespace) -> Round:
    """The Channels echo, half of the bare echo, the moves, the bare echo's other half once the
    moves' analyses have drained, then the floor (whose "games" are as long as the moves' were)."""
    sample = functools.partial(CpuSample.of, server.pid)
    channels = run_phase("channels", base, guests, args.seconds, sample)
    bare_before = run_phase("bare", base, guests, args.seconds / 2, sample)
    vacuum_database()
    phase_start = timezone.now()
    batches_before = writer_batches(base)
    moves = run_phase("moves", base, guests, args.seconds, sample)
    batches_after = writer_batches(base)
    waiting = backlog(phase_start)
    drained = drain_seconds(phase_start, args.drain_cap)
    bare_after = run_phase("bare", base, guests, args.seconds / 2, sample)
    floor_game = moves.tally.moves_per_game()
    baselines = {
        "bare": pooled(bare_before, bare_after),
        "channels": channels,
        "floor": run_phase("floor", base, guests, args.seconds, sample, floor_game),
    }
    return Round(
        baselines=baselines,
        moves=moves,
        floor_game=floor_game,
        finished=Game.objects.filter(finished_at__gte=phase_start).count(),
        waiting=waiting,
        drained=drained,
        writer={lane: since(batches_before[lane], batches_after[lane]) for lane in WRITER_LANES},
        bare_halves=(bare_before, bare_after),
    )


def print_round(n: int, number: int, measured: Round, drain_cap: float) -> None:
    m_rate, m_p50, m_p99 = measured.moves.tally.summary(measured.moves.seconds)
    for kind, baseline in measured.baselines.items():
        b_rate, b_p50, b_p99 = baseline.tally.summary(baseline.seconds)
        rate_ratio, p99_ratio = measured.ratios(kind)
        errors = measured.moves.tally.errors + baseline.tally.errors
        print(
            f"{n:>5} {number:>5} {kind:>8} {b_rate:>7.0f} {b_p50:>6.2f}ms {b_p99:>6.2f}ms "
            f"{m_rate:>8.0f} {m_p50:>6.2f}ms {m_p99:>6.2f}ms {rate_ratio:>10.2f} "
            f"{p99_ratio:>9.2f} {errors:>6}",
            flush=True,
        )
    print(f"{'':>11} (a game took {measured.floor_game} moves on average; the floor's clients "
          "made as many on each socket)")  # fmt: skip
    halves = [half.tally.summary(half.seconds) for half in measured.bare_halves]
    print(f"{'':>11} (the bare echo's halves, before and after the moves: "
          + " and ".join(f"{rate:.0f}/s, p99 {p99:.2f} ms" for rate, _, p99 in halves)
          + ")")  # fmt: skip
    print(f"{'':>11} {measured.moves.tally.last_moves_summary()}")
    print(f"{'':>11} {measured.writer_summary()}")
    print(f"{'':>11} Daphne's CPU per answer: "
          + ", ".join(f"{kind} {micros:.0f} µs" for kind, micros in measured.cpu().items()),
          flush=True)  # fmt: skip
    daphne_share, worker_share = measured.shares()
    seconds = measured.moves.seconds
    print(
        f"{'':>11} analysis: {measured.finished} games finished "
        f"({measured.finished / seconds:.1f}/s); CPU of the analysis worker "
        f"{worker_share:.0%}, of Daphne {daphne_share:.0%}; {measured.waiting} waiting at the "
        "end, "
        + (f"drained {measured.drained:.1f} s later" if measured.drained is not None
           else f"not drained within {drain_cap:g} s"),
        flush=True,
    )  # fmt: skip


TARGET_CLIENTS: Final = 200
"""The N the targets are set at."""
TARGET_RATE: Final = 0.35
"""Moves per second at N = 200 on one process, as a share of the bare echo's (issue #17)."""
TARGET_P99: Final = 3.0
"""The moves' p99 at N = 200 on one process, as a multiple of the bare echo's."""


def print_medians(n: int, rounds: list[Round]) -> None:
    """The median of each round's ratios: the rounds alternate the baselines and the moves, so
    that a machine whose load drifts (the bare echo's own rate moved by a half from run to run)
    weighs on both alike; and at N = 200, the targets against the bare echo."""
    print(f"{n:>5} median of {len(rounds)} round(s):")
    for kind in rounds[0].baselines:
        rates, p99s = zip(*(measured.ratios(kind) for measured in rounds), strict=True)
        line = (
            f"{'':>11} {kind:>8}: moves/base {statistics.median(rates):.2f} "
            f"(rounds {', '.join(f'{r:.2f}' for r in rates)}), p99 ratio "
            f"{statistics.median(p99s):.2f} (rounds {', '.join(f'{r:.2f}' for r in p99s)})"
        )
        if kind == "bare" and n == TARGET_CLIENTS:
            line += (
                f"; targets moves/base ≥ {TARGET_RATE:.2f} "
                f"{'met' if statistics.median(rates) >= TARGET_RATE else 'NOT met'}, "
                f"p99 ratio ≤ {TARGET_P99:.1f} "
                f"{'met' if statistics.median(p99s) <= TARGET_P99 else 'NOT met'}"
            )
        print(line, flush=True)
    per_round = [measured.cpu() for measured in rounds]
    cpu = {kind: statistics.median(figures[kind] for figures in per_round) for kind in per_round[0]}
    print(f"{'':>11} Daphne's CPU per answer (median): "
          + ", ".join(f"{kind} {micros:.0f} µs" for kind, micros in cpu.items())
          + f"; bare over move {cpu['bare'] / cpu['move']:.2f}", flush=True)  # fmt: skip


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--clients", type=int, nargs="+", default=[1, 50, 200])
    parser.add_argument("--seconds", type=float, default=10.0)
    parser.add_argument(
        "--rounds",
        type=int,
        default=3,
        help="rounds of baselines then moves at each N; the ratios' medians are printed",
    )
    parser.add_argument(
        "--drain-cap", type=float, default=300.0, help="longest wait for the analyses' backlog"
    )
    parser.add_argument(
        "--processes",
        type=int,
        default=0,
        help="also play through nginx with 1, then this many web processes, and print the scaling",
    )
    args = arguments(
        parser, {"clients": [2], "seconds": 1.5, "rounds": 2, "drain_cap": 60.0, "processes": 2}
    )
    prepare_database()
    stale = stale_backlog_delete()
    days_prepare()
    [(server, base)] = start_servers("bench.echo_asgi:application")
    print(
        f"Daphne on {base}, PostgreSQL {without_password(DATABASE_URL)}, "
        f"{args.seconds:g} s per phase, {args.rounds} round(s) at each N"
    )
    print(f"autovacuum is {'on' if autovacuum_on() else 'off'}; the database is vacuumed and "
          "analysed before each move phase")  # fmt: skip
    print(f"{stale} finished game(s) that earlier runs left without an analysis deleted")
    print(f"{'N':>5} {'round':>5} {'baseline':>8} {'/s':>7} {'p50':>8} {'p99':>8} {'moves/s':>8} "
          f"{'p50':>8} {'p99':>8} {'moves/base':>10} {'p99 ratio':>9} {'errors':>6}")  # fmt: skip
    try:
        for n in args.clients:
            guests = [Guest.create() for _ in range(n)]
            rounds = []
            for number in range(1, args.rounds + 1):
                for guest in guests:  # games the last round left unplayed still count
                    guest.deal_games(max(0, GAMES_DEALT_AHEAD - len(guest.games)))
                rounds.append(measure_round(server, base, guests, args))
                print_round(n, number, rounds[-1], args.drain_cap)
            print_medians(n, rounds)
    finally:
        stop_process(server)
    if args.processes:
        print_scaling(args.processes, args.clients, args.seconds)


if __name__ == "__main__":
    main()
