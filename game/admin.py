"""Games in Django's admin, for staff: read-only, since every field is the deal or derived from the
log. Moderators act on them (hide, restore, re-verify) through actions that ask for a reason."""

import uuid
from typing import Any

from django.contrib import admin
from django.db.models import Count, Q, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from game.models import DealPar, Game, GameAnalysis, Move
from moderation.admin_actions import ModerateAdminMixin, reason_action
from moderation.models import FlagKind, FlagStatus
from moderation.services import game_hide, game_restore, game_verify
from tripeaks_site.admin import ReadOnly


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin):
    """Staff may look, never edit: these rows are derived or append-only."""


class MoveInline(ReadOnly, admin.TabularInline):
    """The game's move log, read-only."""

    model = Move
    fields = ("seq", "move", "played_at")
    readonly_fields = fields
    extra = 0
    ordering = ("seq",)


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


@admin.register(Game)
class GameAdmin(ModerateAdminMixin, ReadOnlyAdmin):
    list_display = (
        "short_id",
        "owner",
        "mode",
        "variant",
        "status",
        "score",
        "cards_left",
        "move_count",
        "hidden",
        "assisted",
        "open_flags",
        "started_at",
        "finished_at",
        "viewer",
    )
    list_filter = ("status", "mode", "variant", "hidden", "assisted", FlaggedFilter, "started_at")
    list_select_related = ("owner",)
    search_fields = ("owner__username",)
    search_help_text = "A game's id, or its player's username"
    date_hierarchy = "started_at"
    ordering = ("-started_at",)
    fields = (
        "id",
        "owner",
        "guest_key",
        "mode",
        "variant",
        "seed",
        "status",
        "score",
        "cards_left",
        "move_count",
        "assisted",
        "hidden",
        "started_at",
        "last_move_at",
        "finished_at",
        "duration_ms",
        "reveal_after",
        "viewer",
    )
    readonly_fields = fields
    inlines = (MoveInline,)
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

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet[Game], search_term: str
    ) -> tuple[QuerySet[Game], bool]:
        """A whole game id finds that game; anything else searches players' usernames."""
        try:
            game_id = uuid.UUID(search_term.strip())
        except ValueError:
            return super().get_search_results(request, queryset, search_term)
        return queryset.filter(id=game_id), False

    @admin.display(description="id", ordering="id")
    def short_id(self, game: Game) -> str:
        return str(game.id)[:8]

    @admin.display(description="open flags", ordering="open_flag_count")
    def open_flags(self, game: Game) -> int:
        return getattr(game, "open_flag_count", 0)

    @admin.display(description="staff replay")
    def viewer(self, game: Game) -> str:
        url = reverse("moderation:game", kwargs={"game_id": game.id})
        return format_html('<a href="{}">Step through it, every card shown</a>', url)


@admin.register(DealPar)
class DealParAdmin(ReadOnlyAdmin):
    list_display = ("seed", "variant", "winnable", "par", "par_exact", "computed_at")
    list_filter = ("variant", "winnable", "par_exact")
    search_fields = ("=seed",)


@admin.register(GameAnalysis)
class GameAnalysisAdmin(ReadOnlyAdmin):
    list_display = ("game", "par", "computed_at")
    list_select_related = ("game",)
    search_fields = ("game__owner__username",)
