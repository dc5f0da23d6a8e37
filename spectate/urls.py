"""Pages of the spectate app."""

from django.urls import path

from spectate import views

app_name = "spectate"

urlpatterns = [
    path("live/", views.live, name="live"),
    path("live.json", views.live_json, name="live_json"),
    path("watch/<uuid:game_id>/", views.watch, name="watch"),
]
