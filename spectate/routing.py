"""Websocket URLs of the spectate app."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
