"""Games as they are stored: a seeded deal and an append-only log of moves.

Everything else on a game row (status, score, cards left, move count, timestamps) is derived from
the log by the engine and kept beside it only so that pages and leaderboards can query it.
"""

import uuid
from datetime import datetime
from functools import reduce
from operator import or_
from typing import Final

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.urls import reverse
from django.utils.translation import gettext_lazy as _

from core.groups import game_group
from game.engine import Status as EngineStatus
from game.engine import Variant as EngineVariant
from game.engine.deal import SEED_MAX_LENGTH
from game.engine.layout import TABLEAU_SIZE


# The labels are shown on pages, in the reader's language (docs/translations.md); the values are
# what the database, the API and the protocol hold.
class Variant(models.TextChoices):
    TRIPEAKS = EngineVariant.TRIPEAKS.value, _("TriPeaks")
    NOWRAP = EngineVariant.NOWRAP.value, _("TriPeaks without wrap")


class Status(models.TextChoices):
    IN_PROGRESS = EngineStatus.IN_PROGRESS.value, _("In progress")
    WON = EngineStatus.WON.value, _("Won")
    LOST = EngineStatus.LOST.value, _("Lost")
    ABANDONED = EngineStatus.ABANDONED.value, _("Abandoned")


class Mode(models.TextChoices):
    CASUAL = "casual", _("Casual")
    DAILY = "daily", _("Daily challenge")
    RACE = "race", _("Race")
    CHALLENGE = "challenge", _("Friend challenge")


class DealSource(models.TextChoices):
    """Where a game's deal came from, which decides once, when it starts, whether it ranks."""

    RANDOM = "random", "A fresh secret deal"
    WINNABLE = "winnable", "A fresh secret deal the solver proves winnable"
    DAILY = "daily", "The day's secret deal, for the player's ranked attempt"
    RACE = "race", "A race's fresh deal, dealt to every racer at once"
    CHALLENGE = "challenge", "A friend challenge's fresh deal, dealt to each friend in turn"
    REPLAY = "replay", "A deal already seen: played again, shared, or a daily replay"


RANKED_SOURCES: Final = (DealSource.RANDOM, DealSource.WINNABLE, DealSource.DAILY)
"""Deals the player cannot have seen before the game began, so that a game on one ranks: a fresh
deal of their own, or the day's deal during the day (on the day's board only). A race's deal is
dealt to up to eight racers at once, one of whom could scout it for another: races rank on their
own rating, not on the boards. A friend challenge's deal is played by each friend in turn over days,
so it is a known deal to all but the first: challenges rank on their own page only."""
MODE_SOURCES: Final = {
    Mode.CASUAL: (DealSource.RANDOM, DealSource.WINNABLE, DealSource.REPLAY),
    Mode.DAILY: (DealSource.DAILY, DealSource.REPLAY),
    Mode.RACE: (DealSource.RACE,),
    Mode.CHALLENGE: (DealSource.CHALLENGE,),
}
"""The deal sources each mode's games may have."""


def ranks(source: str) -> bool:
    """Whether a game on a deal from ``source`` ranks: decided once, when the game starts.

    >>> ranks(DealSource.RANDOM), ranks(DealSource.REPLAY), ranks(DealSource.RACE)
    (True, False, False)
    """
    return source in RANKED_SOURCES


def duration_ms(started_at: datetime, finished_at: datetime) -> int:
    """How long a game took, in whole milliseconds."""
    return max(0, int((finished_at - started_at).total_seconds() * 1000))


class Game(models.Model):
    """One game of TriPeaks. The seed stays secret until the game is over."""

    id = models.UUIDField(primary_key=True, default=uuid.uuid4, editable=False)
    seed = models.CharField(max_length=SEED_MAX_LENGTH)
    variant = models.CharField(max_length=32, choices=Variant, default=Variant.TRIPEAKS)
    mode = models.CharField(max_length=16, choices=Mode, default=Mode.CASUAL)
    deal_source = models.CharField(max_length=16, choices=DealSource, default=DealSource.REPLAY)
    # Whether the game may count on a board (a daily attempt on its day's, the others on the
    # all-time and weekly boards of their variant and deal pool); see ``ranks``.
    ranked = models.BooleanField(default=False)
    owner = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.CASCADE,
        related_name="games",
    )
    # A guest's games follow a random key kept in their session (it survives signing up). Found
    # through ``game_guest_recent``, whose first column it is: an index of its own would be one
    # more for every move to update.
    guest_key = models.CharField(max_length=64, blank=True)
    status = models.CharField(max_length=16, choices=Status, default=Status.IN_PROGRESS)
    score = models.PositiveIntegerField(default=0)
    cards_left = models.PositiveSmallIntegerField(default=TABLEAU_SIZE)
    move_count = models.PositiveIntegerField(default=0)
    assisted = models.BooleanField(default=False)
    started_at = models.DateTimeField()
    last_move_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    duration_ms = models.PositiveBigIntegerField(null=True, blank=True)
    # The deal of a finished game is revealed only from this moment on (None: as soon as it is
    # over). A daily challenge's games keep their deal hidden until the day is over.
    reveal_after = models.DateTimeField(null=True, blank=True)
    # Set by a moderator: the game stays the player's own but counts on no board.
    hidden = models.BooleanField(default=False)

    class Meta:
        constraints = [
            models.CheckConstraint(
                condition=Q(owner__isnull=False) | ~Q(guest_key=""), name="game_has_an_owner"
            ),
            models.CheckConstraint(
                condition=Q(cards_left__gte=0) & Q(cards_left__lte=TABLEAU_SIZE),
                name="game_cards_left_in_range",
            ),
            models.CheckConstraint(condition=Q(status__in=Status.values), name="game_status_valid"),
            models.CheckConstraint(
                condition=Q(variant__in=Variant.values), name="game_variant_valid"
            ),
            models.CheckConstraint(
                condition=(Q(status=Status.IN_PROGRESS) & Q(finished_at__isnull=True))
                | (~Q(status=Status.IN_PROGRESS) & Q(finished_at__isnull=False)),
                name="game_finished_exactly_when_over",
            ),
            models.CheckConstraint(
                condition=~Q(status=Status.WON) | Q(cards_left=0), name="game_won_means_cleared"
            ),
            models.CheckConstraint(
                condition=reduce(
                    or_,
                    (
                        Q(mode=mode, deal_source__in=sources)
                        for mode, sources in MODE_SOURCES.items()
                    ),
                ),
                name="game_deal_source_fits_mode",
            ),
            models.CheckConstraint(
                condition=Q(ranked=False) | Q(deal_source__in=RANKED_SOURCES),
                name="game_ranked_only_on_a_secret_deal",
            ),
            models.CheckConstraint(
                condition=Q(finished_at__isnull=True, duration_ms__isnull=True)
                | Q(finished_at__isnull=False, duration_ms__isnull=False),
                name="game_duration_exactly_when_finished",
            ),
        ]
        indexes = [
            models.Index(fields=["owner", "-started_at"], name="game_owner_recent"),
            models.Index(fields=["guest_key", "-started_at"], name="game_guest_recent"),
            # The "live now" page: games in progress, the most recently active first.
            models.Index(
                Coalesce("last_move_at", "started_at").desc(),
                name="game_live_recent",
                condition=Q(status=Status.IN_PROGRESS),
            ),
            # The analysis queue (game.postgame): finished games, walked from the newest down to
            # a floor, so that looking for games to analyse never scans every game ever played.
            models.Index(
                fields=["finished_at"],
                name="game_finished",
                condition=Q(finished_at__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.get_variant_display()} game {self.id} ({self.status})"

    def get_absolute_url(self) -> str:
        return reverse("game:play", kwargs={"game_id": self.id})

    @property
    def group_name(self) -> str:
        """The channel-layer group of everyone watching this game."""
        return game_group(self.id)

    @property
    def is_over(self) -> bool:
        return self.status != Status.IN_PROGRESS


class Move(models.Model):
    """One move of a game's log: ``draw`` or a card code. Rows are only ever added."""

    # Found through the unique (game, seq) index, whose first column it is: an index of its own
    # would be one more for every move to insert into.
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="moves", db_index=False)
    seq = models.PositiveIntegerField()
    move = models.CharField(max_length=4)
    played_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "seq"], name="move_seq_unique_per_game"),
        ]
        ordering = ["game", "seq"]

    def __str__(self) -> str:
        return f"{self.seq}: {self.move}"


class DealPar(models.Model):
    """The solver's verdict on a deal: winnability and par, computed once per seed and variant.

    Kept on the server only: for a deal still being played, the seed itself is a secret.
    """

    seed = models.CharField(max_length=SEED_MAX_LENGTH)
    variant = models.CharField(max_length=32, choices=Variant)
    winnable = models.BooleanField(null=True, help_text="None when the search ran out of budget")
    par = models.PositiveIntegerField()
    par_exact = models.BooleanField()
    par_line = models.JSONField(help_text="The moves of a game that scores par")
    computed_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["seed", "variant"], name="deal_par_unique_per_deal"),
        ]

    def __str__(self) -> str:
        return f"par {self.par} ({self.variant})"


class GameAnalysis(models.Model):
    """The post-game analysis of a finished game, computed off the move path."""

    game = models.OneToOneField(
        Game, primary_key=True, on_delete=models.CASCADE, related_name="analysis"
    )
    par = models.PositiveIntegerField()
    report = models.JSONField(help_text="The engine's analysis, as JSON")
    computed_at = models.DateTimeField()

    class Meta:
        verbose_name_plural = "game analyses"

    def __str__(self) -> str:
        return f"analysis of {self.game_id}"


class AnalysisClaim(models.Model):
    """A finished game's place in the analysis queue while it is being analysed, or once it failed.

    The queue itself is every finished game without a GameAnalysis (``game.postgame``); a row here
    exists only while a process holds the game (until ``claimed_until``: a lease, so that a process
    that dies frees it) or after its analysis failed (``failures``: a game that keeps failing is
    given up). The row is deleted with the analysis stored.
    """

    game = models.OneToOneField(
        Game, primary_key=True, on_delete=models.CASCADE, related_name="analysis_claim"
    )
    claimed_until = models.DateTimeField()
    holder = models.UUIDField(
        null=True, blank=True, help_text="The claim that holds the game now (one per claiming call)"
    )
    failures = models.PositiveSmallIntegerField(default=0)

    def __str__(self) -> str:
        return f"claim on {self.game_id} until {self.claimed_until}"
