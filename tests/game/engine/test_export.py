"""Game documents (``tripeaks-game/1``): export, parse, and verification by replay."""

from __future__ import annotations

import copy
import itertools
import json
import random
from functools import cache
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from game.engine import (
    FORMAT,
    Deal,
    GameState,
    MalformedError,
    Status,
    TriPeaksError,
    Variant,
    VerificationError,
    deal_document,
    export_document,
    parse_document,
    verify,
)
from tests.game.engine.conftest import (
    deck_codes,
    greedy_finished_game,
    play_biases,
    random_game,
    seeds,
    variants,
)

REQUIRED = ["format", "id", "variant", "seed", "tableau", "waste", "stock", "moves", "score"]
REQUIRED += ["status"]
OPTIONAL = ["player", "started_at", "finished_at", "duration_ms"]


@cache
def finished(status: str, variant: Variant = Variant.TRIPEAKS) -> GameState:
    """A real seeded game that ended ``status`` (found once, by greedy play over fixed seeds)."""
    return greedy_finished_game(variant, status)


def document(status: str = "won", **extra: Any) -> dict[str, Any]:
    """The export of a finished game, as it reads after a trip through JSON."""
    doc: dict[str, Any] = json.loads(
        json.dumps(export_document(finished(status), game_id=f"g-{status}", **extra))
    )
    return doc


def test_a_game_in_progress_cannot_be_exported() -> None:
    """Exporting would reveal the hidden cards, so it is refused."""
    state = GameState(Deal.from_seed("in play"), Variant.TRIPEAKS)
    with pytest.raises(TriPeaksError, match="hidden"):
        export_document(state, game_id="x")


def test_an_export_holds_every_field_of_the_contract() -> None:
    """The document has the format, the whole deal, the moves, score, status and the optional
    fields as given."""
    state = finished("lost")
    doc = export_document(
        state,
        game_id="g1",
        player="ann",
        started_at="2026-11-30T10:00:00+00:00",
        finished_at="2026-11-30T10:05:00+00:00",
        duration_ms=300000,
    )
    assert set(doc) == {*REQUIRED, *OPTIONAL}
    assert doc["format"] == FORMAT == "tripeaks-game/1"
    assert doc["id"] == "g1"
    assert doc["seed"] == state.deal.seed
    assert [*doc["tableau"], doc["waste"], *doc["stock"]] == deck_codes(state.deal)
    assert doc["moves"] == [move.text for move in state.moves]
    assert (doc["score"], doc["status"]) == (state.score, "lost")
    assert (doc["player"], doc["duration_ms"]) == ("ann", 300000)


@pytest.mark.parametrize("status", ["won", "lost", "abandoned"])
def test_export_json_parse_verify_round_trips(status: str) -> None:
    """A finished game survives export, JSON and parsing, and verifies to the same game."""
    state = finished(status)
    doc = document(status, player=None, duration_ms=1234)
    record = parse_document(doc)
    assert record.deal == state.deal
    assert record.moves == tuple(state.moves)
    assert (record.score, record.status, record.duration_ms) == (state.score, state.status, 1234)
    replayed = verify(doc)
    assert replayed.status is state.status
    assert replayed.score == state.score
    assert replayed.moves == state.moves


def test_a_nowrap_game_verifies_under_its_own_rules_only() -> None:
    """The variant is part of the claim: a won nowrap game verifies, and a won tripeaks game that
    plays a King on an Ace (or an Ace on a King) fails when relabelled tripeaks-nowrap."""
    straight = finished("won", Variant.NOWRAP)
    doc = json.loads(json.dumps(export_document(straight, game_id="n")))
    assert doc["variant"] == "tripeaks-nowrap"
    assert verify(doc).status is Status.WON
    wrapping = finished("won", Variant.TRIPEAKS)
    plays = [(a, b) for a, b in itertools.pairwise(wrapping.waste) if b in wrapping.deal.tableau]
    assert any({a.rank, b.rank} == {1, 13} for a, b in plays), "this win uses no wrap"
    relabelled = json.loads(json.dumps(export_document(wrapping, game_id="w")))
    relabelled["variant"] = "tripeaks-nowrap"
    with pytest.raises(VerificationError, match="does not fit"):
        verify(relabelled)


@settings(max_examples=40, deadline=None)
@given(
    seed=seeds,
    variant=variants,
    chooser=st.randoms(use_true_random=False),
    bias=play_biases,
    abandon_after=st.none() | st.integers(min_value=0, max_value=50),
)
def test_every_finished_random_game_round_trips(
    seed: int | str,
    variant: Variant,
    chooser: random.Random,
    bias: float,
    abandon_after: int | None,
) -> None:
    """Random games, played to the end or abandoned part way, export, parse and verify."""
    state = random_game(
        Deal.from_seed(seed), variant, chooser, play_bias=bias, max_moves=abandon_after
    )
    if not state.status.is_over:
        state.abandon()
    doc = json.loads(json.dumps(export_document(state, game_id="r")))
    assert parse_document(doc).deal == state.deal
    replayed = verify(doc)
    assert (replayed.status, replayed.score, replayed.moves) == (
        state.status,
        state.score,
        state.moves,
    )


# Claims that are not true.


def swapped(doc: dict[str, Any], field: str, i: int, j: int) -> dict[str, Any]:
    tampered = copy.deepcopy(doc)
    cards = tampered[field]
    cards[i], cards[j] = cards[j], cards[i]
    return tampered


def test_a_tampered_tableau_is_rejected_naming_the_position() -> None:
    """Two cards swapped on the peaks: the first place that differs is named."""
    with pytest.raises(VerificationError, match=r"tableau position 4\b"):
        verify(swapped(document(), "tableau", 4, 20))


def test_a_tampered_stock_is_rejected_naming_the_stock_card() -> None:
    """Two stock cards swapped: the error names the stock card, counting from 1 in draw order."""
    with pytest.raises(VerificationError, match=r"stock card 4\b"):
        verify(swapped(document(), "stock", 3, 17))


def test_a_tampered_waste_is_rejected_naming_the_waste() -> None:
    """The waste swapped with a stock card: the error names the waste."""
    doc = document()
    tampered = copy.deepcopy(doc)
    tampered["waste"], tampered["stock"][5] = doc["stock"][5], doc["waste"]
    with pytest.raises(VerificationError, match="the waste"):
        verify(tampered)


def test_a_changed_seed_is_rejected() -> None:
    """The deal is not the one the stated seed gives."""
    doc = document()
    doc["seed"] = doc["seed"] + "x"
    with pytest.raises(VerificationError, match="seed"):
        verify(doc)


def test_an_illegal_move_is_rejected_saying_which_move() -> None:
    """A face-down card played as move 1 is refused as "move 1"."""
    doc = document()
    doc["moves"] = [doc["tableau"][0], *doc["moves"]]
    with pytest.raises(VerificationError, match=r"^move 1 \("):
        verify(doc)


@pytest.mark.parametrize("status", ["won", "lost"])
def test_a_move_after_the_end_is_rejected_saying_which_move(status: str) -> None:
    """An extra draw after the last move of a finished game is illegal, and numbered."""
    doc = document(status)
    doc["moves"].append("draw")
    with pytest.raises(VerificationError, match=rf"^move {len(doc['moves'])} \(draw\)"):
        verify(doc)


def test_a_move_in_the_middle_is_checked_too() -> None:
    """Replacing move k by a card from the top of an untouched peak is caught at move k."""
    doc = document("won")
    moves = doc["moves"]
    k = next(i for i, m in enumerate(moves) if m == doc["tableau"][0])  # peak 0's top
    doc["moves"] = [*moves[:3], doc["tableau"][0], *moves[3:k], *moves[k + 1 :]]
    with pytest.raises(VerificationError, match=r"^move 4 \("):
        verify(doc)


@pytest.mark.parametrize("status", ["won", "lost", "abandoned"])
def test_a_wrong_score_is_rejected(status: str) -> None:
    """The score must be exactly what the moves give."""
    doc = document(status)
    doc["score"] += 10
    with pytest.raises(VerificationError, match="score"):
        verify(doc)


@pytest.mark.parametrize(
    ("real", "claimed"),
    [("won", "lost"), ("lost", "won"), ("won", "abandoned"), ("lost", "abandoned"),
     ("abandoned", "lost"), ("abandoned", "won")],
)  # fmt: skip
def test_a_wrong_status_is_rejected(real: str, claimed: str) -> None:
    """The status must be what the moves give (abandoned only for a game the moves leave open)."""
    doc = document(real)
    doc["status"] = claimed
    with pytest.raises(VerificationError, match="status"):
        verify(doc)


def test_a_deal_document_is_the_seeds_deal_with_no_moves() -> None:
    """deal_document shows a seed's deal, for offline tools; it verifies as a game not started."""
    deal = Deal.from_seed("offline")
    doc = deal_document(deal, Variant.NOWRAP)
    assert [*doc["tableau"], doc["waste"], *doc["stock"]] == deck_codes(deal)
    assert (doc["moves"], doc["score"], doc["variant"]) == ([], 0, "tripeaks-nowrap")


# Documents that are not well formed.


def without(name: str) -> dict[str, Any]:
    doc = document()
    del doc[name]
    return doc


def with_value(name: str, value: object) -> dict[str, Any]:
    doc = document()
    doc[name] = value
    return doc


@pytest.mark.parametrize("name", REQUIRED)
def test_a_document_missing_a_required_field_is_malformed(name: str) -> None:
    """Each required field is required, and the error names it."""
    with pytest.raises(MalformedError, match=name):
        parse_document(without(name))
    with pytest.raises(MalformedError):
        verify(without(name))


@pytest.mark.parametrize("name", OPTIONAL)
def test_optional_fields_may_be_missing_or_null(name: str) -> None:
    """player, started_at, finished_at and duration_ms may be absent or null."""
    verify(without(name))
    verify(with_value(name, None))


BAD_VALUES = [
    ("format", "tripeaks-game/2"),
    ("format", None),
    ("id", 5),
    ("variant", "golf"),
    ("variant", None),
    ("seed", 42),
    ("seed", ""),
    ("seed", "bad\nseed"),
    ("tableau", "Jh Qd"),
    ("tableau", ["Jh"] * 28),
    ("tableau", []),
    ("waste", 7),
    ("waste", "7x"),
    ("stock", None),
    ("stock", ["10h"] * 23),
    ("moves", "draw"),
    ("moves", ["undo"]),
    ("moves", [None]),
    ("score", "10"),
    ("score", True),
    ("score", False),
    ("score", -10),
    ("score", 1.5),
    ("score", None),
    ("status", "finished"),
    ("status", "WON"),
    ("status", None),
    ("status", ["won"]),
    ("status", {"won": 1}),
    ("player", 5),
    ("started_at", "yesterday"),
    ("finished_at", 1700000000),
    ("duration_ms", -1),
    ("duration_ms", True),
    ("duration_ms", 2.5),
    ("duration_ms", "100"),
]


@pytest.mark.parametrize(("name", "value"), BAD_VALUES, ids=lambda v: repr(v)[:20])
def test_a_field_of_the_wrong_type_or_notation_is_malformed(name: str, value: object) -> None:
    """Wrong types, bad notation, bools as numbers and negative numbers are all malformed."""
    doc = with_value(name, value)
    with pytest.raises(MalformedError):
        parse_document(doc)
    with pytest.raises(MalformedError):
        verify(doc)


@pytest.mark.parametrize("doc", [None, [], "a document", 42], ids=repr)
def test_a_document_that_is_not_an_object_is_malformed(doc: object) -> None:
    """A game document is a JSON object."""
    with pytest.raises(MalformedError, match="object"):
        parse_document(doc)
