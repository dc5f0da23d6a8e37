"""Engine speed: replaying whole games, applying one move, dealing from a seed.

Run with ``make bench`` (or ``.venv/bin/python bench/engine.py [GAMES]``). Prints figures only;
nothing here passes or fails.
"""

import random
import statistics
import sys
import time
import timeit
from collections.abc import Callable
from functools import partial
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from game.engine import FULL_DECK, Deal, GameState, Move, Variant
from game.engine.rng import DealRandom

STATES_PER_MOVE_SAMPLE = 2000


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


def seconds_per_call(function: Callable[[], object]) -> float:
    """Median seconds per call over seven timing runs."""
    timer = timeit.Timer(function)
    loops, _ = timer.autorange()
    return statistics.median(t / loops for t in timer.repeat(repeat=7, number=loops))


def seconds_per_move(deal: Deal, variant: Variant, moves: list[str]) -> float:
    """Seconds to apply the middle move of a game, timed over many copies of the position."""
    middle = len(moves) // 2
    states = [
        GameState.replay(deal, variant, moves[:middle]) for _ in range(STATES_PER_MOVE_SAMPLE)
    ]
    move = Move.parse(moves[middle])
    start = time.perf_counter()
    for state in states:
        state.apply(move)
    return (time.perf_counter() - start) / len(states)


def main(games: int) -> None:
    for variant in Variant:
        samples = [random_game(seed, variant) for seed in range(games)]
        replays = [
            seconds_per_call(partial(GameState.replay, deal, variant, moves))
            for deal, moves in samples
        ]
        single = [seconds_per_move(deal, variant, moves) for deal, moves in samples]
        lengths = [len(moves) for _, moves in samples]
        print(
            f"{variant.value:16} {games} random games of {statistics.mean(lengths):.1f} moves "
            f"on average: full replay median {statistics.median(replays) * 1e6:.1f} µs "
            f"(max {max(replays) * 1e6:.1f} µs); one move median "
            f"{statistics.median(single) * 1e6:.2f} µs"
        )
    dealing = seconds_per_call(lambda: DealRandom("bench").shuffled(FULL_DECK))
    print(f"dealing from a seed, uncached: {dealing * 1e6:.1f} µs")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 50)
