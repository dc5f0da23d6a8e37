"""``python -m game.engine solve`` and ``analyse``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from game.engine.cli import EXIT_FAILED, EXIT_OK, EXIT_USAGE, main
from game.engine.deal import Deal
from game.engine.export import export_document
from game.engine.state import GameState, Status
from game.engine.variants import Variant


def run(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), stdout=out)
    return code, out.getvalue()


def test_solve_prints_whether_the_deal_can_be_won() -> None:
    code, text = run("solve", "7")
    report = json.loads(text)
    assert code == EXIT_OK
    assert list(report) == ["winnable", "line", "nodes", "ms"]
    assert report["winnable"] is True
    won = GameState.replay(Deal.from_seed("7"), Variant.TRIPEAKS, report["line"])
    assert won.status is Status.WON
    assert report["nodes"] > 0
    assert report["ms"] >= 0


def test_solve_with_par() -> None:
    code, text = run("solve", "43", "--variant", "tripeaks-nowrap", "--par")
    report = json.loads(text)
    assert code == EXIT_OK
    assert list(report) == ["winnable", "line", "par", "par_line", "par_exact", "nodes", "ms"]
    assert (report["winnable"], report["line"]) == (False, None)
    assert (report["par"], report["par_exact"]) == (1030, True)
    finished = GameState.replay(Deal.from_seed("43"), Variant.NOWRAP, report["par_line"])
    assert finished.score == report["par"]


def test_solve_within_a_tiny_budget_does_not_know() -> None:
    code, text = run("solve", "43", "--variant", "tripeaks-nowrap", "--max-nodes", "10")
    assert code == EXIT_OK
    assert json.loads(text)["winnable"] is None


def test_solve_refuses_a_bad_seed(capsys: pytest.CaptureFixture[str]) -> None:
    code, text = run("solve", "")
    assert (code, text) == (EXIT_USAGE, "")
    assert "seed" in capsys.readouterr().err


@pytest.fixture
def lost_game(tmp_path: Path) -> Path:
    state = GameState.replay(Deal.from_seed("7"), Variant.TRIPEAKS, ["draw"] * 23)
    path = tmp_path / "game.json"
    path.write_text(json.dumps(export_document(state, game_id="g1")))
    return path


def test_analyse_prints_the_analysis(lost_game: Path) -> None:
    code, text = run("analyse", str(lost_game))
    report: dict[str, Any] = json.loads(text)
    assert code == EXIT_OK
    assert report["status"] == "lost"
    assert report["score"] == 0
    assert report["winnable"] is True
    assert 1 <= report["lost_at"] <= 23
    assert report["draws_while_play_fit"][0]["move"] == 1
    assert report["share"] == 0


def test_analyse_refuses_a_document_that_does_not_hold_up(
    lost_game: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    document = json.loads(lost_game.read_text())
    document["score"] = 999
    lost_game.write_text(json.dumps(document))
    assert run("analyse", str(lost_game)) == (EXIT_FAILED, "")
    assert "the score is 999" in capsys.readouterr().err


@pytest.mark.parametrize("content", ["{not json", None])
def test_analyse_refuses_what_is_not_a_document(
    tmp_path: Path, content: str | None, capsys: pytest.CaptureFixture[str]
) -> None:
    path = tmp_path / "game.json"
    if content is not None:
        path.write_text(content)
    assert run("analyse", str(path)) == (EXIT_FAILED, "")
    assert capsys.readouterr().err.startswith("error: ")


def test_the_other_commands_still_work(lost_game: Path) -> None:
    code, text = run("deal", "7")
    assert code == EXIT_OK
    assert json.loads(text)["seed"] == "7"
    code, text = run("verify", str(lost_game))
    assert code == EXIT_OK
    assert text.startswith("OK")


def test_the_module_runs_as_a_program() -> None:
    finished = subprocess.run(
        [sys.executable, "-m", "game.engine", "solve", "7"],
        capture_output=True,
        text=True,
        check=True,
        cwd=Path(__file__).resolve().parents[3],
    )
    assert json.loads(finished.stdout)["winnable"] is True


def test_analyse_reads_a_document_from_standard_input(
    lost_game: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A document on standard input may span lines (as ``deal`` prints them)."""
    pretty = json.dumps(json.loads(lost_game.read_text()), indent=2)
    monkeypatch.setattr(sys, "stdin", io.StringIO(pretty))
    code, text = run("analyse", "-")
    assert code == EXIT_OK
    assert json.loads(text)["status"] == "lost"
