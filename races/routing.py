"""Websocket URLs of the races app."""

from django.urls import URLPattern

websocket_urlpatterns: list[URLPattern] = []
