"""The three peaks: positions 0–27 and which cards overlap which.

Positions run row by row from the top, left to right::

    row 0 (peak tops, face down)      0           1           2
    row 1 (face down)              3     4     5     6     7     8
    row 2 (face down)            9  10  11  12  13  14  15  16  17
    row 3 (face up)            18 19 20 21 22 23 24 25 26 27

>>> COVERED_BY[0], COVERED_BY[3], COVERED_BY[11], COVERED_BY[21]
((3, 4), (9, 10), (20, 21), ())
>>> [p for p in POSITIONS if 21 in COVERED_BY[p]]
[11, 12]
"""

from typing import Final

Position = int
"""A place on the peaks, 0–27."""

TABLEAU_SIZE: Final = 28
POSITIONS: Final = range(TABLEAU_SIZE)
PEAK_TOPS: Final[tuple[Position, ...]] = (0, 1, 2)
ROWS: Final[tuple[range, ...]] = (range(3), range(3, 9), range(9, 18), range(18, 28))
BOTTOM_ROW: Final = ROWS[3]


def _overlapping(position: Position) -> tuple[Position, ...]:
    """The two cards of the row below that overlap ``position`` (none for the bottom row)."""
    if position in ROWS[0]:
        return (3 + 2 * position, 4 + 2 * position)
    if position in ROWS[1]:
        peak, k = divmod(position - 3, 2)
        return (9 + 3 * peak + k, 10 + 3 * peak + k)
    if position in ROWS[2]:
        m = position - 9
        return (18 + m, 19 + m)
    return ()


COVERED_BY: Final[tuple[tuple[Position, ...], ...]] = tuple(_overlapping(p) for p in POSITIONS)
"""For each position, the positions whose cards overlap it."""

COVER_MASKS: Final[tuple[int, ...]] = tuple(sum(1 << q for q in COVERED_BY[p]) for p in POSITIONS)
"""For each position, a bit mask of the positions that overlap it (0 for the bottom row)."""

COVERS: Final[tuple[tuple[Position, ...], ...]] = tuple(
    tuple(p for p in POSITIONS if q in COVERED_BY[p]) for q in POSITIONS
)
"""For each position, the positions it overlaps (the cards it helps to uncover)."""

ALL_PLAYED: Final = (1 << TABLEAU_SIZE) - 1
"""The bit mask of played positions when the peaks are cleared."""
