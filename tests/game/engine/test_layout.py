"""The three peaks: positions 0-27 and which cards overlap which, against rules-spec.md."""

from __future__ import annotations

import itertools

import pytest

from game.engine import COVERED_BY, PEAK_TOPS, POSITIONS
from game.engine.layout import BOTTOM_ROW, COVERS, ROWS
from tests.game.engine.conftest import SPEC_BOTTOM_ROW, SPEC_OVERLAPS, SPEC_PEAK_TOPS


def spec_formula_overlaps() -> dict[int, tuple[int, ...]]:
    """The overlap table from the contract's formulas (a second transcription of the table)."""
    table: dict[int, tuple[int, ...]] = {}
    for i in range(3):
        table[i] = (3 + 2 * i, 4 + 2 * i)
    for j in range(6):
        p, k = j // 2, j % 2
        table[3 + j] = (9 + 3 * p + k, 10 + 3 * p + k)
    for m in range(9):
        table[9 + m] = (18 + m, 19 + m)
    for bottom in range(18, 28):
        table[bottom] = ()
    return table


def under(top: int) -> set[int]:
    """Every position beneath ``top`` (itself included), by following the overlaps down."""
    found = {top}
    for position in SPEC_OVERLAPS[top]:
        found |= under(position)
    return found


def test_the_table_written_out_matches_the_contracts_formulas() -> None:
    """The position-by-position table used by these tests agrees with the contract's formulas."""
    assert spec_formula_overlaps() == SPEC_OVERLAPS


def test_there_are_28_positions_in_rows_of_3_6_9_and_10() -> None:
    """Positions run 0-27, row by row from the top; the peak tops are 0, 1 and 2."""
    assert list(POSITIONS) == list(range(28))
    assert [len(row) for row in ROWS] == [3, 6, 9, 10]
    assert [p for row in ROWS for p in row] == list(range(28))
    assert tuple(PEAK_TOPS) == SPEC_PEAK_TOPS
    assert tuple(BOTTOM_ROW) == SPEC_BOTTOM_ROW


@pytest.mark.parametrize("position", range(28))
def test_each_position_is_overlapped_by_the_cards_the_contract_lists(position: int) -> None:
    """COVERED_BY agrees with the contract's overlap table, position by position."""
    assert sorted(COVERED_BY[position]) == sorted(SPEC_OVERLAPS[position])


def test_every_card_above_the_bottom_row_is_overlapped_by_two_cards_of_the_next_row() -> None:
    """Two overlapping cards each, always from the row directly below; none on the bottom row."""
    for upper, lower in itertools.pairwise(ROWS):
        for position in upper:
            assert len(COVERED_BY[position]) == 2
            assert all(cover in lower for cover in COVERED_BY[position])
    assert all(COVERED_BY[p] == () for p in BOTTOM_ROW)


def test_position_21_overlaps_both_11_and_12() -> None:
    """The bottom row is shared: 21 sits under peak 0's 11 and peak 1's 12."""
    assert 21 in COVERED_BY[11]
    assert 21 in COVERED_BY[12]
    assert sorted(COVERS[21]) == [11, 12]


def test_position_24_overlaps_both_14_and_15() -> None:
    """The bottom row is shared: 24 sits under peak 1's 14 and peak 2's 15."""
    assert 24 in COVERED_BY[14]
    assert 24 in COVERED_BY[15]
    assert sorted(COVERS[24]) == [14, 15]


def test_covers_is_the_reverse_of_covered_by() -> None:
    """A overlaps B exactly when B is overlapped by A."""
    for a in POSITIONS:
        for b in POSITIONS:
            assert (b in COVERS[a]) == (a in COVERED_BY[b])


def test_neighbouring_peaks_share_exactly_one_bottom_card() -> None:
    """Each peak is a triangle of 10 cards; peaks 0 and 1 share 21, peaks 1 and 2 share 24, and
    peaks 0 and 2 share nothing."""
    peaks = [under(top) for top in SPEC_PEAK_TOPS]
    assert [len(peak) for peak in peaks] == [10, 10, 10]
    assert peaks[0] & peaks[1] == {21}
    assert peaks[1] & peaks[2] == {24}
    assert peaks[0] & peaks[2] == set()
    assert peaks[0] | peaks[1] | peaks[2] == set(range(28))
