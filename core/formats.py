"""How the site writes and reads small values the same way everywhere: times and page numbers."""

from datetime import datetime
from typing import Final

PAGE_MAX: Final = 10_000
"""The highest page number a list is asked for (500,000 rows of 50: past the end of any list)."""


def iso(moment: datetime | None) -> str | None:
    """An aware datetime as ISO 8601 in UTC with a Z, as the protocol writes times."""
    if moment is None:
        return None
    return moment.isoformat().replace("+00:00", "Z")


def game_time(milliseconds: int) -> str:
    """A game's length as the clock on its page shows it: whole seconds elapsed (rounded down),
    as minutes and seconds, or hours too: 13_999 → "0:13", 185_000 → "3:05".

    The page's clock, its game-over panel and its boards (``formatDuration`` in
    ``static/js/clock.js``) write times by the same rule, so that one game shows one time
    everywhere; tests/core/test_formats.py holds the two to it.

    >>> game_time(13_999), game_time(185_000), game_time(3_723_400), game_time(999)
    ('0:13', '3:05', '1:02:03', '0:00')
    """
    minutes, seconds = divmod(max(0, milliseconds) // 1000, 60)
    hours, minutes = divmod(minutes, 60)
    return f"{hours}:{minutes:02}:{seconds:02}" if hours else f"{minutes}:{seconds:02}"


def page_number(raw: str | None) -> int:
    """A page number from a query string: a whole number from 1 to PAGE_MAX. A number past
    PAGE_MAX is PAGE_MAX (an empty page past the end, as any page past a list's end is);
    anything else is page 1. Every paged list of the site reads its ``?page=`` with this, so
    that no offset it computes overflows a database's integers.

    >>> page_number("3"), page_number("-2"), page_number("x"), page_number(None)
    (3, 1, 1, 1)
    >>> page_number(str(2**63)) == PAGE_MAX, page_number("9" * 5000)
    (True, 1)
    """
    try:
        number = int(raw or "1")
    except ValueError:  # not a number, or too many digits to read as one
        return 1
    return min(max(number, 1), PAGE_MAX)
