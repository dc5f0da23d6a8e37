"""The work done in the analysis process: pure engine calls, no Django.

This module is imported by a freshly spawned worker process, so it imports the engine only.
"""

import os
import threading
import time
from collections.abc import Sequence
from typing import Any

from game.engine import Deal, GameState, Variant
from game.engine.analysis import analyse
from game.engine.moves import Move
from game.engine.solver import ParResult, find_par, solve

Verdict = dict[str, Any]
"""A deal's winnability and par, as stored in DealPar."""

ANALYSIS_NICENESS = 19
PARENT_CHECK_SECONDS = 0.5


def worker_start(parent_pid: int) -> None:
    """Set up the worker process: below the server's priority (:func:`yield_to_play`), and gone
    once the server is."""
    yield_to_play()
    threading.Thread(
        target=exit_with_parent, args=(parent_pid,), name="parent-watch", daemon=True
    ).start()


def yield_to_play() -> None:
    """Run the worker only on a CPU the server leaves idle: moves come before analyses.

    At the lowest niceness alone (19) the worker still took its share of a loaded machine: under
    the move bench's load (200 clients, 2 cores) it kept 0.44 of a core and the server 0.86, for
    4,700-4,800 moves a second; with the worker stopped, 0.91-0.96 and 5,000-5,700. Linux's idle
    policy (``SCHED_IDLE``) lets any task of the normal policy preempt it on waking: 0.90-0.91 and
    5,100. The worker still takes what the server leaves, and disturbs it a little: the analysis
    loop also holds analyses back while its process is busy (``postgame.ProcessLoad``). (The
    niceness stays for systems that ignore the policy's weight.)
    """
    os.nice(ANALYSIS_NICENESS)
    if hasattr(os, "SCHED_IDLE"):  # Linux
        os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))


def exit_with_parent(parent_pid: int) -> None:
    """Exit as soon as the server process that started the worker is gone.

    A server killed outright (``kill -9``) cannot stop its worker, which would wait for work
    forever; its parent then becomes another process. (Linux's ``PR_SET_PDEATHSIG`` would fire
    when the *thread* that started the worker ends, not the process.) The worker's helper, the
    resource tracker, ends by itself once no process holds its pipe.
    """
    while os.getppid() == parent_pid:
        time.sleep(PARENT_CHECK_SECONDS)
    os._exit(1)


def deal_verdict(seed: str, variant: str) -> Verdict:
    """Solve a deal: whether it can be won, and its par with a line that reaches it."""
    deal, rules = Deal.from_seed(seed), Variant(variant)
    par = find_par(deal, rules)
    winnable = solve(deal, rules).winnable
    return {
        "winnable": winnable,
        "par": par.par,
        "par_exact": par.exact,
        "par_line": [move.text for move in par.line],
    }


def analyse_finished(
    seed: str, variant: str, moves: Sequence[str], abandoned: bool, known: Verdict | None
) -> tuple[Verdict, dict[str, Any]]:
    """The deal's verdict (solved unless ``known``) and the analysis of one finished game on it."""
    verdict = known if known is not None else deal_verdict(seed, variant)
    state = GameState.replay(Deal.from_seed(seed), Variant(variant), moves)
    if abandoned and not state.status.is_over:
        state.abandon()
    par = ParResult(
        par=verdict["par"],
        line=tuple(Move.parse(text) for text in verdict["par_line"]),
        exact=verdict["par_exact"],
        nodes=0,
        elapsed_ms=0.0,
    )
    report = analyse(state, par=par, winnable=verdict["winnable"])
    return verdict, report.to_json()
