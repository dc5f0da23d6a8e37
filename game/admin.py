"""Games in Django's admin, for staff: read-only, since every field is the deal or derived from the
log. Moderators act on them (hide, restore, re-verify) through actions that ask for a reason, which
the moderation app adds (``moderation/admin.py``)."""

import uuid

from django.contrib import admin
from django.db.models import QuerySet
from django.http import HttpRequest

from core.admin import ReadOnly
from game.models import DealPar, Game, GameAnalysis, Move


class ReadOnlyAdmin(ReadOnly, admin.ModelAdmin):
    """Staff may look, never edit: these rows are derived or append-only."""


class MoveInline(ReadOnly, admin.TabularInline):
    """The game's move log, read-only."""

    model = Move
    fields = ("seq", "move", "played_at")
    readonly_fields = fields
    extra = 0
    ordering = ("seq",)


@admin.register(Game)
class GameAdmin(ReadOnlyAdmin):
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
        "ranked",
        "started_at",
        "finished_at",
    )
    list_filter = ("status", "mode", "variant", "hidden", "assisted", "ranked", "started_at")
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
        "deal_source",
        "ranked",
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
    )
    readonly_fields = fields
    inlines = (MoveInline,)

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
