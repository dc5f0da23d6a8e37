from django.apps import AppConfig


class ApiConfig(AppConfig):
    """The public API: read-only JSON of the boards, the daily challenges, players' public
    records and finished games, with its OpenAPI schema and a docs page (``docs/api.md``)."""

    name = "api"
    default_auto_field = "django.db.models.BigAutoField"
