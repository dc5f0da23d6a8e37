"""Every bench under ``bench/`` runs at its smallest (``--smoke``), so that none can rot unnoticed.

Each runs as a subprocess, as a person would run it, beside the others (see ``smoke_runs``). The
test checks that it ended well and printed its figures (the header of its table, the labels of its
rows), never the figures themselves: benches print figures, they do not pass or fail. The benches
that need PostgreSQL, and Redis, run when the suite runs against them, on databases of their own
beside the suite's (``bench/environment.py``), and are skipped otherwise.
"""

import os
import re
import signal
import subprocess
import sys
from collections import defaultdict
from collections.abc import Iterator
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

import pytest
from django.conf import settings

PROJECT_ROOT = Path(__file__).resolve().parents[2]
BENCH_TIMEOUT = 180.0
"""Seconds before a bench is taken as hung; each takes a few when all is well."""


@dataclass(frozen=True)
class Bench:
    script: str
    printed: tuple[str, ...]
    """Patterns (multi-line regular expressions) of the lines that show its figures."""
    postgresql: bool = False
    redis: bool = False
    database: str | None = None
    """The database it fills, if any: benches on one database run one after another."""
    timeout: float = BENCH_TIMEOUT


BENCHES = [
    Bench(
        "engine.py",
        (r"^variant +games +moves +replay p50 +replay max +one move p50$", r"^tripeaks ",
         r"^dealing from a seed, uncached: "),
    ),
    Bench(
        "solver.py",
        (r"^tripeaks:$", r"^  win rate ", r"^  winnability time: ", r"^  par time: ",
         r"^  par p50 [\d.]+ ms, p90 [\d.]+ ms .*; exact on \d+ of \d+ deals",
         r"^  worker verdict \(par \+ winnability, a new deal\): p50 ",
         r"^  par asked again \(remembered\): p50 "),
    ),
    Bench(
        "writer.py",
        (r"^per batch: median ", r"^per move \(median batch\): "),
        postgresql=True,
        database="bench",
    ),
    Bench(
        "moves.py",
        (r"^ +N +round +baseline +/s +p50 +p99 +moves/s +p50 +p99 +moves/base +p99 ratio "
         r"+errors$",
         r"^ +\d+ +1 +bare ", r"^ +\d+ +2 +channels ", r"^ +\d+ +2 +floor ",
         r"^ +Daphne's CPU per answer: bare \d+ µs, channels \d+ µs, floor \d+ µs, move \d+ µs$",
         r"^ +\(the bare echo's halves, before and after the moves: \d+/s, p99 [\d.]+ ms and "
         r"\d+/s, p99 [\d.]+ ms\)$",
         r"^ +\d+ median of 2 round\(s\):$",
         r"^ +bare: moves/base \d+\.\d\d \(rounds \d+\.\d\d, \d+\.\d\d\), p99 ratio ",
         r"^ +Daphne's CPU per answer \(median\): bare \d+ µs, .*; bare over move \d+\.\d\d$",
         r"^ +analysis: \d+ games finished .*; CPU of the analysis worker \d+%, of Daphne \d+%; "
         r"\d+ waiting at the end, (drained|not drained)",
         r"^ +N +1 proc/s +p50 +p99 +2 procs/s +p50 +p99 +scaling +errors$",
         r"^ +\d+ +\d+ +[\d.]+ms +[\d.]+ms +\d+ +[\d.]+ms +[\d.]+ms +\d+\.\d\d +\d+$",
         r"^Cores kept busy during those moves \(this machine has \d+\):$",
         r"^ +\d+ +1 web: web processes [\d.]+, analysis workers [\d.]+, nginx [\d.]+, "
         r"Redis [\d.]+, PostgreSQL [\d.]+, clients [\d.]+; the machine [\d.]+$",
         r"^ +\d+ +2 web: web processes "),
        postgresql=True,
        redis=True,  # its production topology runs a Redis of its own
        database="bench",
        timeout=480.0,  # two topologies of its own after its own phases
    ),
    Bench(
        "races.py",
        (r"^ +processes +rooms +racers +moves +p50 +p99$", r"^ +1 +1 +8 +\d+ ",
         r"^ +2 \(Redis\) +1 +8 +\d+ "),
        postgresql=True,
        redis=True,
        database="bench",
    ),
    Bench(
        "outage.py",
        (r"^acknowledged moves missing from the stored logs: 0$",
         r"^ +drill +before/s +during/s +after/s +unavailable +closed +longest answer"
         r" +pages back$",
         r"^ +redis stopped ", r"^ +postgresql stopped .* [\d.]+ s +[\d.]+ s$",
         r"^ +postgresql frozen "),
        postgresql=True,
        # A topology and a PostgreSQL cluster of its own, three drills: 70-100 s alone on two
        # cores, and it runs beside the other benches (Lighthouse's topology and Chromium among
        # them), where 180 s ran out once.
        timeout=480.0,
    ),
    Bench(
        "leaderboard.py",
        (r"^Database: ", r"^Boards: p50 / p99 ", r"^  first page ", r"^  rank_of a random player ",
         r"^scores_record, one finished game "),
        postgresql=True,
        database="leaderboard",
    ),
    Bench(
        "lighthouse.py",
        (r"^page +form factor +performance +accessibility +best practices +seo$",
         r"^home +mobile +\d+ +\d+ +\d+ +\d+$", r"^home +desktop +\d+ +\d+ +\d+ +\d+$"),
        postgresql=True,
        timeout=480.0,  # a topology of its own, then two Lighthouse runs in Chromium
    ),
]  # fmt: skip


def test_every_bench_is_run() -> None:
    scripts = {
        path.name
        for path in (PROJECT_ROOT / "bench").glob("*.py")
        if 'if __name__ == "__main__":' in path.read_text()
    }
    assert scripts == {bench.script for bench in BENCHES}


def missing_services(bench: Bench) -> str | None:
    """Why the suite cannot run ``bench`` against the services it was given, if it cannot."""
    on_postgresql = settings.DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql"
    if bench.postgresql and not on_postgresql:
        return "needs PostgreSQL: the suite runs on SQLite (set DATABASE_URL to run it)"
    if bench.redis and not settings.REDIS_URL:
        return "needs Redis: the suite runs with the in-memory channel layer (set REDIS_URL)"
    return None


@dataclass(frozen=True)
class SmokeRun:
    status: int | None
    """The bench's exit status; None if it hung, and was killed."""
    output: str


def smoke_run(script: str, timeout: float = BENCH_TIMEOUT) -> SmokeRun:
    """Run ``bench/<script> --smoke`` with the suite's environment.

    The bench leads a session of its own, so that servers it started go with it if it hangs.
    """
    bench = subprocess.Popen(
        [sys.executable, str(PROJECT_ROOT / "bench" / script), "--smoke"],
        cwd=PROJECT_ROOT,
        env=os.environ | {"PYTHONUNBUFFERED": "1"},
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        output, _ = bench.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(bench.pid, signal.SIGKILL)
        output, _ = bench.communicate()
        return SmokeRun(None, output.decode(errors="replace"))
    return SmokeRun(bench.returncode, output.decode(errors="replace"))


def lane_run(benches: list[Bench], runs: dict[str, Future[SmokeRun]]) -> None:
    """Run ``benches`` one after another, each to its future."""
    for bench in benches:
        try:
            runs[bench.script].set_result(smoke_run(bench.script, bench.timeout))
        except Exception as error:
            runs[bench.script].set_exception(error)


@pytest.fixture(scope="module")
def smoke_runs(request: pytest.FixtureRequest) -> Iterator[dict[str, Future[SmokeRun]]]:
    """Every bench selected that the suite's services allow, started at once: the benches that
    share a database one after another, and beside them the others (a smoke run's figures mean
    nothing, so the benches may share the machine)."""
    selected = [
        item.callspec.params["bench"]
        for item in request.session.items
        if isinstance(item, pytest.Function)
        and item.function is test_bench_runs_and_prints_its_figures
    ]
    runs: dict[str, Future[SmokeRun]] = {}
    lanes: dict[str, list[Bench]] = defaultdict(list)
    for bench in BENCHES:
        if bench in selected and missing_services(bench) is None:
            runs[bench.script] = Future()
            lanes[bench.database or bench.script].append(bench)
    with ThreadPoolExecutor(max_workers=max(1, len(lanes))) as pool:
        for benches in lanes.values():
            pool.submit(lane_run, benches, runs)
        yield runs


@pytest.mark.parametrize("bench", BENCHES, ids=lambda bench: bench.script)
def test_bench_runs_and_prints_its_figures(
    bench: Bench, smoke_runs: dict[str, Future[SmokeRun]]
) -> None:
    reason = missing_services(bench)
    if reason:
        pytest.skip(f"bench/{bench.script} {reason}")
    run = smoke_runs[bench.script].result()
    assert run.status is not None, f"bench/{bench.script} hung:\n{run.output}"
    assert run.status == 0, run.output
    missing = [line for line in bench.printed if not re.search(line, run.output, re.MULTILINE)]
    assert not missing, f"bench/{bench.script} did not print {missing}:\n{run.output}"
