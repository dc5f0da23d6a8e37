from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    """Daily challenges, score tables and ratings."""

    name = "leaderboard"
    default_auto_field = "django.db.models.BigAutoField"
