"""The moderators' queue (flags raised on games, and players' reports) and the log of their actions.

A flag only asks a moderator to look: it never hides anything by itself. Every action a moderator
takes is one row of the append-only :class:`LogEntry`, written in the transaction of the action.
"""

from typing import Any, NoReturn

from django.conf import settings
from django.db import models
from django.db.models import Q
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from game.models import Game

REASON_MAX_LENGTH = 1000
REPORT_REASON_MAX_LENGTH = 500


class FlagKind(models.TextChoices):
    """Why a game is in the queue. The labels are in the reader's language; the log's ``target``
    names a kind in English whatever the moderator's (``services.flag_close``)."""

    IMPOSSIBLE = "impossible", _("Impossible result")
    FAST_PLAY = "fast_play", _("Inhumanly fast play")
    PERFECT_RUN = "perfect_run", _("Perfect run on hard deals")
    REPORTED = "reported", _("Reported by players")


class FlagStatus(models.TextChoices):
    OPEN = "open", pgettext_lazy("a flag", "Open")
    RESOLVED = "resolved", pgettext_lazy("a flag", "Resolved")
    DISMISSED = "dismissed", pgettext_lazy("a flag", "Dismissed")


class Flag(models.Model):
    """One item of the moderation queue: a game and one reason to look at it.

    There is at most one flag of a kind per game; new evidence (another report, a failed
    re-verification) opens it again rather than adding a second.
    """

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="flags")
    kind = models.CharField(max_length=16, choices=FlagKind)
    status = models.CharField(max_length=16, choices=FlagStatus, default=FlagStatus.OPEN)
    details = models.JSONField(default=dict, blank=True, help_text="The figures that raised it")
    created_at = models.DateTimeField()
    opened_at = models.DateTimeField(help_text="When it was raised, or last opened again")
    closed_at = models.DateTimeField(null=True, blank=True)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="+",
    )

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "kind"], name="flag_one_per_game_and_kind"),
            models.CheckConstraint(condition=Q(kind__in=FlagKind.values), name="flag_kind_valid"),
            models.CheckConstraint(
                condition=(Q(status=FlagStatus.OPEN) & Q(closed_at__isnull=True))
                | (
                    Q(status__in=[FlagStatus.RESOLVED, FlagStatus.DISMISSED])
                    & Q(closed_at__isnull=False)
                ),
                name="flag_closed_exactly_when_not_open",
            ),
        ]
        indexes = [
            models.Index(fields=["status", "-opened_at"], name="flag_queue"),
        ]

    def __str__(self) -> str:
        return f"{self.get_kind_display()} on game {self.game_id} ({self.status})"

    @property
    def is_open(self) -> bool:
        return self.status == FlagStatus.OPEN


class Report(models.Model):
    """A signed-in player's report of another player's finished game, with their reason."""

    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="reports")
    reporter = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="reports_made"
    )
    flag = models.ForeignKey(Flag, on_delete=models.CASCADE, related_name="reports")
    reason = models.TextField(max_length=REPORT_REASON_MAX_LENGTH)
    created_at = models.DateTimeField()

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["game", "reporter"], name="report_one_per_player"),
        ]
        indexes = [
            models.Index(fields=["reporter", "-created_at"], name="report_recent_by_reporter"),
        ]

    def __str__(self) -> str:
        return f"Report on game {self.game_id} by user {self.reporter_id}"


class Action(models.TextChoices):
    """What a moderator did."""

    HIDE_GAME = "hide_game", _("Hid a game")
    RESTORE_GAME = "restore_game", _("Restored a game")
    BAN = "ban", _("Banned a player")
    UNBAN = "unban", _("Unbanned a player")
    VERIFY = "verify", _("Re-verified a game")
    RESOLVE_FLAG = "resolve_flag", _("Resolved a flag")
    DISMISS_FLAG = "dismiss_flag", _("Dismissed a flag")


class AppendOnly(Exception):
    """The moderation log is never changed or deleted, only added to."""


class LogEntryQuerySet(models.QuerySet["LogEntry"]):
    """Refuses the bulk writes that would rewrite history."""

    def update(self, **kwargs: Any) -> NoReturn:
        raise AppendOnly("The moderation log cannot be changed")

    def delete(self) -> NoReturn:
        raise AppendOnly("The moderation log cannot be deleted")


class LogEntry(models.Model):
    """One moderator action: who did what, to whom, why and when.

    The names are copied beside the links so that an entry still reads whole after the player
    or the game it was about is deleted (the links then turn to null).
    """

    created_at = models.DateTimeField(db_index=True)
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    actor_name = models.CharField(max_length=150)
    action = models.CharField(max_length=16, choices=Action)
    target_user = models.ForeignKey(
        settings.AUTH_USER_MODEL,
        null=True,
        blank=True,
        on_delete=models.SET_NULL,
        related_name="moderation_entries",
    )
    target_game = models.ForeignKey(
        Game, null=True, blank=True, on_delete=models.SET_NULL, related_name="moderation_entries"
    )
    flag = models.ForeignKey(
        Flag, null=True, blank=True, on_delete=models.SET_NULL, related_name="log_entries"
    )
    target = models.CharField(max_length=200, help_text="Whom or what it was done to, in words")
    reason = models.TextField(max_length=REASON_MAX_LENGTH)
    details = models.JSONField(default=dict, blank=True)

    objects = LogEntryQuerySet.as_manager()

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name = "moderation log entry"
        verbose_name_plural = "moderation log"
        permissions = [
            ("moderate", "Can hide games, ban players, re-verify games and work the queue"),
        ]
        constraints = [
            models.CheckConstraint(condition=~Q(reason=""), name="log_entry_has_a_reason"),
            models.CheckConstraint(condition=Q(action__in=Action.values), name="log_action_valid"),
        ]

    def __str__(self) -> str:
        return f"{self.actor_name}: {self.get_action_display()} ({self.target})"

    def save(self, *args: Any, **kwargs: Any) -> None:
        if not self._state.adding:
            raise AppendOnly("The moderation log cannot be changed")
        super().save(*args, **kwargs)

    def delete(self, *args: Any, **kwargs: Any) -> NoReturn:
        raise AppendOnly("The moderation log cannot be deleted")
