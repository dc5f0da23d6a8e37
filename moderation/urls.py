"""Pages of the moderation app."""

from django.urls import URLPattern

app_name = "moderation"

urlpatterns: list[URLPattern] = []
