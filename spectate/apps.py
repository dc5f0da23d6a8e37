from django.apps import AppConfig


class SpectateConfig(AppConfig):
    """Watching games in progress: the "live now" page and the spectator's board."""

    name = "spectate"
    default_auto_field = "django.db.models.BigAutoField"
