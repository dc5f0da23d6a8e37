"""A game's time is written by one rule everywhere: the server's boards and results
(``core.formats.game_time``) and the page's clock, game-over panel and live boards
(``formatDuration`` in ``static/js/clock.js``), so that one game never shows two times."""

from pathlib import Path

from core.formats import game_time
from tests.node import module_url, needs_node, run_in_node

RUNNER = f"""
import {{ readFileSync }} from "node:fs";
globalThis.window = globalThis;
const {{ formatDuration }} = await import({module_url("clock.js")});
const cases = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map((ms) => formatDuration(ms))));
"""

# Around every rounding edge: just under and over whole seconds, minutes and hours.
CASES = [0, 1, 499, 500, 501, 999, 1000, 13_499, 13_500, 13_999, 59_999, 60_000, 185_000]
CASES += [3_599_999, 3_600_000, 3_723_400, 36_000_000 - 1, 98_765_432]


@needs_node
def test_the_page_and_the_server_write_a_game_s_time_alike(tmp_path: Path) -> None:
    assert run_in_node(tmp_path, RUNNER, CASES) == [game_time(ms) for ms in CASES]


def test_a_time_is_whole_seconds_elapsed() -> None:
    """13.999 s is 0:13, as the clock showed it at the end, never 0:14."""
    assert [game_time(ms) for ms in (13_000, 13_999, 14_000)] == ["0:13", "0:13", "0:14"]
