"""The moderation queue, players' reports and the moderation log in Django's admin.

Nothing here is edited in place: flags are closed by an action that takes a reason, reports are
players' words, and the log is append-only (no add, change or delete, for anyone).
"""

from typing import Any

from django.contrib import admin
from django.db.models import Count, QuerySet
from django.http import HttpRequest
from django.urls import reverse
from django.utils.html import format_html

from moderation.admin_actions import ModerateAdminMixin, reason_action
from moderation.models import Flag, LogEntry, Report
from moderation.services import flag_close
from tripeaks_site.admin import ReadOnly


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
