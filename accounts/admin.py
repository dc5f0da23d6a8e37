"""Players in Django's admin: how much they play, and whether they are banned.

``is_active`` is what a ban sets, so it is read-only here: banning and unbanning go through the
moderation actions (added by ``moderation/admin.py``), which take a reason, end sessions, close
sockets and write the log.
"""

from typing import Any

from django.contrib import admin
from django.contrib.auth import get_user_model
from django.contrib.auth.admin import UserAdmin
from django.contrib.auth.models import User
from django.db.models import Count, Max, Q, QuerySet
from django.http import HttpRequest

from accounts.models import PlayerSettings
from game.models import Status


@admin.register(PlayerSettings)
class PlayerSettingsAdmin(admin.ModelAdmin):
    list_display = (
        "user",
        "four_colour_deck",
        "animations",
        "confirm_draw_when_play_fits",
        "allow_watching",
    )
    list_select_related = ("user",)
    search_fields = ("user__username",)
    raw_id_fields = ("user",)


class BannedFilter(admin.SimpleListFilter):
    """Banned players are the deactivated ones."""

    title = "ban"
    parameter_name = "banned"

    def lookups(self, request: HttpRequest, model_admin: Any) -> list[tuple[str, str]]:
        return [("yes", "Banned"), ("no", "Active")]

    def queryset(self, request: HttpRequest, queryset: QuerySet[User]) -> QuerySet[User]:
        if self.value() == "yes":
            return queryset.filter(is_active=False)
        if self.value() == "no":
            return queryset.filter(is_active=True)
        return queryset


admin.site.unregister(get_user_model())


@admin.register(get_user_model())
class PlayerAdmin(UserAdmin):
    list_display = (
        "username",
        "email",
        "games_played",
        "best_score",
        "active",
        "is_staff",
        "date_joined",
        "last_login",
    )
    list_filter = (BannedFilter, "is_staff", "is_superuser", "groups", "date_joined")
    search_fields = ("username", "email")
    ordering = ("-date_joined",)

    def get_queryset(self, request: HttpRequest) -> QuerySet[User]:
        finished = ~Q(games__status=Status.IN_PROGRESS)
        return (
            super()
            .get_queryset(request)
            .annotate(
                finished_games=Count("games", filter=finished),
                best=Max("games__score", filter=finished & Q(games__hidden=False)),
            )
        )

    def get_readonly_fields(self, request: HttpRequest, obj: Any = None) -> Any:
        fields = super().get_readonly_fields(request, obj)
        return (*fields, "is_active") if obj is not None else fields

    @admin.display(description="games played", ordering="finished_games")
    def games_played(self, user: User) -> int:
        return getattr(user, "finished_games", 0)

    @admin.display(description="best score", ordering="best")
    def best_score(self, user: User) -> int | None:
        return getattr(user, "best", None)

    @admin.display(description="active", boolean=True, ordering="is_active")
    def active(self, user: User) -> bool:
        return user.is_active
