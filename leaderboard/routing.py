"""Websocket URLs of the leaderboard app."""

from django.urls import path

import leaderboard.converters  # noqa: F401  (registers the isodate converter)
from leaderboard.consumers import DailyBoardConsumer

websocket_urlpatterns = [
    path("ws/daily/<isodate:day>/", DailyBoardConsumer.as_asgi()),
]
