"""Shared helpers for the engine tests.

The rules are written out here a second time, straight from the contract
(``rules-spec.md``), without asking the engine: the overlap table, the fit rule,
the scoring table and the end of a game. Tests compare the engine against these, so that a bug
in the engine cannot hide behind the same bug in the test.
"""

from __future__ import annotations

import random
from collections.abc import Callable, Iterable, Mapping, Sequence

from hypothesis import strategies as st

from game.engine import DRAW, Card, Deal, GameState, Move, Variant

# The contract's notation: rank characters in value order (A = 1 … K = 13), then the suits.
SPEC_RANKS = "A23456789TJQK"
SPEC_SUITS = "cdhs"
ALL_CODES = tuple(rank + suit for suit in SPEC_SUITS for rank in SPEC_RANKS)

# The overlap table of rules-spec.md, written out position by position from its diagram.
SPEC_OVERLAPS: dict[int, tuple[int, ...]] = {
    0: (3, 4), 1: (5, 6), 2: (7, 8),
    3: (9, 10), 4: (10, 11), 5: (12, 13), 6: (13, 14), 7: (15, 16), 8: (16, 17),
    9: (18, 19), 10: (19, 20), 11: (20, 21), 12: (21, 22), 13: (22, 23),
    14: (23, 24), 15: (24, 25), 16: (25, 26), 17: (26, 27),
    **dict.fromkeys(range(18, 28), ()),
}  # fmt: skip
SPEC_PEAK_TOPS = (0, 1, 2)
SPEC_BOTTOM_ROW = tuple(range(18, 28))
TABLEAU_CARDS = 28
STOCK_CARDS = 23

# Scoring, as the contract's table states it.
STREAK_STEP = 10
PEAK_TOP_BONUS = 100
CLEARING_BONUS_PER_STOCK_CARD = 10

# A clearing order that respects the overlaps: each row is uncovered by the one below it.
CLEARING_ORDER = (*range(18, 28), *range(9, 18), *range(3, 9), *range(3))


def rank_of(code: str) -> int:
    """The rank value of a card code, read by the contract's notation."""
    return SPEC_RANKS.index(code[0]) + 1


def spec_fits(a: int, b: int, *, wrap: bool) -> bool:
    """The contract's fit rule on two rank values."""
    return abs(a - b) == 1 or (wrap and {a, b} == {1, 13})


def spec_face_up(position: int, played: set[int]) -> bool:
    """A card shows its face when every card overlapping it is gone (always on the bottom row)."""
    return all(cover in played for cover in SPEC_OVERLAPS[position])


def spec_available(position: int, played: set[int]) -> bool:
    return position not in played and spec_face_up(position, played)


def played_positions(deal: Deal, moves: Iterable[Move]) -> set[int]:
    """The positions emptied by the plays among ``moves``."""
    return {deal.tableau.index(move.card) for move in moves if move.card is not None}


def seen_codes(deal: Deal, moves: Sequence[Move]) -> set[str]:
    """Every card the player has seen: the waste so far, and each card that has shown its face
    on the peaks (played cards included)."""
    played = played_positions(deal, moves)
    draws = sum(1 for move in moves if move.is_draw)
    peaks = {deal.tableau[p].code for p in range(TABLEAU_CARDS) if spec_face_up(p, played)}
    return peaks | {deal.waste.code} | {card.code for card in deal.stock[:draws]}


def bottom_row(codes: str) -> dict[int, str]:
    """Positions 18-27 holding the ten codes given, separated by spaces."""
    return dict(zip(SPEC_BOTTOM_ROW, codes.split(), strict=True))


# A bottom row on which nothing fits a 5 (no 4s or 6s).
NOTHING_FITS_A_FIVE = "Tc Td Jc Jd Jh Js Qc Qd Qh Qs"


def lost_by_drawing() -> Deal:
    """A deal lost on its last draw: nothing on the bottom row fits the last two stock cards
    (5h, then 5s), so the 23rd draw leaves no play."""
    return build_deal(bottom_row(NOTHING_FITS_A_FIVE), "9c", stock_end=["5h", "5s"])


def deck_codes(deal: Deal) -> list[str]:
    """All 52 codes in deal order: positions 0-27, the waste, then the stock in draw order."""
    return [card.code for card in (*deal.tableau, deal.waste, *deal.stock)]


def build_deal(
    tableau: Mapping[int, str],
    waste: str,
    stock: Sequence[str] = (),
    *,
    stock_end: Sequence[str] = (),
    seed: str = "hand-built",
) -> Deal:
    """A hand-built deal: the given cards where given, the unused cards (in deck order) elsewhere.

    ``stock`` are the first cards drawn and ``stock_end`` the last ones; unused cards fill the
    empty positions of the peaks first, then the middle of the stock.
    """
    named = [*tableau.values(), waste, *stock, *stock_end]
    if len(set(named)) != len(named):
        raise ValueError(f"a card is named twice in {named}")
    spare = iter(code for code in ALL_CODES if code not in set(named))
    peaks = [tableau[p] if p in tableau else next(spare) for p in range(TABLEAU_CARDS)]
    middle = [next(spare) for _ in range(STOCK_CARDS - len(stock) - len(stock_end))]
    codes = [*peaks, waste, *stock, *middle, *stock_end]
    return Deal.from_cards(seed, tuple(Card.parse(code) for code in codes))


def climb(after: str, count: int, *, exclude: Iterable[str] = ()) -> list[str]:
    """``count`` distinct codes, each one rank above the last (King then Ace), from ``after``."""
    taken = {*exclude, after}
    rank = rank_of(after)
    codes = []
    for _ in range(count):
        rank = rank % 13 + 1
        code = next(c for s in SPEC_SUITS if (c := SPEC_RANKS[rank - 1] + s) not in taken)
        taken.add(code)
        codes.append(code)
    return codes


def clearing_deal(*, waste: str = "2c", draws: Sequence[str] = ()) -> tuple[Deal, list[str]]:
    """A deal that can be cleared, and the moves that clear it.

    The moves are the ``draws`` (the first stock cards), then all 28 cards in
    :data:`CLEARING_ORDER`, each one rank above the last, starting from the last card drawn.
    """
    chain = climb(draws[-1] if draws else waste, TABLEAU_CARDS, exclude=[waste, *draws])
    deal = build_deal(dict(zip(CLEARING_ORDER, chain, strict=True)), waste, draws)
    return deal, ["draw"] * len(draws) + chain


def play(state: GameState, *moves: str) -> GameState:
    """Apply moves written in the contract's notation; returns ``state`` for chaining."""
    for text in moves:
        state.apply(Move.parse(text))
    return state


def snapshot(state: GameState) -> tuple[object, ...]:
    """Everything observable about a state, to check that a refused move changed nothing."""
    return (
        [move.text for move in state.moves],
        [card.code for card in state.waste],
        state.score,
        state.streak,
        state.status,
        state.stock_count,
        [state.is_played(p) for p in range(TABLEAU_CARDS)],
        [state.is_face_up(p) for p in range(TABLEAU_CARDS)],
        state.score_breakdown(),
    )


def random_game(
    deal: Deal,
    variant: Variant,
    chooser: random.Random,
    *,
    play_bias: float = 0.85,
    max_moves: int | None = None,
    check: Callable[[GameState], object] | None = None,
) -> GameState:
    """Play legal moves at random until the game ends or ``max_moves`` have been made: a fitting
    card with probability ``play_bias`` when there is one, otherwise a draw while the stock lasts.
    ``check`` is called on the new state and after every move."""
    state = GameState(deal, variant)
    if check:
        check(state)
    while not state.status.is_over and (max_moves is None or state.seq < max_moves):
        plays = [move for move in state.legal_moves() if not move.is_draw]
        if plays and (state.stock_count == 0 or chooser.random() < play_bias):
            state.apply(chooser.choice(plays))
        else:
            state.apply(DRAW)
        if check:
            check(state)
    return state


def greedy_finished_game(
    variant: Variant, wanted: str, *, prefix: str = "greedy", tries: int = 500
) -> GameState:
    """The first game, over seeds ``prefix-0``, ``prefix-1``, …, that greedy play ends ``wanted``
    (``won``, ``lost`` or ``abandoned``: a game abandoned after a few moves)."""
    for number in range(tries):
        deal = Deal.from_seed(f"{prefix}-{number}")
        chooser = random.Random(number)
        if wanted == "abandoned":
            state = random_game(deal, variant, chooser, max_moves=6)
            if not state.status.is_over:
                state.abandon()
                return state
            continue
        state = random_game(deal, variant, chooser, play_bias=1.0)
        if state.status.value == wanted:
            return state
    raise AssertionError(f"no {wanted} game in {tries} seeds")


# Hypothesis strategies shared by the property tests.
seed_texts = st.text(
    st.characters(exclude_categories=("Cc", "Cs")), min_size=1, max_size=40
)  # the contract allows any text of 1-128 characters without control characters
seeds = st.one_of(seed_texts, st.integers(min_value=-(10**20), max_value=10**20))
variants = st.sampled_from(list(Variant))
play_biases = st.sampled_from([0.0, 0.5, 0.85, 1.0])
