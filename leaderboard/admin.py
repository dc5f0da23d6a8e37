"""The daily challenges and the score tables in Django's admin: read-only, since every row is
derived (hiding a game or banning a player is a moderation action, which rebuilds them)."""

from django.contrib import admin
from django.http import HttpRequest

from leaderboard.models import Daily, DailyAttempt, PlayerBest, PlayerTally


@admin.register(Daily)
class DailyAdmin(admin.ModelAdmin):
    list_display = ("date", "par", "commitment", "created_at")
    ordering = ("-date",)
    date_hierarchy = "date"

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Daily | None = None) -> bool:
        return False


@admin.register(DailyAttempt)
class DailyAttemptAdmin(admin.ModelAdmin):
    list_display = ("daily", "user", "score", "duration_ms", "finished_at", "game")
    list_select_related = ("daily", "user", "game")
    list_filter = ("daily__date",)
    search_fields = ("user__username",)
    raw_id_fields = ("game", "user")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: DailyAttempt | None = None) -> bool:
        return False


class ScoreTableAdmin(admin.ModelAdmin):
    """A score table's rows: looked at, never edited (they follow the games)."""

    list_select_related = ("user",)
    list_filter = ("period", "clean_only")
    search_fields = ("user__username",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(PlayerBest)
class PlayerBestAdmin(ScoreTableAdmin):
    list_display = ("user", "period", "clean_only", "score", "duration_ms", "finished_at")
    raw_id_fields = ("user", "game")


@admin.register(PlayerTally)
class PlayerTallyAdmin(ScoreTableAdmin):
    list_display = (
        "user", "period", "clean_only", "played", "won", "win_rate", "longest_streak",
    )  # fmt: skip
    raw_id_fields = ("user",)
