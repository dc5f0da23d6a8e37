"""The command line: ``python -m game.engine deal`` and ``verify``."""

from __future__ import annotations

import io
import json
import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

from game.engine import Deal, Variant, export_document
from game.engine.cli import main
from tests.game.engine.conftest import deck_codes, greedy_finished_game

PROJECT_ROOT = Path(__file__).resolve().parents[3]


@cache
def good_document(status: str) -> str:
    """The JSON of a real finished game (won, lost or abandoned), on one line."""
    state = greedy_finished_game(Variant.TRIPEAKS, status)
    return json.dumps(export_document(state, game_id=f"cli-{status}"))


def bad_score_document() -> str:
    doc = json.loads(good_document("won"))
    doc["score"] += 1
    return json.dumps(doc)


def run_module(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """``python -m game.engine ARGS`` as a real process, from the project root."""
    return subprocess.run(
        [sys.executable, "-m", "game.engine", *args],
        cwd=PROJECT_ROOT,
        input=stdin,
        capture_output=True,
        text=True,
        timeout=60,
        check=False,
    )


def run_main(*args: str) -> tuple[int, list[str]]:
    """cli.main in this process: the exit status and the lines printed."""
    out = io.StringIO()
    status = main(list(args), stdout=out)
    return status, out.getvalue().splitlines()


def write(tmp_path: Path, name: str, text: str) -> str:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return str(path)


# deal


def test_deal_prints_the_document_of_the_seeds_deal() -> None:
    """``deal 42`` (a real process) prints seed "42" and exactly the cards Deal.from_seed gives."""
    result = run_module("deal", "42")
    assert result.returncode == 0, result.stderr
    doc = json.loads(result.stdout)
    assert doc["seed"] == "42"
    assert doc["variant"] == "tripeaks"
    assert doc["moves"] == []
    assert [*doc["tableau"], doc["waste"], *doc["stock"]] == deck_codes(Deal.from_seed(42))


def test_deal_takes_a_variant_and_deals_the_same_cards() -> None:
    """``--variant tripeaks-nowrap`` names the variant; the deal depends on the seed alone."""
    status, lines = run_main("deal", "42", "--variant", "tripeaks-nowrap")
    doc = json.loads("\n".join(lines))
    assert status == 0
    assert doc["variant"] == "tripeaks-nowrap"
    assert [*doc["tableau"], doc["waste"], *doc["stock"]] == deck_codes(Deal.from_seed("42"))


def test_deal_refuses_a_bad_seed_with_a_usage_error(capsys: pytest.CaptureFixture[str]) -> None:
    """An empty seed is refused on standard error with exit status 2, and nothing is printed."""
    status, lines = run_main("deal", "")
    assert status == 2
    assert lines == []
    assert capsys.readouterr().err.startswith("error: ")


@pytest.mark.parametrize(
    "args", [[], ["deal"], ["deal", "1", "--variant", "golf"], ["verify"], ["shuffle"]]
)
def test_bad_usage_exits_with_status_2(args: list[str]) -> None:
    """Missing commands, arguments or an unknown variant are usage errors."""
    with pytest.raises(SystemExit) as exit_:
        main(args, stdout=io.StringIO())
    assert exit_.value.code == 2


# verify


def test_verify_passes_good_files_with_a_line_each_starting_ok(tmp_path: Path) -> None:
    """A real process verifies a won, a lost and an abandoned game: exit 0, "OK" for each file."""
    paths = [write(tmp_path, f"{s}.json", good_document(s)) for s in ("won", "lost", "abandoned")]
    result = run_module("verify", *paths)
    assert result.returncode == 0, result.stdout + result.stderr
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    for path, status, line in zip(paths, ("won", "lost", "abandoned"), lines, strict=True):
        assert line.startswith("OK")
        assert path in line
        assert status in line


def test_verify_fails_a_bad_file_saying_why_and_still_checks_the_rest(tmp_path: Path) -> None:
    """One wrong score among good files: exit 1, a FAIL line naming the score, OK for the rest."""
    good = write(tmp_path, "good.json", good_document("won"))
    bad = write(tmp_path, "bad.json", bad_score_document())
    status, lines = run_main("verify", good, bad)
    assert status == 1
    assert lines[0].startswith("OK")
    assert lines[1].startswith("FAIL")
    assert bad in lines[1]
    assert "score" in lines[1]


def test_verify_reads_json_lines_from_stdin_with_a_dash() -> None:
    """A real process reads one document per line of standard input, skipping blank lines."""
    stdin = "\n".join([good_document("lost"), "", bad_score_document(), good_document("won")])
    result = run_module("verify", "-", stdin=stdin + "\n")
    assert result.returncode == 1
    lines = result.stdout.splitlines()
    assert len(lines) == 3
    assert [line.split(":")[0] for line in lines] == [
        "OK   stdin line 1",
        "FAIL stdin line 3",
        "OK   stdin line 4",
    ]
    assert "score" in lines[1]


def test_verify_stdin_of_good_lines_exits_0(monkeypatch: pytest.MonkeyPatch) -> None:
    """In process: good documents on standard input all pass."""
    stdin = io.StringIO(good_document("won") + "\n" + good_document("abandoned") + "\n")
    monkeypatch.setattr(sys, "stdin", stdin)
    status, lines = run_main("verify", "-")
    assert status == 0
    assert [line[:2] for line in lines] == ["OK", "OK"]


def test_verify_fails_a_missing_file(tmp_path: Path) -> None:
    """A file that cannot be read is a failure that says so."""
    missing = str(tmp_path / "nowhere.json")
    status, lines = run_main("verify", missing)
    assert status == 1
    assert lines == [f"FAIL {missing}: cannot read: No such file or directory"]


@pytest.mark.parametrize(
    ("text", "reason"),
    [
        ("this is not JSON", "not JSON"),
        ("{", "not JSON"),
        ("[1, 2]", "object"),
        (json.dumps({"format": "tripeaks-game/1"}), "has no"),
    ],
)
def test_verify_fails_a_file_that_is_not_a_game_document(
    tmp_path: Path, text: str, reason: str
) -> None:
    """Non-JSON and JSON that is not a game document each fail with a reason, without a crash."""
    path = write(tmp_path, "doc.json", text)
    status, lines = run_main("verify", path)
    assert status == 1
    assert len(lines) == 1
    assert lines[0].startswith(f"FAIL {path}: ")
    assert reason in lines[0]


def test_verify_fails_a_document_whose_status_has_the_wrong_type(tmp_path: Path) -> None:
    """A status that is a list (unhashable) is reported as malformed, not a traceback."""
    doc: dict[str, Any] = json.loads(good_document("won"))
    doc["status"] = ["won"]
    status, lines = run_main("verify", write(tmp_path, "doc.json", json.dumps(doc)))
    assert status == 1
    assert "is not a status" in lines[0]
