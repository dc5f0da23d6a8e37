"""Reads for the daily challenge and what the boards share: days and weeks, the day's seed and
commitment, par, a player's attempt and streak, the share text. The boards themselves are read by
:mod:`leaderboard.boards`."""

import hashlib
from dataclasses import dataclass
from datetime import UTC, date, datetime, timedelta
from typing import Any, Final

from django.http import HttpRequest
from django.urls import reverse
from django.utils import timezone

from core.previews import Preview
from game.models import DealPar, Game, Mode, Move, Status
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


def daily_attempt_days(
    user_id: int, first: date, last: date
) -> list[tuple[date, int | None, bool]]:
    """The days from ``first`` to ``last`` on which the player made their ranked attempt, oldest
    first: the day, the attempt's score (None while it is in play) and whether it was won."""
    rows = (
        DailyAttempt.objects.filter(user_id=user_id, daily__date__range=(first, last))
        .order_by("daily__date")
        .values_list("daily__date", "score", "game__status")
    )
    return [(day, score, status == Status.WON) for day, score, status in rows]


def home_daily(request: HttpRequest) -> dict[str, Any]:
    """Today's challenge for the home page: the day, how many have made their attempt, and the
    visitor's own attempt (None for a guest or before it). Reads only: a day not made yet is made
    when its page is first opened, not here."""
    today = utc_today()
    daily = Daily.objects.filter(date=today).first()
    user_id = request.user.pk if request.user.is_authenticated else None
    attempts = DailyAttempt.objects.filter(daily=daily).count() if daily is not None else 0
    return {
        "daily_today": {
            "date": today,
            "attempts": attempts,
            "attempt": daily_attempt_of(daily, user_id) if daily is not None else None,
        }
    }


def game_page_share(request: HttpRequest, game: Game) -> dict[str, Any]:
    """A finished ranked daily attempt's page shows its share text, and its link preview is the
    share grid (registered with ``game.pages``)."""
    result = daily_result_of(game)
    if result is None:
        return {}
    return {
        "share_text": result_share_text(result, base_url=request.build_absolute_uri("/")),
        "preview": Preview(
            title=f"TriPeaks Online daily {result.daily.date.isoformat()}",
            description=share_points(result.score, result.par),
            image=reverse("leaderboard:daily_card", kwargs={"game_id": game.id}),
            image_alt="One square a move: green for a card played, black for a draw",
        ),
    }


@dataclass(frozen=True, slots=True)
class DailyResult:
    """What a finished ranked daily attempt may tell anyone before its day is over: the day, the
    score, par, and whether each move played a card or drew (never which card)."""

    daily: Daily
    score: int
    par: int | None
    draws: tuple[bool, ...]


def daily_result_of(game: Game) -> DailyResult | None:
    """A finished ranked daily attempt's result (None for any other game)."""
    if game.mode != Mode.DAILY or not game.is_over:
        return None
    attempt = DailyAttempt.objects.filter(game_id=game.id).select_related("daily").first()
    if attempt is None:
        return None
    moves = Move.objects.filter(game_id=game.id).order_by("seq").values_list("move", flat=True)
    return DailyResult(
        daily=attempt.daily,
        score=game.score,
        par=daily_par(attempt.daily),
        draws=tuple(move == "draw" for move in moves),
    )


def daily_share_of(game: Game, *, base_url: str) -> str | None:
    """The share text of a finished ranked daily attempt (None for any other game)."""
    result = daily_result_of(game)
    return None if result is None else result_share_text(result, base_url=base_url)


def result_share_text(result: DailyResult, *, base_url: str) -> str:
    """The share text of a daily attempt's result, linking to the day's page on ``base_url``."""
    return share_text(
        day=result.daily.date,
        score=result.score,
        par=result.par,
        moves=["draw" if draw else "play" for draw in result.draws],
        url=base_url.rstrip("/") + result.daily.get_absolute_url(),
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
    squares = "".join(SHARE_DRAW if move == "draw" else SHARE_PLAY for move in moves)
    return f"TriPeaks Online daily {day.isoformat()} — {share_points(score, par)}\n{squares}\n{url}"


def share_points(score: int, par: int | None) -> str:
    """The score, and its share of par when par is known.

    >>> share_points(1, None), share_points(1234, 1418)
    ('1 point', '1,234 points (87% of par)')
    """
    points = f"{score:,} point{'' if score == 1 else 's'}"
    return f"{points} ({share_percent(score, par)}% of par)" if par else points


def share_percent(score: int, par: int) -> int:
    """The score as a whole percentage of par, never rounded up to 100 short of par.

    >>> share_percent(1234, 1418), share_percent(997, 1000), share_percent(1000, 1000)
    (87, 99, 100)
    """
    percent = round(score * 100 / par)
    return 99 if percent >= 100 and score < par else percent
