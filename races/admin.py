"""Race rooms in Django's admin, for staff: read-only, since rooms, rounds and results change
only through the races' own services (and ratings only by finishing races)."""

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html

from core.admin import ReadOnly
from game.admin import ReadOnlyAdmin
from races.models import Entry, PlayerRating, Racer, Room, Round


class RacerInline(ReadOnly, admin.TabularInline):
    """Who sits in the room (and who left it)."""

    model = Racer
    fields = ("user", "seat", "joined_at", "left_at", "sockets")
    readonly_fields = fields
    extra = 0


@admin.register(Room)
class RoomAdmin(ReadOnlyAdmin):
    list_display = ("code", "host", "state", "public", "variant", "round_number", "created_at")
    list_filter = ("state", "public", "variant", "created_at")
    list_select_related = ("host",)
    search_fields = ("=code", "host__username", "racers__user__username")
    date_hierarchy = "created_at"
    ordering = ("-created_at",)
    inlines = (RacerInline,)


class EntryInline(ReadOnly, admin.TabularInline):
    """Each racer's game in a round, with its place, and a link to step through it."""

    model = Entry
    fields = ("user", "rank", "left_at", "timed_out", "rating_before", "rating_after", "viewer")
    readonly_fields = fields
    extra = 0

    @admin.display(description="game")
    def viewer(self, entry: Entry) -> str:
        url = reverse("moderation:game", kwargs={"game_id": entry.game_id})
        return format_html('<a href="{}">Step through it</a>', url)


@admin.register(Round)
class RoundAdmin(ReadOnlyAdmin):
    list_display = ("room", "number", "starts_at", "ends_at", "finished_at")
    list_select_related = ("room",)
    search_fields = ("=room__code",)
    ordering = ("-starts_at",)
    exclude = ("seed",)  # the deal is for the staff replay viewer, game by game
    inlines = (EntryInline,)


@admin.register(PlayerRating)
class PlayerRatingAdmin(ReadOnlyAdmin):
    list_display = ("user", "rating", "deviation", "volatility", "races", "updated")
    list_select_related = ("user",)
    search_fields = ("user__username",)
    ordering = ("-rating",)
