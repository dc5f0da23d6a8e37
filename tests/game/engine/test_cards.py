"""Cards: the two-character notation, card names, the errors, and the fit rule between ranks."""

from __future__ import annotations

import itertools

import pytest

from game.engine import (
    FULL_DECK,
    Card,
    GameOverError,
    IllegalMoveError,
    MalformedError,
    Suit,
    TriPeaksError,
    VerificationError,
    fits,
)
from tests.game.engine.conftest import ALL_CODES, SPEC_RANKS, SPEC_SUITS, rank_of, spec_fits

# The fit table of the seed's rules page: the waste card's rank, and the ranks that may be played.
SEED_FIT_TABLE = {6: {5, 7}, 12: {11, 13}, 13: {12, 1}, 1: {2, 13}}

MALFORMED_CARDS: list[object] = [
    "7x",
    "10h",
    "7H",
    "",
    None,
    7,
    " 7h",
    "7h ",
    "h7",
    "77",
    "Tt",
    "draw",
    [],
]


@pytest.mark.parametrize("code", ALL_CODES)
def test_every_card_code_reads_and_writes_back_exactly(code: str) -> None:
    """Each of the 52 codes parses to the card of that rank and suit and is written back as is."""
    card = Card.parse(code)
    assert card.code == code
    assert str(card) == code
    assert card.rank == SPEC_RANKS.index(code[0]) + 1
    assert card.suit.value == code[1]
    assert card == Card(rank_of(code), Suit(code[1]))


def test_the_full_deck_is_the_52_codes_of_the_contract_each_once() -> None:
    """FULL_DECK holds every rank of every suit exactly once."""
    codes = [card.code for card in FULL_DECK]
    assert len(codes) == 52
    assert set(codes) == set(ALL_CODES)


@pytest.mark.parametrize("text", MALFORMED_CARDS, ids=repr)
def test_malformed_card_text_raises_malformed_error_saying_how_to_write_a_card(
    text: object,
) -> None:
    """Anything but an exact code is refused, quoting the input and showing the notation."""
    with pytest.raises(MalformedError) as error:
        Card.parse(text)  # type: ignore[arg-type]
    message = str(error.value)
    assert repr(text) in message
    assert "7h" in message
    assert all(suit in message for suit in SPEC_SUITS)


@pytest.mark.parametrize(("rank", "suit"), [(0, Suit.HEARTS), (14, Suit.HEARTS), (7, "h")])
def test_a_card_needs_a_rank_from_1_to_13_and_a_suit(rank: int, suit: Suit) -> None:
    """Out-of-range ranks and plain strings for suits are refused as malformed."""
    with pytest.raises(MalformedError):
        Card(rank, suit)


@pytest.mark.parametrize(
    ("code", "name"),
    [
        ("7h", "seven of hearts"),
        ("Th", "ten of hearts"),
        ("As", "ace of spades"),
        ("2d", "two of diamonds"),
        ("Jc", "jack of clubs"),
        ("Qs", "queen of spades"),
        ("Kd", "king of diamonds"),
    ],
)
def test_a_card_is_named_in_words(code: str, name: str) -> None:
    """Card names read "<rank> of <suit>", for screen readers and messages."""
    assert Card.parse(code).name == name


def test_every_card_has_its_own_name() -> None:
    """No two of the 52 cards share a name."""
    assert len({card.name for card in FULL_DECK}) == 52


def test_malformed_and_illegal_are_both_value_errors_but_neither_is_the_other() -> None:
    """Callers can tell "badly written" from "not allowed here"; both are ValueErrors."""
    assert issubclass(MalformedError, ValueError)
    assert issubclass(IllegalMoveError, ValueError)
    assert not issubclass(MalformedError, IllegalMoveError)
    assert not issubclass(IllegalMoveError, MalformedError)
    assert issubclass(VerificationError, TriPeaksError)
    assert not issubclass(VerificationError, MalformedError | IllegalMoveError)
    # A move sent after the end is one kind of illegal move.
    assert issubclass(GameOverError, IllegalMoveError)


# fits()


@pytest.mark.parametrize("waste_rank", sorted(SEED_FIT_TABLE))
def test_the_seed_fit_table_holds_row_by_row(waste_rank: int) -> None:
    """6 takes 5 or 7; Queen takes Jack or King; King takes Queen or Ace; Ace takes 2 or King."""
    waste = Card(waste_rank, Suit.CLUBS)
    allowed = {rank for rank in range(1, 14) if fits(Card(rank, Suit.HEARTS), waste, wrap=True)}
    assert allowed == SEED_FIT_TABLE[waste_rank]


@pytest.mark.parametrize("wrap", [True, False])
def test_fits_agrees_with_the_contract_for_every_pair_of_cards(wrap: bool) -> None:
    """Ranks one apart fit, King and Ace fit only with wrap, and nothing else fits."""
    for a, b in itertools.product(FULL_DECK, repeat=2):
        assert fits(a, b, wrap=wrap) is spec_fits(a.rank, b.rank, wrap=wrap), (a, b, wrap)


@pytest.mark.parametrize("wrap", [True, False])
def test_equal_ranks_never_fit(wrap: bool) -> None:
    """Two sevens (or two of any rank), whatever their suits, do not fit."""
    for a, b in itertools.product(FULL_DECK, repeat=2):
        if a.rank == b.rank:
            assert not fits(a, b, wrap=wrap), (a, b)


@pytest.mark.parametrize("wrap", [True, False])
def test_suits_never_matter(wrap: bool) -> None:
    """For each pair of ranks, all sixteen suit pairings give the same answer."""
    for rank_a, rank_b in itertools.product(range(1, 14), repeat=2):
        answers = {
            fits(Card(rank_a, suit_a), Card(rank_b, suit_b), wrap=wrap)
            for suit_a, suit_b in itertools.product(Suit, repeat=2)
        }
        assert len(answers) == 1, (rank_a, rank_b)


def test_without_wrap_king_and_ace_do_not_fit_but_their_other_neighbours_do() -> None:
    """In tripeaks-nowrap a King takes only a Queen and an Ace takes only a 2."""
    king, ace = Card.parse("Kd"), Card.parse("Ac")
    assert not fits(king, ace, wrap=False)
    assert not fits(ace, king, wrap=False)
    assert {r for r in range(1, 14) if fits(Card(r, Suit.SPADES), king, wrap=False)} == {12}
    assert {r for r in range(1, 14) if fits(Card(r, Suit.SPADES), ace, wrap=False)} == {2}
    assert fits(king, ace, wrap=True)
