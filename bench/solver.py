"""Benchmark the solver on consecutive seeds of each variant.

    .venv/bin/python bench/solver.py N [--start S] [--skip-par]
    .venv/bin/python bench/solver.py --smoke

For each variant it solves the deals of seeds S, S+1, …, S+N-1 and prints the win rate, the mean
par, and the median, 95th percentile and maximum of the time and peak memory of both searches;
then the figures the analysis worker feels: par's median and 90th percentile and how many pars are
exact, a deal's whole verdict (par and winnability, as ``deal_verdict`` computes it), and par asked
a second time for the same deal (remembered by ``find_par``). Each search runs in a child process
of its own (``fork``), so its peak memory is the child's peak resident set less what it had at the
start: the memory that search needed, measured by the operating system. The graph of played masks
(``game.engine.masks``), which every search shares and a process builds once, is built first in
this process and timed apart, with the memory it holds; the children inherit it, so the figures
per deal leave that one-off cost out (each child reads the whole graph once before it is measured,
see ``own_the_mask_graph``). Time is given twice: wall-clock, as a worker would wait, and
processor time, which other work on a busy machine does not inflate. Figures only: nothing here
asserts a timing.
"""

from __future__ import annotations

import argparse
import functools
import json
import math
import os
import platform
import resource
import statistics
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.options import arguments
from game.engine.deal import Deal
from game.engine.masks import mask_graph
from game.engine.solver import find_par, par_cache_clear, solve
from game.engine.variants import Variant

Measurement = dict[str, float | int | bool | None]


@dataclass(frozen=True)
class Run:
    """One search on one deal."""

    seed: int
    ms: float
    cpu_ms: float
    peak_mb: float
    nodes: int
    answer: int | bool | None
    exact: bool
    again_ms: float = math.nan
    """For par: the time of asking again for the same deal, in the same process."""


def measured(search: Callable[[], Measurement]) -> Measurement:
    """Run ``search`` in a child process: its figures, and the processor time and memory it took."""
    if not hasattr(os, "fork"):
        started = time.process_time()
        return {**search(), "cpu_ms": (time.process_time() - started) * 1000, "peak_mb": math.nan}
    reader, writer = os.pipe()
    pid = os.fork()
    if pid == 0:  # the child: measure, report through the pipe, and leave at once
        os.close(reader)
        own_the_mask_graph()
        before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        started = time.process_time()
        figures = search()
        figures["cpu_ms"] = (time.process_time() - started) * 1000
        after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
        figures["peak_mb"] = (after - before) / 1024  # ru_maxrss is in KiB on Linux
        with os.fdopen(writer, "w") as pipe:
            json.dump(figures, pipe)
        os._exit(0)
    os.close(writer)
    with os.fdopen(reader) as pipe:
        text = pipe.read()
    os.waitpid(pid, 0)
    result: Measurement = json.loads(text)
    return result


def own_the_mask_graph() -> None:
    """Make a forked child's copy of the mask graph its own before anything is measured.

    A child shares the parent's memory pages until it writes to them, and Python writes to every
    object it reads (its reference count): the first search in a child would pay for copying the
    graph's pages (about 12 ms here), which the analysis worker, a process that builds the graph
    once and keeps it, never pays. Reading every object of the graph once pays it beforehand.
    """
    graph = mask_graph()
    for plays in graph.plays:
        for _position, _after in plays:
            pass
    for _mask, _free in graph.available.items():
        pass
    for _mask, _place in graph.places.items():
        pass
    for _free in graph.available_at:
        pass
    for level in graph.levels:
        for _position, sources, afters in level:
            for _source, _after in zip(sources, afters, strict=True):
                pass


def winnability(deal: Deal, variant: Variant) -> Measurement:
    result = solve(deal, variant)
    return {
        "ms": result.elapsed_ms,
        "nodes": result.nodes,
        "answer": result.winnable,
        "exact": True,
    }


def par(deal: Deal, variant: Variant) -> Measurement:
    par_cache_clear()
    result = find_par(deal, variant)
    started = time.perf_counter()
    again = find_par(deal, variant)
    again_ms = (time.perf_counter() - started) * 1000
    assert again.par == result.par
    return {
        "ms": result.elapsed_ms,
        "nodes": result.nodes,
        "answer": result.par,
        "exact": result.exact,
        "again_ms": again_ms,
    }


def bench(
    variant: Variant, seeds: Sequence[int], search: Callable[[Deal, Variant], Measurement]
) -> list[Run]:
    runs = []
    for seed in seeds:
        deal = Deal.from_seed(seed)
        figures = measured(functools.partial(search, deal, variant))
        runs.append(
            Run(
                seed=seed,
                ms=float(figures["ms"] or 0),
                cpu_ms=float(figures["cpu_ms"] or 0),
                peak_mb=float(figures["peak_mb"] or 0),
                nodes=int(figures["nodes"] or 0),
                answer=figures["answer"],  # type: ignore[arg-type]
                exact=bool(figures["exact"]),
                again_ms=float(figures.get("again_ms") or math.nan),
            )
        )
    return runs


def percentile(values: Sequence[float], p: float) -> float:
    """The nearest-rank percentile."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(p / 100 * len(ordered)) - 1)]


def spread(values: Sequence[float], unit: str) -> str:
    return (
        f"mean {statistics.fmean(values):8.1f}  median {statistics.median(values):8.1f}  "
        f"p95 {percentile(values, 95):8.1f}  max {max(values):8.1f} {unit}"
    )


def report(name: str, runs: list[Run]) -> None:
    slowest = max(runs, key=lambda run: run.ms)
    print(f"  {name} time:   {spread([run.ms for run in runs], 'ms')}")
    print(f"  {name} CPU:    {spread([run.cpu_ms for run in runs], 'ms')}")
    print(f"  {name} memory: {spread([run.peak_mb for run in runs], 'MB')}")
    print(
        f"  {name} nodes:  median {statistics.median(run.nodes for run in runs):.0f}, "
        f"max {max(run.nodes for run in runs)}; slowest seed {slowest.seed} "
        f"({slowest.ms:.0f} ms, {slowest.nodes} nodes)"
    )


def worker_figures(wins: list[Run], pars: list[Run]) -> None:
    """What the analysis worker waits for on a deal it has not solved before, and on one it has."""
    exact = sum(1 for run in pars if run.exact)
    print(
        f"  par p50 {percentile([run.ms for run in pars], 50):.1f} ms, "
        f"p90 {percentile([run.ms for run in pars], 90):.1f} ms "
        f"(CPU p50 {percentile([run.cpu_ms for run in pars], 50):.1f} ms, "
        f"p90 {percentile([run.cpu_ms for run in pars], 90):.1f} ms); "
        f"exact on {exact} of {len(pars)} deals ({exact / len(pars):.0%})"
    )
    verdicts = [win.ms + par.ms for win, par in zip(wins, pars, strict=True)]
    print(
        f"  worker verdict (par + winnability, a new deal): p50 {percentile(verdicts, 50):.1f} ms, "
        f"p90 {percentile(verdicts, 90):.1f} ms"
    )
    again = [run.again_ms * 1000 for run in pars]
    print(
        f"  par asked again (remembered): p50 {percentile(again, 50):.1f} µs, "
        f"p90 {percentile(again, 90):.1f} µs"
    )


def graph_figures() -> None:
    """Build the mask graph in this process (the children inherit it), and print what it cost."""
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    started = time.process_time()
    graph = mask_graph()
    cpu_ms = (time.process_time() - started) * 1000
    held_mb = (resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before) / 1024
    plays = sum(len(plays) for plays in graph.plays)
    print(
        f"mask graph, once per process: {len(graph.masks)} masks, {plays} plays; "
        f"built in {cpu_ms:.0f} ms CPU, holds {held_mb:.1f} MB"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "count", type=int, nargs="?", metavar="N", help="how many seeds of each variant"
    )
    parser.add_argument("--start", type=int, default=0, help="the first seed (default 0)")
    parser.add_argument("--skip-par", action="store_true", help="time winnability only")
    args = arguments(parser, {"count": 3}, argv)
    if args.count is None:
        parser.error("N is required (or --smoke)")
    seeds = range(args.start, args.start + args.count)
    print(
        f"seeds {seeds.start}..{seeds.stop - 1}; Python {platform.python_version()}, "
        f"{os.cpu_count()} CPUs, load average {os.getloadavg()[0]:.2f}"
    )
    graph_figures()
    for variant in Variant:
        print(f"{variant.value}:")
        runs = bench(variant, seeds, winnability)
        won = sum(1 for run in runs if run.answer is True)
        unknown = sum(1 for run in runs if run.answer is None)
        print(
            f"  win rate {won / len(runs):.1%} ({won} won, {len(runs) - won - unknown} lost, "
            f"{unknown} unknown)"
        )
        report("winnability", runs)
        if not args.skip_par:
            pars = bench(variant, seeds, par)
            exact = sum(1 for run in pars if run.exact)
            mean = statistics.fmean(float(run.answer or 0) for run in pars)
            print(f"  mean par {mean:.1f} ({exact} of {len(pars)} exact)")
            report("par", pars)
            worker_figures(runs, pars)
    return 0


if __name__ == "__main__":
    sys.exit(main())
