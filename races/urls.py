"""Pages of the races app."""

from django.urls import path

from races import views

app_name = "races"

urlpatterns = [
    path("races/", views.lobby, name="lobby"),
    path("races/open", views.room_open, name="open"),
    path("races/ratings/", views.ratings, name="ratings"),
    path("races/<str:code>/", views.room, name="room"),
    path("races/<str:code>/join", views.room_join, name="join"),
    path("races/<str:code>/leave", views.room_leave, name="leave"),
    path("races/<str:code>/start", views.race_start, name="start"),
    path("challenges/open", views.challenge_open, name="challenge_open"),
    path("challenges/<str:code>/", views.challenge, name="challenge"),
    path("challenges/<str:code>/play", views.challenge_play, name="challenge_play"),
]
