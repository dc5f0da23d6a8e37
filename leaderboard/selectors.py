"""Reads for the daily challenge and what the boards share: days and weeks, the day's seed and
commitment, par, a player's attempt and streak, the share text. The boards themselves are read by
:mod:`leaderboard.boards`."""

import hashlib
from datetime import UTC, date, datetime, timedelta
from typing import Any, Final

from django.http import HttpRequest
from django.utils import timezone

from game.models import DealPar, Game, Mode, Move
from leaderboard.models import (
    Daily,
    DailyAttempt,
)

PAGE_SIZE: Final = 50
SHARE_PLAY: Final = "🟩"
SHARE_DRAW: Final = "⬛"


def utc_today(now: datetime | None = None) -> date:
    """The UTC date: the day whose challenge is being played."""
    return (now or timezone.now()).astimezone(UTC).date()


def week_start(day: date) -> date:
    """The Monday that starts ``day``'s week (weeks run Monday to Sunday, UTC).

    >>> week_start(date(2026, 12, 3)).isoformat()
    '2026-11-30'
    """
    return day - timedelta(days=day.weekday())


def week_period(moment: datetime) -> str:
    """The period name of the week a moment falls in: its Monday, in ISO format."""
    return week_start(moment.astimezone(UTC).date()).isoformat()


def commitment_of(seed: str) -> str:
    """The SHA-256 of a seed's UTF-8, in hex: what a daily's page publishes before the seed.

    >>> commitment_of("abc")[:16]
    'ba7816bf8f01cfea'
    """
    return hashlib.sha256(seed.encode("utf-8")).hexdigest()


def daily_seed_revealed(daily: Daily, now: datetime | None = None) -> bool:
    """Whether the day is over, so that its seed may be published."""
    return (now or timezone.now()) >= daily.ends_at


def daily_par(daily: Daily) -> int | None:
    """Par of the day's deal: computed ahead, or by the first analysis of a game on it."""
    if daily.par is not None:
        return daily.par
    return (
        DealPar.objects.filter(seed=daily.seed, variant=daily.variant)
        .values_list("par", flat=True)
        .first()
    )


# ---- The daily challenge ------------------------------------------------------------------------


def daily_attempt_of(daily: Daily, user_id: int | None) -> DailyAttempt | None:
    """A player's ranked attempt at a day's challenge, with its game."""
    if user_id is None:
        return None
    return DailyAttempt.objects.filter(daily=daily, user_id=user_id).select_related("game").first()


def daily_boards_of(user_id: int) -> set[int]:
    """The days whose board shows (or would show, but for a ban) a result of the player's."""
    attempts = DailyAttempt.objects.filter(user_id=user_id, score__isnull=False)
    return set(attempts.values_list("daily_id", flat=True))


def daily_archive(today: date, number: int = 1, *, size: int = PAGE_SIZE) -> list[Daily]:
    """Past days' challenges, newest first: a page, and the next page's first day if any."""
    offset = (max(1, number) - 1) * size
    days = Daily.objects.filter(date__lt=today).order_by("-date")
    return list(days[offset : offset + size + 1])


def daily_streak(user_id: int, today: date) -> int:
    """Days in a row, up to today or yesterday, on which the player made a ranked attempt."""
    days = (
        DailyAttempt.objects.filter(user_id=user_id, daily__date__lte=today)
        .order_by("-daily__date")
        .values_list("daily__date", flat=True)
    )
    streak = 0
    expected: date | None = None
    for day in days.iterator():
        if expected is None:
            if day < today - timedelta(days=1):
                return 0
            expected = day
        if day != expected:
            break
        streak += 1
        expected = day - timedelta(days=1)
    return streak


def game_page_share(request: HttpRequest, game: Game) -> dict[str, Any]:
    """A finished game's page shows the share text of a ranked daily attempt (registered with
    ``game.pages``)."""
    if not game.is_over:
        return {}
    return {"share_text": daily_share_of(game, base_url=request.build_absolute_uri("/"))}


def daily_share_of(game: Game, *, base_url: str) -> str | None:
    """The share text of a finished ranked daily attempt (None for any other game)."""
    if game.mode != Mode.DAILY or not game.is_over:
        return None
    attempt = DailyAttempt.objects.filter(game_id=game.id).select_related("daily").first()
    if attempt is None:
        return None
    moves = Move.objects.filter(game_id=game.id).order_by("seq").values_list("move", flat=True)
    return share_text(
        day=attempt.daily.date,
        score=game.score,
        par=daily_par(attempt.daily),
        moves=list(moves),
        url=base_url.rstrip("/") + attempt.daily.get_absolute_url(),
    )


def share_text(*, day: date, score: int, par: int | None, moves: list[str], url: str) -> str:
    """A spoiler-free summary of a daily attempt: the score, its share of par, and one square per
    move, green for a card played and black for a draw, so that streaks show as green runs.

    >>> print(share_text(day=date(2026, 11, 30), score=1234, par=1418,
    ...                  moves=["7h", "8c", "draw", "9d"], url="https://example.org/daily/"))
    TriPeaks Online daily 2026-11-30 — 1,234 points (87% of par)
    🟩🟩⬛🟩
    https://example.org/daily/
    """
    points = f"{score:,} point{'' if score == 1 else 's'}"
    share = f" ({share_percent(score, par)}% of par)" if par else ""
    squares = "".join(SHARE_DRAW if move == "draw" else SHARE_PLAY for move in moves)
    return f"TriPeaks Online daily {day.isoformat()} — {points}{share}\n{squares}\n{url}"


def share_percent(score: int, par: int) -> int:
    """The score as a whole percentage of par, never rounded up to 100 short of par.

    >>> share_percent(1234, 1418), share_percent(997, 1000), share_percent(1000, 1000)
    (87, 99, 100)
    """
    percent = round(score * 100 / par)
    return 99 if percent >= 100 and score < par else percent
