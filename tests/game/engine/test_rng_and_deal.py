"""The deal generator: golden vectors, the documented construction, seeds, and uniformity."""

from __future__ import annotations

import hashlib
import itertools
import math
from collections.abc import Iterator, Sequence
from statistics import NormalDist

import pytest

from game.engine import FULL_DECK, Card, Deal, MalformedError, normalise_seed
from game.engine.rng import DealRandom
from tests.game.engine.conftest import ALL_CODES, STOCK_CARDS, TABLEAU_CARDS, deck_codes

# GOLDEN VECTORS. These were computed once, from the generator as it stood when these tests were
# written, and are pinned here on purpose: a deal must never change, on any machine or version.
# If one of these tests fails, the generator has changed and every stored seed now deals
# differently. Do not "fix" the expected values; fix the generator.
GOLDEN_DEALS = {
    "1": (
        "Jh Qd Tc Kd Ts Ks Ad 9c Td 6d 7c 5c 4c Qc Ac 6h Kc 9h 4s Jd 2s 3d 3h Qh 4h Th "
        "8c 9s 5d As Jc 6s 2d 5h 9d 2h Kh 8h Js 2c 7d 5s Qs 7h 3c 8s 6c 8d Ah 7s 4d 3s"
    ),
    "0": (
        "Qh 5c 6c 5h Jd Td 3d 4s Qd 8s Ac Ts 3h 2s 3s Qc As 9d Th 9s 7s 6s 7h 3c Jc 2d "
        "Ks 4h Tc Kc 8c 4c Ad Kd 4d 6d 5s Js 8d 2c Jh Qs 7c 5d 9c 9h Kh 8h Ah 6h 2h 7d"
    ),
    "2026": (
        "9h 6h Ac Kh 8s 2h 7d 8h 9c Tc Kd Ad 3s Qs 6s 2c Qh Ts 7h 2s Jd 4c 4s 5s 9d 5d "
        "Td Qd 7c Kc 3h 3c Js As 4d 4h 2d Th 7s 8d 6c 9s 5h 6d 8c 3d 5c Qc Jc Ks Ah Jh"
    ),
    "daily-2026-11-30": (
        "7c 4d Td 9h 7d 7h 3s 7s Ah 6h Qh Qs 3c 2s Kc As Jd 2d 8s 3h Ks Qc 5s 5d Tc 2c "
        "Js Jc 3d Qd Kd Jh 2h Ts 9s 5c 4h Ac 4c Ad 8c 6d 6s Kh 9d Th 6c 4s 8h 9c 5h 8d"
    ),
    "\u00f1and\u00fa": (  # "ñandú", written with escapes so that no editor can renormalise it
        "Kh 8c 7s 3s 5c 8h Ks 5s 4c Jd 6d 7h 6c 2h 7d 3c 2s 2d 6s Th Kd 3d 8d 3h Qd 2c "
        "Qh 4s 8s As Tc 5d Kc 9h Ac 4d 5h Ts Jc 6h Td 9s Ah Ad Qc 7c 4h 9c Qs 9d Jh Js"
    ),
}
# GOLDEN VECTOR: the first six raw words of seed "1" (blocks 0 and 1 of the stream).
GOLDEN_WORDS_SEED_1 = [
    0xC339A1B002F63EE9,
    0x72206EBD0E081CB8,
    0x2174FEA749830C13,
    0x8BCAAC232AC5D05C,
    0x6058E4FDD3A74EB4,
    0xE8E736FFC70B0753,
]

# The statistical test deals this many seeds: 200 expected per (position, card) cell, and about
# 0.8 s. Its thresholds are set so that a correct generator fails it with probability < 2e-6.
UNIFORMITY_DEALS = 52 * 200
ALPHA_PER_POSITION = 1e-6 / 52  # Bonferroni: all 52 positions together fail with p < 1e-6
ALPHA_WHOLE_TABLE = 1e-6


# The generator, re-derived from rng.py's docstring alone.


def spec_words(seed: str) -> Iterator[int]:
    """The documented stream: SHA-256 blocks in counter mode, four big-endian words each."""
    for block in itertools.count():
        message = b"tripeaks-deal/1" + b"\x00" + seed.encode("utf-8") + b"\x00"
        digest = hashlib.sha256(message + block.to_bytes(8, "big")).digest()
        for i in range(4):
            yield int.from_bytes(digest[8 * i : 8 * i + 8], "big")


def spec_below(words: Iterator[int], n: int) -> int:
    """The documented bounded number: reject words at or above the last whole multiple of n."""
    limit = 2**64 - (2**64 % n)
    return next(word for word in words if word < limit) % n


def spec_deal_codes(seed: str) -> list[str]:
    """The documented shuffle of the deck in index order, from the end."""
    deck = list(ALL_CODES)  # clubs A-K, diamonds, hearts, spades
    words = spec_words(seed)
    for i in range(51, 0, -1):
        j = spec_below(words, i + 1)
        deck[i], deck[j] = deck[j], deck[i]
    return deck


# Chi-square thresholds without scipy.


def chi_square_critical(df: int, alpha: float) -> float:
    """The value a chi-square variable with ``df`` degrees of freedom exceeds with probability
    ``alpha``, by the Wilson-Hilferty cube-root normal approximation (good to well under 1% for
    the degrees of freedom used here, and conservative in the far tail)."""
    z = NormalDist().inv_cdf(1 - alpha)
    h = 2 / (9 * df)
    return df * (1 - h + z * math.sqrt(h)) ** 3


def pearson(observed: Sequence[int], expected: float) -> float:
    return sum((count - expected) ** 2 for count in observed) / expected


def position_card_counts(decks: Iterator[Sequence[int]]) -> list[list[int]]:
    """counts[position][card index] over the decks (each a list of card indexes in deal order)."""
    counts = [[0] * 52 for _ in range(52)]
    for deck in decks:
        for position, card in enumerate(deck):
            counts[position][card] += 1
    return counts


def whole_table_statistic(counts: list[list[int]], deals: int) -> float:
    """Pearson's statistic over the whole position x card table, scaled to chi-square(51²).

    Every deal puts each card in exactly one place, so rows and columns are both fixed; for
    uniform random permutations the covariance of the table is isotropic on its (n-1)² free
    dimensions with variance 1/(n-1) per deal, so Pearson's sum is n/(n-1) times a chi-square
    with (n-1)² degrees of freedom. Multiplying by (n-1)/n undoes that factor.
    """
    expected = deals / 52
    return sum(pearson(row, expected) for row in counts) * 51 / 52


def test_the_wilson_hilferty_critical_values_match_printed_tables() -> None:
    """The approximation reproduces standard table values (df 50 at 0.001: 86.661; df 100 at
    0.01: 135.807) to within 0.2%."""
    assert chi_square_critical(50, 0.001) == pytest.approx(86.661, rel=2e-3)
    assert chi_square_critical(100, 0.01) == pytest.approx(135.807, rel=2e-3)


# Golden vectors and the documented construction.


@pytest.mark.parametrize("seed", sorted(GOLDEN_DEALS))
def test_golden_deals_never_change(seed: str) -> None:
    """The full deal of each golden seed, all 52 cards in deal order, is exactly as pinned."""
    assert deck_codes(Deal.from_seed(seed)) == GOLDEN_DEALS[seed].split()


def test_golden_words_of_seed_1_never_change() -> None:
    """The first six raw 64-bit words of seed "1" are exactly as pinned."""
    stream = DealRandom("1")
    assert [stream.next_word() for _ in range(6)] == GOLDEN_WORDS_SEED_1


def test_the_first_word_is_the_first_eight_bytes_of_the_documented_hash() -> None:
    """Word 0 of seed "1" is SHA-256(b"tripeaks-deal/1\\x001\\x00" + block 0) read big-endian."""
    digest = hashlib.sha256(b"tripeaks-deal/1\x001\x00" + bytes(8)).digest()
    assert DealRandom("1").next_word() == int.from_bytes(digest[:8], "big")


@pytest.mark.parametrize("seed", ["1", "2026", "\u00f1and\u00fa", "x" * 128])
def test_the_stream_follows_the_documented_construction_across_blocks(seed: str) -> None:
    """The first 12 words (three SHA-256 blocks) match the docstring's construction."""
    stream = DealRandom(seed)
    assert [stream.next_word() for _ in range(12)] == list(itertools.islice(spec_words(seed), 12))


@pytest.mark.parametrize("seed", [*GOLDEN_DEALS, "42", "-7", "a seed with spaces", "\u6f22\u5b57"])
def test_deals_follow_the_documented_fisher_yates_shuffle(seed: str) -> None:
    """Each deal is the documented shuffle of the deck in index order, from the end."""
    assert deck_codes(Deal.from_seed(seed)) == spec_deal_codes(seed)


def test_below_skips_a_word_above_the_last_whole_multiple() -> None:
    """A rejected word is consumed, not reused: below(n) then takes the next word."""
    n = 3 * 2**62  # a quarter of all words are at or above the last multiple of n
    limit = 2**64 - 2**64 % n
    seed = next(
        f"reject-{k}" for k in itertools.count() if next(spec_words(f"reject-{k}")) >= limit
    )
    words = list(itertools.islice(spec_words(seed), 3))
    stream = DealRandom(seed)
    assert stream.below(n) == words[1] % n
    assert stream.next_word() == words[2]


def test_below_accepts_1_to_2_to_the_64_and_nothing_else() -> None:
    """below(1) is always 0; below(0) and below(2**64 + 1) are errors."""
    stream = DealRandom("bounds")
    assert [stream.below(1) for _ in range(5)] == [0] * 5
    assert 0 <= stream.below(2**64) < 2**64
    for n in (0, -1, 2**64 + 1):
        with pytest.raises(ValueError, match="below"):
            stream.below(n)


def test_shuffled_returns_a_new_permutation_and_leaves_its_input_alone() -> None:
    """The shuffle is a permutation of its input, as a new list."""
    items = list(range(52))
    result = DealRandom("perm").shuffled(items)
    assert items == list(range(52))
    assert sorted(result) == items
    assert result is not items


# Seeds.


def test_an_integer_seed_stands_for_its_decimal_string() -> None:
    """Seed 42 deals exactly what seed "42" deals, and is recorded as "42"."""
    assert normalise_seed(42) == "42"
    assert Deal.from_seed(42) == Deal.from_seed("42")
    assert Deal.from_seed(42).seed == "42"
    assert Deal.from_seed(-7) == Deal.from_seed("-7")


def test_different_seeds_give_different_deals() -> None:
    """Seeds "1", "01" and " 1" are different seeds (no trimming or number parsing of strings)."""
    deals = [deck_codes(Deal.from_seed(seed)) for seed in ("1", "01", " 1", "1 ")]
    assert len({tuple(deal) for deal in deals}) == 4


@pytest.mark.parametrize(
    "seed",
    ["", "x" * 129, "a\nb", "\x00", "tab\there", "del\x7f", "\x85", True, False, 4.0, None, b"42"],
    ids=repr,
)
def test_bad_seeds_are_refused_as_malformed(seed: object) -> None:
    """Empty, over 128 characters, control characters, bools, floats and bytes are not seeds."""
    with pytest.raises(MalformedError):
        normalise_seed(seed)  # type: ignore[arg-type]
    with pytest.raises(MalformedError):
        Deal.from_seed(seed)  # type: ignore[arg-type]


@pytest.mark.parametrize("seed", ["x" * 128, "\u00f1" * 128, " spaced ", "-1", 0, -5, 10**30])
def test_good_seeds_are_accepted(seed: int | str) -> None:
    """Any text of 1-128 characters without control characters, or any whole number, deals."""
    assert len(deck_codes(Deal.from_seed(seed))) == 52


# The shape of a deal.


@pytest.mark.parametrize("seed", ["1", "0", "2026"])
def test_a_deal_puts_28_on_the_peaks_one_on_the_waste_and_23_in_the_stock(seed: str) -> None:
    """Every card is dealt exactly once: 28 + 1 + 23."""
    deal = Deal.from_seed(seed)
    assert len(deal.tableau) == TABLEAU_CARDS
    assert len(deal.stock) == STOCK_CARDS
    assert sorted(deck_codes(deal)) == sorted(ALL_CODES)


def test_from_cards_lays_the_deck_out_in_deal_order() -> None:
    """The first 28 cards go to positions 0-27, the next to the waste, the rest to the stock."""
    cards = tuple(Card.parse(code) for code in reversed(ALL_CODES))
    deal = Deal.from_cards("any", cards)
    assert deal.tableau == cards[:28]
    assert deal.waste == cards[28]
    assert deal.stock == cards[29:]


@pytest.mark.parametrize(
    "cards",
    [FULL_DECK[:51], (*FULL_DECK[:51], FULL_DECK[0]), (*FULL_DECK, FULL_DECK[0])],
    ids=["51 cards", "a card twice", "53 cards"],
)
def test_a_deal_must_hold_each_card_exactly_once(cards: tuple[Card, ...]) -> None:
    """Short, long or repeated decks are refused as malformed."""
    with pytest.raises(MalformedError):
        Deal.from_cards("any", cards)


# Uniformity.


def test_every_card_is_equally_likely_at_every_position() -> None:
    """Chi-square over 10,400 seeds: per position (51 df, Bonferroni alpha = 1e-6 in all) and
    over the whole table (51² df, alpha = 1e-6). A correct generator fails with probability below
    2e-6; the seeds are fixed, so the outcome is the same on every run."""
    counts = position_card_counts(
        [card.index for card in (*deal.tableau, deal.waste, *deal.stock)]
        for deal in (Deal.from_seed(f"uniform-{k}") for k in range(UNIFORMITY_DEALS))
    )
    expected = UNIFORMITY_DEALS / 52
    per_position_limit = chi_square_critical(51, ALPHA_PER_POSITION)
    worst = max(range(52), key=lambda p: pearson(counts[p], expected))
    assert pearson(counts[worst], expected) < per_position_limit, f"position {worst}"
    assert whole_table_statistic(counts, UNIFORMITY_DEALS) < chi_square_critical(
        51 * 51, ALPHA_WHOLE_TABLE
    )


def test_the_uniformity_statistic_catches_a_shuffle_that_never_leaves_a_card_in_place() -> None:
    """Control: Sattolo's shuffle (swap with below(i), a classic off-by-one) fails the whole-table
    test even with a quarter of the deals, so the test above has teeth."""

    def sattolo(seed: str) -> list[int]:
        deck, stream = list(range(52)), DealRandom(seed)
        for i in range(51, 0, -1):
            j = stream.below(i)
            deck[i], deck[j] = deck[j], deck[i]
        return deck

    deals = UNIFORMITY_DEALS // 4
    counts = position_card_counts(sattolo(f"control-{k}") for k in range(deals))
    assert whole_table_statistic(counts, deals) > chi_square_critical(51 * 51, ALPHA_WHOLE_TABLE)


@pytest.mark.parametrize("n", [7, 52])
def test_below_is_uniform_for_a_small_bound_that_is_not_a_power_of_two(n: int) -> None:
    """200 draws per value; chi-square with n - 1 df at alpha = 1e-6."""
    stream = DealRandom(f"below-{n}")
    counts = [0] * n
    for _ in range(200 * n):
        counts[stream.below(n)] += 1
    assert pearson(counts, 200) < chi_square_critical(n - 1, 1e-6)


def test_below_is_uniform_for_a_huge_bound_where_plain_modulo_would_be_biased() -> None:
    """For n = 3·2⁶², w mod n without rejection would land in the lowest third half the time.

    3,000 draws, bucketed by thirds of n; chi-square with 2 df, whose exact critical value at
    alpha = 1e-6 is -2 ln alpha ≈ 27.6. Plain modulo would score about 375."""
    n = 3 * 2**62
    stream = DealRandom("below-huge")
    counts = [0, 0, 0]
    for _ in range(3000):
        value = stream.below(n)
        assert 0 <= value < n
        counts[value >> 62] += 1
    assert pearson(counts, 1000) < -2 * math.log(1e-6)
