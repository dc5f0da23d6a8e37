"""Websocket URLs of the game app: the player's socket (protocol v2; v1's ``/ws/games/<id>/`` is
retired)."""

from django.urls import path

from game.consumers import PlaySocket

websocket_urlpatterns = [
    path("ws/play/", PlaySocket.as_asgi()),
]
