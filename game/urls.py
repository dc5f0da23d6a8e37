from django.urls import path

from game import views

app_name = "game"

urlpatterns = [
    path("", views.home, name="home"),
    path("rules/", views.rules, name="rules"),
    path("tutorial/", views.tutorial, name="tutorial"),
    path("games/new", views.new_game, name="new"),
    path("games/<uuid:game_id>/", views.play, name="play"),
    path("games/<uuid:game_id>/again", views.play_again, name="again"),
    path("games/<uuid:game_id>/export.json", views.export, name="export"),
    path("games/<uuid:game_id>/analysis.json", views.analysis, name="analysis"),
]
