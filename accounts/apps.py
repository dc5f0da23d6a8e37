from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Players' accounts, profiles and personal statistics."""

    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from accounts.selectors import game_page_preferences
        from game.pages import on_game_page

        on_game_page(game_page_preferences)
