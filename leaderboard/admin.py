"""The daily challenges in Django's admin: read-only, since every row is derived."""

from django.contrib import admin
from django.http import HttpRequest

from leaderboard.models import Daily, DailyAttempt


@admin.register(Daily)
class DailyAdmin(admin.ModelAdmin):
    list_display = ("date", "par", "commitment", "created_at")
    ordering = ("-date",)

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: Daily | None = None) -> bool:
        return False


@admin.register(DailyAttempt)
class DailyAttemptAdmin(admin.ModelAdmin):
    list_display = ("daily", "user", "score", "duration_ms", "finished_at")
    list_select_related = ("daily", "user")
    raw_id_fields = ("game", "user")

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: DailyAttempt | None = None) -> bool:
        return False
