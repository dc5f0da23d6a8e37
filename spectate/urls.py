"""Pages of the spectate app."""

from django.urls import URLPattern

app_name = "spectate"

urlpatterns: list[URLPattern] = []
