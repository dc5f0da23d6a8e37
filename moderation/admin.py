"""The moderation queue, players' reports and the moderation log in Django's admin, and the
moderators' actions on games and players.

Nothing here is edited in place: flags are closed by an action that takes a reason, reports are
players' words, and the log is append-only (no add, change or delete, for anyone). The game and
player admins of the apps below are registered again here with the moderation actions (hide,
restore, re-verify a game; ban, unban a player), the queue's flag counts and links to the staff
pages: the apps below know nothing of moderation.
"""

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.models import User
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from accounts.admin import PlayerAdmin
from core.admin import ReadOnly
from game.admin import GameAdmin
from game.models import Game
from moderation.admin_actions import ModerateAdminMixin, reason_action
from moderation.models import Flag, FlagKind, FlagStatus, LogEntry, Report
from moderation.services import (
    flag_close,
    game_hide,
    game_restore,
    game_verify,
    player_ban,
    player_unban,
)


def _game_link(game_id: object) -> str:
    if game_id is None:
        return "—"
    url = reverse("moderation:game", kwargs={"game_id": game_id})
    return format_html('<a href="{}">{}</a>', url, str(game_id)[:8])


class ReportInline(ReadOnly, admin.TabularInline):
    model = Report
    fields = ("reporter", "reason", "created_at")
    readonly_fields = fields
    extra = 0


@admin.register(Flag)
class FlagAdmin(ModerateAdminMixin, ReadOnly, admin.ModelAdmin):
    list_display = ("kind", "status", "game_page", "player", "reports", "opened_at", "closed_at")
    list_filter = ("status", "kind", "opened_at")
    list_select_related = ("game__owner", "closed_by")
    search_fields = ("game__owner__username",)
    ordering = ("status", "-opened_at")
    fields = ("game_page", "kind", "status", "details", "created_at", "opened_at", "closed_at",
              "closed_by")  # fmt: skip
    readonly_fields = fields
    inlines = (ReportInline,)
    actions = (
        reason_action(
            "resolve_flags",
            "Resolve (something was done)",
            lambda actor, flag, reason: flag_close(
                actor=actor, flag_id=flag.pk, resolved=True, reason=reason
            ),
        ),
        reason_action(
            "dismiss_flags",
            "Dismiss (nothing wrong)",
            lambda actor, flag, reason: flag_close(
                actor=actor, flag_id=flag.pk, resolved=False, reason=reason
            ),
        ),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Flag]:
        return super().get_queryset(request).annotate(report_count=Count("reports"))

    @admin.display(description="game")
    def game_page(self, flag: Flag) -> str:
        return _game_link(flag.game_id)

    @admin.display(description="player", ordering="game__owner__username")
    def player(self, flag: Flag) -> str:
        return flag.game.owner.get_username() if flag.game.owner is not None else "guest"

    @admin.display(description="reports", ordering="report_count")
    def reports(self, flag: Flag) -> int:
        return getattr(flag, "report_count", 0)


@admin.register(Report)
class ReportAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("game_page", "reporter", "reason", "created_at")
    list_select_related = ("reporter",)
    search_fields = ("reporter__username", "game__owner__username", "reason")
    list_filter = ("created_at",)
    fields = ("game_page", "reporter", "flag", "reason", "created_at")
    readonly_fields = fields

    @admin.display(description="game")
    def game_page(self, report: Report) -> str:
        return _game_link(report.game_id)


@admin.register(LogEntry)
class LogEntryAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("created_at", "actor_name", "action", "target", "reason")
    list_filter = ("action", "created_at")
    search_fields = ("actor_name", "target", "reason")
    date_hierarchy = "created_at"
    fields = ("created_at", "actor_name", "actor", "action", "target", "target_user",
              "game_page", "flag", "reason", "details")  # fmt: skip
    readonly_fields = fields

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        return {}  # not even "delete selected"

    @admin.display(description="game")
    def game_page(self, entry: LogEntry) -> str:
        return _game_link(entry.target_game_id)


class FlaggedFilter(admin.SimpleListFilter):
    """Games in the moderation queue: with an open flag, with any flag, or of one kind."""

    title = "flags"
    parameter_name = "flagged"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [
            ("open", "Open flag"),
            ("any", "Any flag"),
            *((kind.value, f"Flag: {kind.label}") for kind in FlagKind),
        ]

    def queryset(self, request: HttpRequest, queryset: QuerySet[Game]) -> QuerySet[Game]:
        value = self.value()
        if value == "open":
            return queryset.filter(flags__status=FlagStatus.OPEN).distinct()
        if value == "any":
            return queryset.filter(flags__isnull=False).distinct()
        if value in FlagKind.values:
            return queryset.filter(flags__kind=value).distinct()
        return queryset


admin.site.unregister(Game)


@admin.register(Game)
class ModeratedGameAdmin(ModerateAdminMixin, GameAdmin):
    """The game admin with the moderators' actions, flags and staff replay."""

    def get_list_display(self, request: HttpRequest) -> Any:
        return (*super().get_list_display(request), "open_flags", "viewer")

    def get_list_filter(self, request: HttpRequest) -> Any:
        return (*super().get_list_filter(request), FlaggedFilter)

    def get_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return (*super().get_fields(request, obj), "viewer")

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        return (*super().get_readonly_fields(request, obj), "viewer")

    actions = (
        reason_action(
            "hide_games",
            "Hide from the boards",
            lambda actor, game, reason: game_hide(actor=actor, game_id=game.pk, reason=reason),
        ),
        reason_action(
            "restore_games",
            "Restore to the boards",
            lambda actor, game, reason: game_restore(actor=actor, game_id=game.pk, reason=reason),
        ),
        reason_action(
            "verify_games",
            "Re-verify the log",
            lambda actor, game, reason: game_verify(actor=actor, game_id=game.pk, reason=reason),
        ),
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[Game]:
        return (
            super()
            .get_queryset(request)
            .annotate(open_flag_count=Count("flags", filter=Q(flags__status=FlagStatus.OPEN)))
        )

    @admin.display(description="open flags", ordering="open_flag_count")
    def open_flags(self, game: Game) -> int:
        return getattr(game, "open_flag_count", 0)

    @admin.display(description="staff replay")
    def viewer(self, game: Game) -> str:
        url = reverse("moderation:game", kwargs={"game_id": game.id})
        return format_html('<a href="{}">Step through it, every card shown</a>', url)


admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class ModeratedPlayerAdmin(ModerateAdminMixin, PlayerAdmin):
    """The player admin with the ban and unban actions and a link to the player's staff page."""

    def get_list_display(self, request: HttpRequest) -> Any:
        return (*super().get_list_display(request), "moderation_page")

    actions = (
        reason_action(
            "ban_players",
            "Ban",
            lambda actor, user, reason: player_ban(actor=actor, user_id=user.pk, reason=reason),
        ),
        reason_action(
            "unban_players",
            "Unban",
            lambda actor, user, reason: player_unban(actor=actor, user_id=user.pk, reason=reason),
        ),
    )

    @admin.display(description="moderation")
    def moderation_page(self, user: User) -> str:
        url = reverse("moderation:player", kwargs={"user_id": user.pk})
        return format_html('<a href="{}">Games, flags, actions</a>', url)
