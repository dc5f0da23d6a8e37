from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    """Daily challenges, score tables and ratings."""

    name = "leaderboard"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from core.scheduled import Job, on_schedule
        from game import events
        from game.pages import on_game_page, on_home_page
        from leaderboard.challenge import days_prepare
        from leaderboard.scores import scores_record
        from leaderboard.selectors import game_page_share, home_daily

        # The score tables change in the transaction that finishes a game, or not at all.
        events.on_games_finished(scores_record)
        on_game_page(game_page_share)
        on_home_page(home_daily)
        on_schedule(Job("daily_prepare", 3600.0, days_prepare))
