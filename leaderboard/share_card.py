"""The link preview of a daily challenge result: the share grid drawn as a picture (no card, as
in the share text), cached since a finished attempt never changes."""

from __future__ import annotations

from typing import Final

from django.core.cache import cache

from core.pictures import CARD_SIZE, canvas, draw_mark, draw_squares, draw_text, png
from leaderboard.selectors import DailyResult, share_points

PLAY: Final = "#5fd08a"
DRAW: Final = "#111815"
CACHE_SECONDS: Final = 7 * 24 * 3600


def daily_card(result: DailyResult) -> bytes:
    """The result's preview picture, as PNG: the day, the score and one square per move (light
    green for a card played, black for a draw)."""
    image = canvas(CARD_SIZE)
    draw_mark(image, 60, 48, 96)
    draw_text(image, f"TriPeaks Online daily {result.daily.date.isoformat()}", (180, 44), 52)
    draw_text(image, share_points(result.score, result.par), (180, 110), 40)
    width, height = CARD_SIZE
    draw_squares(
        image,
        [DRAW if draw else PLAY for draw in result.draws],
        (60, 200, width - 120, height - 270),
    )
    return png(image)


def daily_card_cached(game_id: str, result: DailyResult) -> bytes:
    """:func:`daily_card`, drawn once per finished attempt."""
    picture = cache.get_or_set(
        f"daily-card:{game_id}:{result.score}:{len(result.draws)}",
        lambda: daily_card(result),
        CACHE_SECONDS,
    )
    assert isinstance(picture, bytes)
    return picture
