"""Engine speed: replaying whole games, applying one move, dealing from a seed.

Run with ``make bench`` (or ``.venv/bin/python bench/engine.py [GAMES] [--smoke]``). Prints
figures only; nothing here passes or fails.
"""

import argparse
import random
import statistics
import sys
import time
import timeit
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.options import arguments
from game.engine import FULL_DECK, Deal, GameState, Move, Variant
from game.engine.rng import DealRandom


def random_game(seed: int, variant: Variant) -> tuple[Deal, list[str]]:
    """A complete game in which a player plays a fitting card nine times out of ten."""
    deal = Deal.from_seed(seed)
    state = GameState(deal, variant)
    chooser = random.Random(seed)
    while not state.status.is_over:
        moves = state.legal_moves()
        plays = [move for move in moves if not move.is_draw]
        state.apply(chooser.choice(plays) if plays and chooser.random() < 0.9 else moves[-1])
    return deal, [move.text for move in state.moves]


def seconds_per_call(function: Callable[[], object], runs: int) -> float:
    """Median seconds per call over ``runs`` timing runs."""
    timer = timeit.Timer(function)
    loops, _ = timer.autorange()
    return statistics.median(t / loops for t in timer.repeat(repeat=runs, number=loops))


def seconds_per_move(deal: Deal, variant: Variant, moves: list[str], copies: int) -> float:
    """Seconds to apply the middle move of a game, timed over ``copies`` copies of the position."""
    middle = len(moves) // 2
    states = [GameState.replay(deal, variant, moves[:middle]) for _ in range(copies)]
    move = Move.parse(moves[middle])
    start = time.perf_counter()
    for state in states:
        state.apply(move)
    return (time.perf_counter() - start) / len(states)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", type=int, nargs="?", default=50, help="random games per variant")
    parser.add_argument("--runs", type=int, default=7, help="timing runs per figure")
    parser.add_argument("--copies", type=int, default=2000, help="positions timed per move figure")
    args = arguments(parser, {"games": 1, "runs": 1, "copies": 50})
    print(
        f"{'variant':16} {'games':>5} {'moves':>6} {'replay p50':>11} {'replay max':>11} "
        f"{'one move p50':>13}"
    )
    for variant in Variant:
        samples = [random_game(seed, variant) for seed in range(args.games)]
        replays = [
            seconds_per_call(partial(GameState.replay, deal, variant, moves), args.runs)
            for deal, moves in samples
        ]
        single = [seconds_per_move(deal, variant, moves, args.copies) for deal, moves in samples]
        lengths = [len(moves) for _, moves in samples]
        print(
            f"{variant.value:16} {args.games:>5} {statistics.mean(lengths):>6.1f} "
            f"{statistics.median(replays) * 1e6:>8.1f} µs {max(replays) * 1e6:>8.1f} µs "
            f"{statistics.median(single) * 1e6:>10.2f} µs"
        )
    print("moves: a game's mean length; replay: a whole game replayed; one move: its middle move")
    dealing = seconds_per_call(lambda: DealRandom("bench").shuffled(FULL_DECK), args.runs)
    print(f"dealing from a seed, uncached: {dealing * 1e6:.1f} µs")


if __name__ == "__main__":
    main()
