from django.apps import AppConfig


class GameConfig(AppConfig):
    """The game: the rules engine, games in play, and the pages that show them."""

    name = "game"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from django.contrib.auth.signals import user_logged_in

        from game.signals import guest_games_claim

        user_logged_in.connect(guest_games_claim, dispatch_uid="game.guest_games_claim")
