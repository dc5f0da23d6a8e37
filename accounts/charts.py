"""The profile's graphs as geometry: bar charts and a calendar, drawn as SVG by the templates.

Pure functions from figures to shapes in a fixed coordinate space (the SVG's ``viewBox``): no
database, no Django. Each chart also carries its figures as table rows, so that a screen reader
(and anyone who wants the numbers) reads the same data as a table.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import date, timedelta
from typing import Final

from django.utils.formats import date_format
from django.utils.translation import gettext

WIDTH: Final = 600
HEIGHT: Final = 160
GAP: Final = 0.2
"""The share of each bar's slot left empty between bars."""
CELL: Final = 14
CELL_GAP: Final = 3


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar: its box in the chart's coordinates, a tone (a CSS modifier) and its tooltip."""

    x: float
    y: float
    width: float
    height: float
    tone: str
    title: str


@dataclass(frozen=True, slots=True)
class Chart:
    """A chart ready to draw: its size, its marks, a one-line summary for its accessible name,
    and the table behind it (column headings and rows of text)."""

    slug: str
    title: str
    summary: str
    width: int
    height: int
    bars: tuple[Bar, ...]
    columns: tuple[str, ...]
    rows: tuple[tuple[str, ...], ...]
    top_label: str = ""
    legend: tuple[tuple[str, str], ...] = ()
    """What each tone of mark means, when there are several: (tone, words)."""

    @property
    def empty(self) -> bool:
        return not self.rows


@dataclass(frozen=True, slots=True)
class Value:
    """A figure to draw as a bar: its size (0 to ``top``), a tone, and its words."""

    amount: float
    tone: str
    title: str


def bars(values: Sequence[Value], top: float) -> tuple[Bar, ...]:
    """Bars side by side across the chart, heights in proportion to ``top`` (the chart's top).

    >>> [(round(b.x), round(b.height)) for b in bars([Value(50, "", ""), Value(100, "", "")], 100)]
    [(30, 80), (330, 160)]
    >>> bars([], 10)
    ()
    """
    if not values:
        return ()
    slot = WIDTH / len(values)
    width = slot * (1 - GAP)
    scale = HEIGHT / top if top > 0 else 0.0
    shapes = []
    for index, value in enumerate(values):
        height = max(0.0, min(value.amount, top)) * scale
        shapes.append(
            Bar(
                x=index * slot + (slot - width) / 2,
                y=HEIGHT - height,
                width=width,
                height=height,
                tone=value.tone,
                title=value.title,
            )
        )
    return tuple(shapes)


def calendar_cells(
    days: Sequence[tuple[date, str, str]], last: date, weeks: int
) -> tuple[Bar, ...]:
    """A calendar of ``weeks`` columns (Monday at the top) ending with ``last``'s week: one
    square a day, toned by what happened that day (``days``: date, tone, words; the others are
    blank squares).

    >>> cells = calendar_cells([(date(2026, 12, 1), "won", "1 Dec: won")], date(2026, 12, 1), 2)
    >>> len(cells), [c.tone for c in cells if c.tone != "none"]
    (9, ['won'])
    """
    first = last - timedelta(days=last.weekday() + 7 * (weeks - 1))
    known = {day: (tone, words) for day, tone, words in days}
    cells = []
    day = first
    while day <= last:
        column, row = divmod((day - first).days, 7)
        tone, words = known.get(day, ("none", f"{day_words(day)}: no attempt"))
        cells.append(
            Bar(
                x=column * (CELL + CELL_GAP),
                y=row * (CELL + CELL_GAP),
                width=CELL,
                height=CELL,
                tone=tone,
                title=words,
            )
        )
        day += timedelta(days=1)
    return tuple(cells)


def calendar_size(weeks: int) -> tuple[int, int]:
    """The width and height of a calendar of ``weeks`` columns.

    >>> calendar_size(12)
    (201, 116)
    """
    return weeks * (CELL + CELL_GAP) - CELL_GAP, 7 * (CELL + CELL_GAP) - CELL_GAP


def day_words(day: date) -> str:
    """A date in a few words.

    >>> day_words(date(2026, 12, 1))
    '1 Dec 2026'
    """
    return date_format(day, gettext("j M Y"))


def share(part: float, whole: float) -> str:
    """A fraction in whole percent.

    >>> share(1, 3), share(0, 0)
    ('33%', '–')
    """
    return gettext("%(number)s%%") % {"number": round(100 * part / whole)} if whole else "–"
