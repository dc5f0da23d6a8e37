"""The move writer by itself: how long one batch of moves takes to commit, with no server around it.

Starts ``--games`` guest games, then writes ``--moves`` batches as the move path writes the moves
of games in play (``game.writer.write_moves_now``, from an event loop on a session of its own),
each holding the next move (a draw) of every game, and prints the median, mean and worst time per
batch and per move: one statement per batch, committed.

    .venv/bin/python bench/writer.py [--games 50] [--moves 20] [--smoke]

``--smoke`` writes two batches of three games' moves.
Uses the bench database (see ``bench/environment.py``), vacuumed and analysed first. Prints figures
only; nothing here passes or fails.
"""

from __future__ import annotations

import argparse
import asyncio
import secrets
import statistics
import sys
import time
import uuid
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

import django

from bench.environment import without_password
from bench.options import arguments
from bench.servers import DATABASE_URL, prepare_database, vacuum_database

django.setup()

from django.utils import timezone  # noqa: E402

from core.database import LoopConnection  # noqa: E402
from game.engine import Variant  # noqa: E402
from game.players import Player  # noqa: E402
from game.services import game_start  # noqa: E402
from game.writer import MoveWrite, write_moves_now  # noqa: E402


def draws(game_ids: list[uuid.UUID], seq: int) -> list[MoveWrite]:
    """Move ``seq`` of every game: a draw, the game going on."""
    now = timezone.now()
    return [
        MoveWrite(
            game_id=game_id,
            seq=seq,
            move="draw",
            played_at=now,
            status="in_progress",
            score=0,
            cards_left=28,
            finished_at=None,
            duration_ms=None,
        )
        for game_id in game_ids
    ]


async def write_batches(game_ids: list[uuid.UUID], batches: int) -> list[float]:
    """Write ``batches`` batches, each the next move of every game; return each one's time."""
    session = LoopConnection("bench-writer")
    times = []
    try:
        for seq in range(batches):
            batch = draws(game_ids, seq)
            started = time.perf_counter()
            results = await write_moves_now(session, batch)
            times.append(time.perf_counter() - started)
            if any(result is not None for result in results):
                raise SystemExit(f"a move was refused: {results}")
    finally:
        session.close()
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=50)
    parser.add_argument("--moves", type=int, default=20, help="batches (at most 23: the stock)")
    args = arguments(parser, {"games": 3, "moves": 2})
    prepare_database()
    key = secrets.token_hex(4)
    game_ids = [
        game_start(player=Player(None, f"bench-{key}-{n}"), variant=Variant.TRIPEAKS).id
        for n in range(args.games)
    ]
    vacuum_database()
    times = asyncio.run(write_batches(game_ids, min(args.moves, 23)))
    median, mean, worst = statistics.median(times), statistics.mean(times), max(times)
    print(
        f"PostgreSQL {without_password(DATABASE_URL)}: {len(times)} batches of {args.games} moves"
    )
    print(f"per batch: median {median * 1e3:.2f} ms, mean {mean * 1e3:.2f} ms, ", end="")
    print(f"worst {worst * 1e3:.2f} ms")
    print(f"per move (median batch): {median / args.games * 1e6:.0f} µs")


if __name__ == "__main__":
    main()
