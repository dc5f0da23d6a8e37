"""Game documents in the ``tripeaks-game/1`` format: export, import and verification.

A document holds the whole deal, so only a finished game may be exported; the one exception is
:func:`deal_document`, the offline view of a seed's deal that ``python -m game.engine deal`` prints.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import datetime
from typing import Any, Final

from game.engine.cards import Card
from game.engine.deal import Deal, normalise_seed
from game.engine.errors import IllegalMoveError, MalformedError, TriPeaksError, VerificationError
from game.engine.layout import TABLEAU_SIZE
from game.engine.moves import Move
from game.engine.state import GameState, Status
from game.engine.variants import Variant

FORMAT: Final = "tripeaks-game/1"
REQUIRED_FIELDS: Final = (
    "format", "id", "variant", "seed", "tableau", "waste", "stock", "moves", "score", "status",
)  # fmt: skip
OPTIONAL_FIELDS: Final = ("player", "started_at", "finished_at", "duration_ms")
RESULT_FIELDS: Final = ("mode", "ranked", "assisted", "deal_source")
"""What the result is, as the site that played it says: its mode (``casual``, ``daily``,
``race``, ``challenge``), whether it ranks on a board, whether a hint was used, and where its deal
came from (``random``, ``winnable``, ``daily``, ``race``, ``challenge``, ``replay``). A compatible
addition to the format: present on the site's exports, absent from older documents and from
:func:`deal_document`."""

Document = dict[str, Any]


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A game document read into engine values (not yet checked against the rules)."""

    game_id: str
    variant: Variant
    deal: Deal
    moves: tuple[Move, ...]
    score: int
    status: Status
    player: str | None = None
    started_at: str | None = None
    finished_at: str | None = None
    duration_ms: int | None = None
    mode: str | None = None
    ranked: bool | None = None
    assisted: bool | None = None
    deal_source: str | None = None

    @property
    def result_fields(self) -> dict[str, str | bool]:
        """The :data:`RESULT_FIELDS` the document gives, by name."""
        values = (self.mode, self.ranked, self.assisted, self.deal_source)
        return {
            name: value
            for name, value in zip(RESULT_FIELDS, values, strict=True)
            if value is not None
        }


def export_document(
    state: GameState,
    *,
    game_id: str,
    player: str | None = None,
    started_at: str | None = None,
    finished_at: str | None = None,
    duration_ms: int | None = None,
    mode: str | None = None,
    ranked: bool | None = None,
    assisted: bool | None = None,
    deal_source: str | None = None,
) -> Document:
    """The ``tripeaks-game/1`` document of a finished game (the :data:`RESULT_FIELDS` given)."""
    if not state.status.is_over:
        raise TriPeaksError("A game in progress cannot be exported: it would reveal hidden cards")
    return _document(
        GameRecord(
            game_id=game_id,
            variant=state.variant,
            deal=state.deal,
            moves=tuple(state.moves),
            score=state.score,
            status=state.status,
            player=player,
            started_at=started_at,
            finished_at=finished_at,
            duration_ms=duration_ms,
            mode=mode,
            ranked=ranked,
            assisted=assisted,
            deal_source=deal_source,
        )
    )


def deal_document(deal: Deal, variant: Variant) -> Document:
    """A document of ``deal`` before any move: an offline tool, never served for a live game."""
    return _document(
        GameRecord(
            game_id=f"deal:{deal.seed}",
            variant=variant,
            deal=deal,
            moves=(),
            score=0,
            status=Status.IN_PROGRESS,
        )
    )


def _document(record: GameRecord) -> Document:
    return {
        "format": FORMAT,
        "id": record.game_id,
        "variant": record.variant.value,
        "seed": record.deal.seed,
        "tableau": [card.code for card in record.deal.tableau],
        "waste": record.deal.waste.code,
        "stock": [card.code for card in record.deal.stock],
        "moves": [move.text for move in record.moves],
        "score": record.score,
        "status": record.status.value,
        "player": record.player,
        "started_at": record.started_at,
        "finished_at": record.finished_at,
        "duration_ms": record.duration_ms,
        **record.result_fields,
    }


def parse_document(document: object) -> GameRecord:
    """Read a document, checking its shape and notation (not its rules: see :func:`verify`)."""
    if not isinstance(document, Mapping):
        raise MalformedError("a game document is a JSON object")
    missing = [name for name in REQUIRED_FIELDS if name not in document]
    if missing:
        raise MalformedError(f"the document has no {', '.join(missing)}")
    if document["format"] != FORMAT:
        raise MalformedError(f"the format is {document['format']!r}, not {FORMAT!r}")
    status = document["status"]
    if not isinstance(status, str) or status not in {s.value for s in Status}:
        raise MalformedError(f"{status!r} is not a status")
    return GameRecord(
        game_id=_text(document, "id"),
        variant=Variant.parse(document["variant"]),
        deal=Deal(
            seed=normalise_seed(_text(document, "seed")),
            tableau=_cards(document, "tableau"),
            waste=Card.parse(document["waste"]),
            stock=_cards(document, "stock"),
        ),
        moves=tuple(Move.parse(text) for text in _list(document, "moves")),
        score=_whole_number(document, "score"),
        status=Status(status),
        player=_optional_text(document, "player"),
        started_at=_optional_timestamp(document, "started_at"),
        finished_at=_optional_timestamp(document, "finished_at"),
        duration_ms=_optional_whole_number(document, "duration_ms"),
        mode=_optional_text(document, "mode"),
        ranked=_optional_flag(document, "ranked"),
        assisted=_optional_flag(document, "assisted"),
        deal_source=_optional_text(document, "deal_source"),
    )


def verify(document: object) -> GameState:
    """Replay a document and check every claim it makes; return the replayed state.

    Raises :class:`MalformedError` for a document that is not well formed, and
    :class:`VerificationError` when the deal is not the seed's, a move is illegal, or the score or
    status is not what the moves give.
    """
    record = parse_document(document)
    _check_deal(record.deal)
    state = GameState(record.deal, record.variant)
    for number, move in enumerate(record.moves, start=1):
        try:
            state.apply(move)
        except IllegalMoveError as error:
            raise VerificationError(f"move {number} ({move}) is illegal: {error}") from None
    if record.status is Status.ABANDONED and state.status is Status.IN_PROGRESS:
        state.abandon()
    if state.status is not record.status:
        raise VerificationError(
            f"the status is {record.status.value}, but the moves give {state.status.value}"
        )
    if state.score != record.score:
        raise VerificationError(f"the score is {record.score}, but the moves give {state.score}")
    return state


def _check_deal(deal: Deal) -> None:
    expected = Deal.from_seed(deal.seed)
    if deal == expected:
        return
    stated = (*deal.tableau, deal.waste, *deal.stock)
    dealt = (*expected.tableau, expected.waste, *expected.stock)
    place = next(i for i, (a, b) in enumerate(zip(stated, dealt, strict=True)) if a != b)
    raise VerificationError(
        f"the deal is not the one seed {deal.seed!r} gives: {_place_name(place)} holds "
        f"{stated[place]}, the seed deals {dealt[place]}"
    )


def _place_name(index: int) -> str:
    if index < TABLEAU_SIZE:
        return f"tableau position {index}"
    if index == TABLEAU_SIZE:
        return "the waste"
    return f"stock card {index - TABLEAU_SIZE}"


def _list(document: Mapping[str, Any], name: str) -> Sequence[Any]:
    value = document[name]
    if not isinstance(value, list):
        raise MalformedError(f"{name} must be a list")
    return value


def _cards(document: Mapping[str, Any], name: str) -> tuple[Card, ...]:
    return tuple(Card.parse(code) for code in _list(document, name))


def _text(document: Mapping[str, Any], name: str) -> str:
    value = document[name]
    if not isinstance(value, str):
        raise MalformedError(f"{name} must be a string")
    return value


def _optional_text(document: Mapping[str, Any], name: str) -> str | None:
    return None if document.get(name) is None else _text(document, name)


def _optional_flag(document: Mapping[str, Any], name: str) -> bool | None:
    value = document.get(name)
    if value is not None and not isinstance(value, bool):
        raise MalformedError(f"{name} must be true or false")
    return value


def _optional_timestamp(document: Mapping[str, Any], name: str) -> str | None:
    value = _optional_text(document, name)
    if value is not None:
        try:
            datetime.fromisoformat(value)
        except ValueError:
            raise MalformedError(f"{name} must be an ISO 8601 date and time") from None
    return value


def _whole_number(document: Mapping[str, Any], name: str) -> int:
    value = document[name]
    if isinstance(value, bool) or not isinstance(value, int) or value < 0:
        raise MalformedError(f"{name} must be a whole number, 0 or more")
    return value


def _optional_whole_number(document: Mapping[str, Any], name: str) -> int | None:
    return None if document.get(name) is None else _whole_number(document, name)
