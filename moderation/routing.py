"""Websocket URLs of the moderation app."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
