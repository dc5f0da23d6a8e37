"""Compute the post-game analysis of every finished game that has none yet."""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from game.models import Game, Status
from game.postgame import analyse_now


class Command(BaseCommand):
    help = "Analyse finished games that have no analysis yet (after a restart, or old games)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--limit", type=int, default=None, help="analyse at most this many")

    def handle(self, *args: Any, limit: int | None = None, **options: Any) -> None:
        pending = (
            Game.objects.exclude(status=Status.IN_PROGRESS)
            .filter(analysis__isnull=True)
            .order_by("finished_at")
        )
        if limit is not None:
            pending = pending[:limit]
        count = 0
        for game in pending.iterator():
            report = analyse_now(game)
            count += 1
            self.stdout.write(f"{game.id}: par {report['par']}, score {report['score']}")
        self.stdout.write(self.style.SUCCESS(f"Analysed {count} game(s)."))
