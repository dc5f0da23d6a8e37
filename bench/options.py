"""The command line every bench shares: its own options, and ``--smoke``."""

from __future__ import annotations

import argparse
from collections.abc import Sequence
from typing import Any

SMOKE_HELP = (
    "the tiniest run that still goes through every code path and prints every figure, in a "
    "few seconds (CI runs each bench so); options given with it still apply"
)


def arguments(
    parser: argparse.ArgumentParser, smoke: dict[str, Any], argv: Sequence[str] | None = None
) -> argparse.Namespace:
    """Parse ``argv`` with ``--smoke`` added to ``parser``; with it, ``smoke`` sets the defaults."""
    parser.add_argument("--smoke", action="store_true", help=SMOKE_HELP)
    args = parser.parse_args(argv)
    if args.smoke:
        parser.set_defaults(**smoke)
        args = parser.parse_args(argv)
    return args
