from django.apps import AppConfig


class ModerationConfig(AppConfig):
    """Moderation: the staff's queue of flags and reports, their actions, and the log of them."""

    name = "moderation"
    default_auto_field = "django.db.models.BigAutoField"
