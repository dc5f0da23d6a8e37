"""The end of a day for its ranked attempts: those still in play are closed as they stood at
midnight (UTC), given up with the points they had then (``docs/boards.md``).

Kept apart from :mod:`leaderboard.services`, which the move path imports: closing a game pushes
its new state to its player's board, which reads live games.
"""

import uuid
from datetime import datetime

from django.db import transaction
from django.utils import timezone

from game.ending import games_abandon
from leaderboard.models import DailyAttempt
from leaderboard.selectors import utc_today
from leaderboard.services import scores_record


@transaction.atomic
def daily_attempts_close(*, now: datetime | None = None) -> list[uuid.UUID]:
    """Close every ranked attempt whose day is over and that has no result yet; return the
    games it gave up.

    A game still in play is given up at midnight, or, if its player went on after midnight, now
    (its log shows what came after; those moves count nowhere). Every such attempt, and any that
    ended after midnight, takes its place on the day's board as it stood at midnight. Idempotent,
    and cheap when there is nothing to close (the open attempts have an index of their own):
    ``manage.py daily_prepare`` runs it, and so does reading a day's board.
    """
    now = now or timezone.now()
    attempts = DailyAttempt.objects.filter(
        score__isnull=True, daily__date__lt=utc_today(now), game__hidden=False
    ).select_related("daily", "game")
    due = list(attempts)
    if not due:
        return []
    ends = {
        attempt.game_id: _closed_at(attempt, now) for attempt in due if not attempt.game.is_over
    }
    closed = games_abandon(ends)
    # Those games are entered by games_abandon; the ones that ended after midnight, here.
    scores_record([attempt.game_id for attempt in due if attempt.game_id not in ends])
    return closed


def _closed_at(attempt: DailyAttempt, now: datetime) -> datetime:
    ends_at = attempt.daily.ends_at
    last_move_at = attempt.game.last_move_at
    return ends_at if last_move_at is None or last_move_at < ends_at else now
