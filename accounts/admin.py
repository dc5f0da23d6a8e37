from django.contrib import admin

from accounts.models import PlayerSettings


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
