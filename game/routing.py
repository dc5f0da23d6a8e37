"""Websocket URLs of the game app."""

from django.urls import path

from game.consumers import GameConsumer, PlaySocket

websocket_urlpatterns = [
    path("ws/play/", PlaySocket.as_asgi()),
    path("ws/games/<uuid:game_id>/", GameConsumer.as_asgi()),
]
