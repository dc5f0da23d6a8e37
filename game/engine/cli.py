"""The engine's command line.

``python -m game.engine deal SEED [--variant V]``
    Print the deal a seed gives, as a ``tripeaks-game/1`` document with no moves.
``python -m game.engine verify FILE... | -``
    Replay game documents (JSON files, or JSON lines on standard input with ``-``) and check the
    deal, every move, the score and the status. One line per document: ``OK`` with the result and
    what the document says it is (mode, ranked, assisted, deal source), ``OPEN`` for a game still
    in progress (it holds up, but is no result), ``FAIL`` with the reason. Exit status 1 unless
    every document is a finished game that holds up.
``python -m game.engine solve SEED [--variant V] [--par] [--max-nodes N] [--max-ms MS]``
    Whether the seed's deal can be won, with a winning line; with ``--par`` also its par (the best
    score any line reaches) and a line that reaches it. Prints one JSON object.
``python -m game.engine analyse FILE | -``
    Verify a finished game's document, then print its analysis as JSON: par and the player's share
    of it, the move that lost a winnable deal, draws made while a card fitted, and the streaks.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from typing import Final, TextIO

from game.engine.analysis import analyse
from game.engine.deal import Deal
from game.engine.errors import TriPeaksError
from game.engine.export import deal_document, parse_document, verify
from game.engine.solver import PAR_BUDGET, WINNABILITY_BUDGET, Budget, find_par, solve
from game.engine.variants import Variant

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="python -m game.engine", description=__doc__.split("\n")[0]
    )
    commands = parser.add_subparsers(dest="command", required=True)

    deal = commands.add_parser("deal", help="print the deal a seed gives")
    deal.add_argument("seed", help="the seed (a whole number stands for its decimal string)")
    deal.add_argument(
        "--variant", default=Variant.TRIPEAKS.value, choices=[v.value for v in Variant]
    )

    check = commands.add_parser("verify", help="replay and check game documents")
    check.add_argument("files", nargs="+", metavar="FILE", help="JSON files, or - for JSON lines")

    solver = commands.add_parser("solve", help="whether a seed's deal can be won, and its par")
    solver.add_argument("seed", help="the seed (a whole number stands for its decimal string)")
    solver.add_argument(
        "--variant", default=Variant.TRIPEAKS.value, choices=[v.value for v in Variant]
    )
    solver.add_argument("--par", action="store_true", help="also find the best score and its line")
    solver.add_argument("--max-nodes", type=int, help="node budget of each search")
    solver.add_argument("--max-ms", type=float, help="time budget of each search, in ms")

    analysis = commands.add_parser("analyse", help="analyse a finished game's document")
    analysis.add_argument("file", metavar="FILE", help="a JSON file, or - for standard input")
    return parser


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None) -> int:
    args = build_parser().parse_args(argv)
    out = stdout or sys.stdout
    if args.command == "deal":
        return print_deal(args.seed, Variant.parse(args.variant), out)
    if args.command == "solve":
        budgets = (
            _budget(WINNABILITY_BUDGET, args.max_nodes, args.max_ms),
            _budget(PAR_BUDGET, args.max_nodes, args.max_ms),
        )
        return print_solution(args.seed, Variant.parse(args.variant), args.par, budgets, out)
    if args.command == "analyse":
        return print_analysis(args.file, out)
    return verify_sources(args.files, out)


def print_deal(seed: str, variant: Variant, out: TextIO) -> int:
    try:
        deal = Deal.from_seed(seed)
    except TriPeaksError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    json.dump(deal_document(deal, variant), out, indent=2)
    out.write("\n")
    return EXIT_OK


def verify_sources(sources: Sequence[str], out: TextIO) -> int:
    """Verify every document from ``sources``; print one line each; 0 when all are finished games
    that hold up."""
    failures = 0
    for label, text in read_documents(sources):
        outcome, line = verify_text(text)
        failures += outcome != OK
        print(f"{outcome:<4} {label}: {line}", file=out)
    return EXIT_FAILED if failures else EXIT_OK


def read_documents(sources: Sequence[str]) -> Iterator[tuple[str, str]]:
    """(label, JSON text) for each document: a whole file, or each non-blank line of stdin."""
    for source in sources:
        if source == "-":
            for number, line in enumerate(sys.stdin, start=1):
                if line.strip():
                    yield f"stdin line {number}", line
            continue
        try:
            with open(source, encoding="utf-8") as file:
                yield source, file.read()
        except OSError as error:
            yield source, f"\0cannot read: {error.strerror}"


OK: Final = "OK"
OPEN: Final = "OPEN"
FAIL: Final = "FAIL"


def verify_text(text: str) -> tuple[str, str]:
    """How one document's JSON holds up (``OK``, ``OPEN`` for a game still in progress, or
    ``FAIL``), and a line saying what it is or what is wrong."""
    if text.startswith("\0"):
        return FAIL, text[1:]
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        return FAIL, f"not JSON ({error.msg} at line {error.lineno} column {error.colno})"
    try:
        state = verify(document)
        record = parse_document(document)
    except TriPeaksError as error:
        return FAIL, str(error)
    said = "; ".join(f"{name} {_word(value)}" for name, value in record.result_fields.items())
    about = f"; {said}" if said else ""
    moves = f"{state.score} points, {state.seq} moves"
    if not state.status.is_over:
        return OPEN, f"in progress, not a finished game: {moves} so far{about}"
    return OK, f"{state.status.value}, {moves}{about}"


def _word(value: str | bool) -> str:
    if isinstance(value, bool):
        return "yes" if value else "no"
    return value


def print_solution(
    seed: str, variant: Variant, with_par: bool, budgets: tuple[Budget, Budget], out: TextIO
) -> int:
    """Print whether the deal can be won (and its par): winnable, line, [par...], nodes, ms."""
    try:
        deal = Deal.from_seed(seed)
    except TriPeaksError as error:
        print(f"error: {error}", file=sys.stderr)
        return EXIT_USAGE
    result = solve(deal, variant, budget=budgets[0])
    report: dict[str, object] = {
        "winnable": result.winnable,
        "line": None if result.line is None else [move.text for move in result.line],
    }
    nodes, ms = result.nodes, result.elapsed_ms
    if with_par:
        par = find_par(deal, variant, budget=budgets[1])
        report |= {
            "par": par.par,
            "par_line": [move.text for move in par.line],
            "par_exact": par.exact,
        }
        nodes, ms = nodes + par.nodes, ms + par.elapsed_ms
    report |= {"nodes": nodes, "ms": round(ms, 1)}
    json.dump(report, out)
    out.write("\n")
    return EXIT_OK


def print_analysis(source: str, out: TextIO) -> int:
    """Verify one game document, then print its analysis; exit status 1 if it does not hold up."""
    label = "standard input" if source == "-" else source
    try:
        if source == "-":
            text = sys.stdin.read()
        else:
            with open(source, encoding="utf-8") as file:
                text = file.read()
        document = json.loads(text)
        state = verify(document)
        report = analyse(state).to_json()
    except OSError as error:
        print(f"error: {label}: cannot read: {error.strerror}", file=sys.stderr)
        return EXIT_FAILED
    except json.JSONDecodeError as error:
        print(f"error: {label}: not JSON ({error.msg} at line {error.lineno})", file=sys.stderr)
        return EXIT_FAILED
    except TriPeaksError as error:
        print(f"error: {label}: {error}", file=sys.stderr)
        return EXIT_FAILED
    json.dump(report, out, indent=2)
    out.write("\n")
    return EXIT_OK


def _budget(default: Budget, max_nodes: int | None, max_ms: float | None) -> Budget:
    return Budget(max_nodes=default.max_nodes if max_nodes is None else max_nodes, max_ms=max_ms)
