"""Websocket URLs of the races app."""

from django.urls import path

from races.consumers import RoomConsumer

websocket_urlpatterns = [
    path("ws/races/<str:code>/", RoomConsumer.as_asgi()),
]
