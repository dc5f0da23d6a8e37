from django.apps import AppConfig


class RacesConfig(AppConfig):
    """Live races: rooms where up to eight players race on the same deal, and their ratings."""

    name = "races"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from races import live

        live.register()
