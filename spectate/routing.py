"""Websocket URLs of the spectate app."""

from django.urls import path

from spectate.consumers import WatchConsumer

websocket_urlpatterns = [
    path("ws/watch/<uuid:game_id>/", WatchConsumer.as_asgi()),
]
