"""The daily challenge and the score tables behind the leaderboards.

The score tables are derived from finished games, like a game's own score is derived from its log:
:func:`leaderboard.scores.scores_record` keeps them, in the transaction that ends each game, so
that every board is one index range and a player's rank one index count.
"""

from datetime import UTC, date, datetime, time, timedelta
from typing import Final

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from core.groups import daily_group
from game.engine.deal import SEED_MAX_LENGTH
from game.models import DealSource, Game, Variant

ALL_TIME: Final = "all"
"""The period of the all-time rows; a week's rows are named by its Monday, e.g. ``2026-11-30``."""
WIN_RATE_MIN_GAMES: Final = 10
"""Games a player needs in a period before their win rate is ranked."""


class Deals(models.TextChoices):
    """The deal pools that the all-time and weekly boards keep apart: a game counts on the boards
    of its variant and of the pool its fresh deal came from.

    Every deal from the "winnable" pool can be won, so wins, rates and streaks built on it say
    something else than on random deals, a tenth of which cannot be won.
    """

    RANDOM = DealSource.RANDOM.value, _("Random deals")
    WINNABLE = DealSource.WINNABLE.value, _("Winnable deals only")


def day_end(day: date) -> datetime:
    """Midnight UTC after ``day``: when its challenge ends and its seed is published."""
    return datetime.combine(day + timedelta(days=1), time.min, tzinfo=UTC)


class Daily(models.Model):
    """One UTC day's challenge: the same winnable deal for everyone.

    The seed stays secret until the day is over; meanwhile the page publishes ``commitment``, the
    SHA-256 of the seed, so that anyone can check afterwards that the deal was not changed.
    """

    date = models.DateField(unique=True)
    variant = models.CharField(max_length=32, choices=Variant, default=Variant.TRIPEAKS)
    seed = models.CharField(max_length=SEED_MAX_LENGTH)
    commitment = models.CharField(max_length=64, help_text="SHA-256 of the seed's UTF-8, in hex")
    par = models.PositiveIntegerField(null=True, blank=True)
    created_at = models.DateTimeField()

    class Meta:
        ordering = ["-date"]
        verbose_name_plural = "dailies"

    def __str__(self) -> str:
        return f"Daily challenge of {self.date.isoformat()}"

    def get_absolute_url(self) -> str:
        return reverse("leaderboard:daily_day", kwargs={"day": self.date})

    @property
    def group_name(self) -> str:
        return daily_group(self.date.isoformat())

    @property
    def ends_at(self) -> datetime:
        """Midnight UTC after the day: when the next challenge starts and the seed is published."""
        return day_end(self.date)


class DailyAttempt(models.Model):
    """A player's one ranked attempt at a day's challenge; starting it counts.

    The result is copied from the game when it ends within the day, so that the day's board is one
    index range. An attempt still in play when the day ends is closed as it stood at midnight
    (``leaderboard.challenge.daily_attempts_close``): given up, with the points it had then.
    """

    daily = models.ForeignKey(Daily, on_delete=models.CASCADE, related_name="attempts")
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="daily_attempts"
    )
    game = models.OneToOneField(Game, on_delete=models.CASCADE, related_name="daily_attempt")
    created_at = models.DateTimeField()
    score = models.PositiveIntegerField(null=True, blank=True)
    duration_ms = models.PositiveBigIntegerField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["daily", "user"], name="daily_attempt_one_per_player"),
            models.CheckConstraint(
                condition=Q(score__isnull=True, duration_ms__isnull=True, finished_at__isnull=True)
                | Q(score__isnull=False, duration_ms__isnull=False, finished_at__isnull=False),
                name="daily_attempt_result_whole",
            ),
        ]
        indexes = [
            models.Index(
                fields=["daily", "-score", "duration_ms", "finished_at", "user", "game"],
                condition=Q(score__isnull=False),
                name="daily_attempt_board",
            ),
            # The attempts still without a result: few, whatever the number of days.
            models.Index(
                fields=["daily"], condition=Q(score__isnull=True), name="daily_attempt_open"
            ),
        ]

    def __str__(self) -> str:
        return f"Attempt of user {self.user_id} at {self.daily_id}"


BOARD_KEY: Final = ("variant", "deals", "period", "clean_only")
"""What names one all-time or weekly board in the score tables, and leads each board's index."""


def _board_checks(table: str) -> list[models.CheckConstraint]:
    return [
        models.CheckConstraint(
            condition=Q(variant__in=Variant.values), name=f"{table}_variant_valid"
        ),
        models.CheckConstraint(condition=Q(deals__in=Deals.values), name=f"{table}_deals_valid"),
    ]


class PlayerBest(models.Model):
    """A player's best single game in a period (all time, or a week), clean games only or all.

    Ties go to the shorter game, then to the one finished first.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="best_scores"
    )
    variant = models.CharField(max_length=32, choices=Variant)
    deals = models.CharField(max_length=16, choices=Deals)
    period = models.CharField(max_length=10)
    clean_only = models.BooleanField(help_text="Counts only games played without a hint")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    score = models.PositiveIntegerField()
    duration_ms = models.PositiveBigIntegerField()
    finished_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["user", "variant", "deals", "period", "clean_only"],
                name="player_best_unique",
            ),
            *_board_checks("player_best"),
        ]
        indexes = [
            models.Index(
                fields=[*BOARD_KEY, "-score", "duration_ms", "finished_at", "user", "game"],
                name="player_best_board",
            ),
        ]

    def __str__(self) -> str:
        view = "clean" if self.clean_only else "all"
        return f"Best of user {self.user_id} ({self.variant}, {self.deals}, {self.period}, {view})"


class PlayerTally(models.Model):
    """A player's games, wins and win streaks in a period, clean games only or all.

    ``win_rate`` is ``won / played``, kept so that its board has an index; the streak's time says
    who reached the longest streak first.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tallies"
    )
    variant = models.CharField(max_length=32, choices=Variant)
    deals = models.CharField(max_length=16, choices=Deals)
    period = models.CharField(max_length=10)
    clean_only = models.BooleanField(help_text="Counts only games played without a hint")
    played = models.PositiveIntegerField()
    won = models.PositiveIntegerField()
    win_rate = models.FloatField()
    current_streak = models.PositiveIntegerField()
    longest_streak = models.PositiveIntegerField()
    longest_streak_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        verbose_name_plural = "player tallies"
        constraints = [
            models.UniqueConstraint(
                fields=["user", "variant", "deals", "period", "clean_only"],
                name="player_tally_unique",
            ),
            *_board_checks("player_tally"),
        ]
        # Each board's order, then the columns its page shows, so that a page (and the rows an
        # offset skips) is read from the index alone.
        indexes = [
            models.Index(
                fields=[*BOARD_KEY, "-won", "played", "user"],
                condition=Q(won__gt=0),
                name="player_tally_wins",
            ),
            models.Index(
                fields=[*BOARD_KEY, "-win_rate", "-played", "user", "won"],
                condition=Q(played__gte=WIN_RATE_MIN_GAMES),
                name="player_tally_rate",
            ),
            models.Index(
                fields=[*BOARD_KEY, "-longest_streak", "longest_streak_at", "user"],
                condition=Q(longest_streak__gt=0),
                name="player_tally_streak",
            ),
        ]

    def __str__(self) -> str:
        view = "clean" if self.clean_only else "all"
        return f"Tally of user {self.user_id} ({self.variant}, {self.deals}, {self.period}, {view})"
