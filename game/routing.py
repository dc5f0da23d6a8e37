"""Websocket URLs of the game app."""

from django.urls import path

from game.consumers import GameConsumer

websocket_urlpatterns = [
    path("ws/games/<uuid:game_id>/", GameConsumer.as_asgi()),
]
