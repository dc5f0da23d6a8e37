"""Pages of the moderation app: the staff's, under ``moderation/``, and the players' report form."""

from django.urls import path

from moderation import views

app_name = "moderation"

urlpatterns = [
    path("moderation/", views.queue, name="queue"),
    path("moderation/log/", views.log, name="log"),
    path("moderation/games/<uuid:game_id>/", views.game, name="game"),
    path("moderation/players/<int:user_id>/", views.player, name="player"),
    path("moderation/flags/<int:flag_id>/close", views.flag_close, name="flag_close"),
    path("games/<uuid:game_id>/report", views.report, name="report"),
    *(
        path(
            f"moderation/games/<uuid:game_id>/{action}",
            views.game_action,
            {"action": action},
            name=f"game_{action}",
        )
        for action in ("hide", "restore", "verify")
    ),
    *(
        path(
            f"moderation/players/<int:user_id>/{action}",
            views.player_action,
            {"action": action},
            name=f"player_{action}",
        )
        for action in ("ban", "unban")
    ),
]
