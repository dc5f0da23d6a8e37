from django.urls import path

import leaderboard.converters  # noqa: F401  (registers the isodate converter)
from leaderboard import views

app_name = "leaderboard"

urlpatterns = [
    path("daily/", views.daily_today, name="daily"),
    path("daily/start", views.daily_start, name="daily_start"),
    path("daily/results/<uuid:game_id>.png", views.daily_card, name="daily_card"),
    path("daily/archive/", views.daily_archive, name="daily_archive"),
    path("daily/<isodate:day>/", views.daily_day, name="daily_day"),
    path("daily/<isodate:day>/play", views.daily_play, name="daily_play"),
    path("leaderboards/", views.leaderboards, name="leaderboards"),
    path("leaderboards/games/<str:username>.jsonl", views.row_games, name="row_games"),
    path("leaderboards/<str:kind>/", views.board, name="board"),
]
