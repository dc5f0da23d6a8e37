"""Compute, in the foreground, the post-game analysis of every finished game that has none yet.

The web processes do this by themselves (``game.postgame``); this command is for games older than
their look-back, or given up after failing. It claims each game as they do, so it never analyses
a game that a web process is analysing at the same time.
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser
from django.utils import timezone

from game.models import AnalysisClaim
from game.postgame import MAX_FAILURES, analyse_here, claimable_games


class Command(BaseCommand):
    help = "Analyse finished games that have no analysis yet, the newest first."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--limit", type=int, default=None, help="analyse at most this many")
        parser.add_argument(
            "--retry-failed",
            action="store_true",
            help=f"also retry the games given up after {MAX_FAILURES} failed analyses",
        )

    def handle(
        self, *args: Any, limit: int | None = None, retry_failed: bool = False, **options: Any
    ) -> None:
        if retry_failed:
            AnalysisClaim.objects.filter(failures__gte=MAX_FAILURES).delete()
        pending = list(claimable_games(timezone.now()).values_list("id", flat=True)[:limit])
        analysed = failed = 0
        for game_id in pending:
            try:
                report = analyse_here(game_id)
            except Exception as error:
                failed += 1
                self.stderr.write(f"{game_id}: failed ({type(error).__name__}: {error})")
                continue
            if report is None:
                self.stdout.write(f"{game_id}: being analysed by another process")
                continue
            analysed += 1
            self.stdout.write(f"{game_id}: par {report['par']}, score {report['score']}")
        self.stdout.write(self.style.SUCCESS(f"Analysed {analysed} game(s)."))
        if failed:
            self.stdout.write(self.style.WARNING(f"{failed} analysis(es) failed."))
