from django.apps import AppConfig


class AccountsConfig(AppConfig):
    """Players' accounts, profiles and personal statistics."""

    name = "accounts"
    default_auto_field = "django.db.models.BigAutoField"
