"""The page's copy of the VIEW (``static/js/view.js``) follows protocol v2's ``moved`` frames
exactly as the engine does: Node runs the page's own module on the frames of random games, and
every result must equal the VIEW the server would send after the move."""

import json
import random
import shutil
import subprocess
import uuid
from pathlib import Path
from typing import Any

import pytest

from game.engine import Deal, GameState, Variant, move_change, public_view

SCRIPT = Path(__file__).resolve().parents[2] / "static" / "js" / "view.js"
NODE = shutil.which("node")

pytestmark = pytest.mark.skipif(NODE is None, reason="needs Node.js")

RUNNER = """
import { readFileSync } from "node:fs";
import { applyMoved } from %s;
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
    runner = tmp_path / "run.mjs"
    runner.write_text(RUNNER % json.dumps(SCRIPT.as_uri()))
    result = subprocess.run(
        [str(NODE), str(runner)],
        input=json.dumps([[view, moved] for view, moved, _ in cases]),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    applied = json.loads(result.stdout)
    assert len(applied) == len(cases) > 500
    assert applied == [expected for _, _, expected in cases]


def test_a_change_that_does_not_follow_on_is_not_applied(tmp_path: Path) -> None:
    (view, moved, _), *_ = cases_of_random_games(1)
    runner = tmp_path / "run.mjs"
    runner.write_text(RUNNER % json.dumps(SCRIPT.as_uri()))
    skipped = {**moved, "seq": moved["seq"] + 1}
    other_game = {**moved, "game": str(uuid.uuid4())}
    result = subprocess.run(
        [str(NODE), str(runner)],
        input=json.dumps([[view, skipped], [view, other_game], [None, moved]]),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert json.loads(result.stdout) == [None, None, None]


MISSED_RUNNER = """
import { readFileSync } from "node:fs";
import { missedBefore } from %s;
const cases = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map(([view, moved]) => missedBefore(view, moved))));
"""


def test_a_frame_further_on_says_frames_were_missed(tmp_path: Path) -> None:
    """Only a change of the same game further on than the next asks for the whole state: the
    next one is applied, an older one (or another game's) is no news."""
    (view, moved, _), *_ = cases_of_random_games(1)
    runner = tmp_path / "missed.mjs"
    runner.write_text(MISSED_RUNNER % json.dumps(SCRIPT.as_uri()))
    cases = [
        [view, {**moved, "seq": moved["seq"] + 1}],
        [view, moved],
        [view, {**moved, "seq": view["seq"]}],
        [view, {**moved, "seq": moved["seq"] + 1, "game": str(uuid.uuid4())}],
        [None, moved],
    ]
    result = subprocess.run(
        [str(NODE), str(runner)],
        input=json.dumps(cases),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    assert json.loads(result.stdout) == [True, False, False, False, False]
