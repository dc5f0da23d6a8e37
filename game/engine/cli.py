"""The engine's command line.

``python -m game.engine deal SEED [--variant V]``
    Print the deal a seed gives, as a ``tripeaks-game/1`` document with no moves.
``python -m game.engine verify FILE... | -``
    Replay game documents (JSON files, or JSON lines on standard input with ``-``) and check the
    deal, every move, the score and the status. One line per document; exit status 1 if any fails.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Iterator, Sequence
from typing import TextIO

from game.engine.deal import Deal
from game.engine.errors import TriPeaksError
from game.engine.export import deal_document, verify
from game.engine.variants import Variant

EXIT_OK = 0
EXIT_FAILED = 1
EXIT_USAGE = 2


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="python -m game.engine", description=__doc__.split("\n")[0])
    commands = parser.add_subparsers(dest="command", required=True)

    deal = commands.add_parser("deal", help="print the deal a seed gives")
    deal.add_argument("seed", help="the seed (a whole number stands for its decimal string)")
    deal.add_argument(
        "--variant", default=Variant.TRIPEAKS.value, choices=[v.value for v in Variant]
    )

    check = commands.add_parser("verify", help="replay and check game documents")
    check.add_argument("files", nargs="+", metavar="FILE", help="JSON files, or - for JSON lines")
    return parser


def main(argv: Sequence[str] | None = None, stdout: TextIO | None = None) -> int:
    args = build_parser().parse_args(argv)
    out = stdout or sys.stdout
    if args.command == "deal":
        return print_deal(args.seed, Variant.parse(args.variant), out)
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
    """Verify every document from ``sources``; print one line each; 0 when all hold up."""
    failures = 0
    for label, text in read_documents(sources):
        ok, line = verify_text(text)
        failures += not ok
        print(f"{'OK  ' if ok else 'FAIL'} {label}: {line}", file=out)
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


def verify_text(text: str) -> tuple[bool, str]:
    """Whether one document's JSON holds up, and a line saying what it is or what is wrong."""
    if text.startswith("\0"):
        return False, text[1:]
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        return False, f"not JSON ({error.msg} at line {error.lineno} column {error.colno})"
    try:
        state = verify(document)
    except TriPeaksError as error:
        return False, str(error)
    return True, f"{state.status.value}, {state.score} points, {state.seq} moves"
