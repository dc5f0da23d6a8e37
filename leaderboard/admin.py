"""The daily challenges and the score tables in Django's admin: read-only, since every row is
derived (hiding a game or banning a player is a moderation action, which rebuilds them)."""

from django.contrib import admin

from core.admin import ReadOnly
from leaderboard.models import Daily, DailyAttempt, PlayerBest, PlayerTally


@admin.register(Daily)
class DailyAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("date", "par", "commitment", "created_at")
    ordering = ("-date",)
    date_hierarchy = "date"
    exclude = ("seed",)  # days are made ahead: the day's own page publishes it once it is over


@admin.register(DailyAttempt)
class DailyAttemptAdmin(ReadOnly, admin.ModelAdmin):
    list_display = ("daily", "user", "score", "duration_ms", "finished_at", "game")
    list_select_related = ("daily", "user", "game")
    list_filter = ("daily__date",)
    search_fields = ("user__username",)
    raw_id_fields = ("game", "user")


class ScoreTableAdmin(ReadOnly, admin.ModelAdmin):
    """A score table's rows: looked at, never edited (they follow the games)."""

    list_select_related = ("user",)
    list_filter = ("variant", "deals", "period", "clean_only")
    search_fields = ("user__username",)


@admin.register(PlayerBest)
class PlayerBestAdmin(ScoreTableAdmin):
    list_display = (
        "user", "variant", "deals", "period", "clean_only", "score", "duration_ms", "finished_at",
    )  # fmt: skip
    raw_id_fields = ("user", "game")


@admin.register(PlayerTally)
class PlayerTallyAdmin(ScoreTableAdmin):
    list_display = (
        "user", "variant", "deals", "period", "clean_only", "played", "won", "win_rate",
        "longest_streak",
    )  # fmt: skip
    raw_id_fields = ("user",)
