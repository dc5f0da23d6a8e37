"""Pages of the races app."""

from django.urls import URLPattern

app_name = "races"

urlpatterns: list[URLPattern] = []
