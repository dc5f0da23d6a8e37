"""The page's copy of the VIEW (``static/js/view.js``) follows protocol v2's ``moved`` frames
exactly as the engine does: Node runs the page's own module on the frames of random games, and
every result must equal the VIEW the server would send after the move."""

import json
import random
import uuid
from pathlib import Path
from typing import Any

from game.engine import Deal, GameState, Variant, move_change, public_view
from tests.node import module_url, needs_node, run_in_node

pytestmark = needs_node

RUNNER = f"""
import {{ readFileSync }} from "node:fs";
import {{ applyMoved }} from {module_url("view.js")};
const cases = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map(([view, moved]) => applyMoved(view, moved))));
"""


def cases_of_random_games(
    count: int,
) -> list[tuple[dict[str, Any], dict[str, Any], dict[str, Any]]]:
    """(VIEW before, ``moved`` frame, VIEW after) for every move of ``count`` random games."""
    chooser = random.Random(2026)
    cases = []
    for number in range(count):
        variant = Variant.TRIPEAKS if number % 2 else Variant.NOWRAP
        game_id = str(uuid.UUID(int=number))
        before = GameState(Deal.from_seed(str(number)), variant)
        while not before.status.is_over:
            after = before.copy()
            moves = after.legal_moves()
            after.apply(chooser.choice(moves))
            finished = "2026-12-01T00:00:00Z" if after.status.is_over else None
            view = {"id": game_id, **public_view(before), "finished_at": None}
            moved = {"type": "moved", "game": game_id, **move_change(before, after)}
            moved["finished_at"] = finished
            expected = {"id": game_id, **public_view(after), "finished_at": finished}
            cases.append((view, moved, json.loads(json.dumps(expected))))
            before = after
    return cases


def test_the_page_applies_each_change_as_the_engine_does(tmp_path: Path) -> None:
    cases = cases_of_random_games(20)
    applied = run_in_node(tmp_path, RUNNER, [[view, moved] for view, moved, _ in cases])
    assert len(applied) == len(cases) > 500
    assert applied == [expected for _, _, expected in cases]


def test_a_change_that_does_not_follow_on_is_not_applied(tmp_path: Path) -> None:
    (view, moved, _), *_ = cases_of_random_games(1)
    skipped = {**moved, "seq": moved["seq"] + 1}
    other_game = {**moved, "game": str(uuid.uuid4())}
    cases = [[view, skipped], [view, other_game], [None, moved]]
    assert run_in_node(tmp_path, RUNNER, cases) == [None, None, None]


MISSED_RUNNER = f"""
import {{ readFileSync }} from "node:fs";
import {{ missedBefore }} from {module_url("view.js")};
const cases = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map(([view, moved]) => missedBefore(view, moved))));
"""


def test_a_frame_further_on_says_frames_were_missed(tmp_path: Path) -> None:
    """Only a change of the same game further on than the next asks for the whole state: the
    next one is applied, an older one (or another game's) is no news."""
    (view, moved, _), *_ = cases_of_random_games(1)
    cases = [
        [view, {**moved, "seq": moved["seq"] + 1}],
        [view, moved],
        [view, {**moved, "seq": view["seq"]}],
        [view, {**moved, "seq": moved["seq"] + 1, "game": str(uuid.uuid4())}],
        [None, moved],
    ]
    assert run_in_node(tmp_path, MISSED_RUNNER, cases) == [True, False, False, False, False]
