from django.apps import AppConfig


class ModerationConfig(AppConfig):
    """Moderation: the staff's queue of flags and reports, their actions, and the log of them."""

    name = "moderation"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        # Every finished game is looked at once its analysis (and its deal's par) is stored.
        from game import events
        from moderation.services import on_game_analysed

        events.on_game_analysed(on_game_analysed)
