from django.apps import AppConfig


class LeaderboardConfig(AppConfig):
    """Daily challenges, score tables and ratings."""

    name = "leaderboard"
    default_auto_field = "django.db.models.BigAutoField"

    def ready(self) -> None:
        from game import events
        from game.pages import on_game_page
        from leaderboard.scores import scores_record
        from leaderboard.selectors import game_page_share

        # The score tables change in the transaction that finishes a game, or not at all.
        events.on_games_finished(scores_record)
        on_game_page(game_page_share)
