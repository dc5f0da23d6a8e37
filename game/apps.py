from django.apps import AppConfig


class GameConfig(AppConfig):
    """The game: the rules engine, games in play, and the pages that show them."""

    name = "game"
    default_auto_field = "django.db.models.BigAutoField"
