"""What a result is, in ``tripeaks-game/1``: the game's mode, whether it ranks, whether a hint
was used, and where its deal came from. A compatible addition: older documents stay valid, and
``verify`` prints the fields, and calls a game still in progress what it is."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from game.engine import Deal, GameState, MalformedError, Variant, export_document
from game.engine.cli import main
from game.engine.export import RESULT_FIELDS, deal_document, parse_document, verify
from tests.game.engine.conftest import greedy_finished_game

SAID = {"mode": "casual", "ranked": False, "assisted": True, "deal_source": "replay"}


def document(**fields: object) -> dict[str, object]:
    state = greedy_finished_game(Variant.TRIPEAKS, "won")
    return export_document(state, game_id="g", **fields)  # type: ignore[arg-type]


def verified(tmp_path: Path, *documents: dict[str, object]) -> tuple[int, list[str]]:
    paths = []
    for number, doc in enumerate(documents):
        paths.append(tmp_path / f"{number}.json")
        paths[-1].write_text(json.dumps(doc))
    out = io.StringIO()
    status = main(["verify", *map(str, paths)], stdout=out)
    return status, out.getvalue().splitlines()


def test_the_fields_go_out_and_come_back() -> None:
    doc = document(**SAID)
    assert {name: doc[name] for name in RESULT_FIELDS} == SAID
    assert parse_document(doc).result_fields == SAID
    assert verify(doc).status.value == "won"


def test_a_document_without_them_is_still_valid() -> None:
    doc = document()
    assert not set(RESULT_FIELDS) & set(doc)
    assert parse_document(doc).result_fields == {}
    assert verify(doc).status.value == "won"


@pytest.mark.parametrize(
    ("name", "value"), [("ranked", "yes"), ("assisted", 1), ("mode", 3), ("deal_source", [])]
)
def test_a_field_of_the_wrong_type_is_malformed(name: str, value: object) -> None:
    with pytest.raises(MalformedError, match=name):
        parse_document({**document(), name: value})


def test_verify_prints_what_the_result_is(tmp_path: Path) -> None:
    status, lines = verified(tmp_path, document(**SAID), document())
    assert status == 0
    assert lines[0].startswith("OK ")
    assert lines[0].endswith("; mode casual; ranked no; assisted yes; deal_source replay")
    assert lines[1].startswith("OK ")
    assert "mode" not in lines[1]


def test_verify_calls_a_game_in_progress_in_progress_not_ok(tmp_path: Path) -> None:
    """Holding up is not being a result: a deal's document, or one cut off in play, is OPEN,
    and the exit status says not every document was a finished game."""
    deal = Deal.from_seed("2026")
    midway = GameState.replay(deal, Variant.TRIPEAKS, ["draw", "draw"])
    cut_off = {**deal_document(deal, Variant.TRIPEAKS), "moves": ["draw", "draw"]}
    cut_off |= {"score": midway.score, **SAID, "ranked": True, "deal_source": "random"}

    status, lines = verified(tmp_path, deal_document(deal, Variant.TRIPEAKS), cut_off, document())

    assert status == 1
    assert [line.split()[0] for line in lines] == ["OPEN", "OPEN", "OK"]
    assert "in progress, not a finished game: 0 points, 0 moves so far" in lines[0]
    assert lines[1].endswith(
        "2 moves so far; mode casual; ranked yes; assisted yes; deal_source random"
    )
