"""Check every board against the games alone: replay every game behind a board row and every
daily attempt, recompute the score tables from them, and report any difference.

Exit status 1 when there is one. Reads only; nothing is put right (a moderator's rebuild, or the
move path, keeps the tables).
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandError

from leaderboard.verification import boards_check


class Command(BaseCommand):
    help = (
        "Replay every game behind the boards and every daily attempt, recompute the score tables"
        " from the games alone, and report any difference (exit status 1)."
    )

    def handle(self, *args: Any, **options: Any) -> None:
        report = boards_check()
        for line in report.differences:
            self.stdout.write(f"DIFFERENT {line}")
        summary = (
            f"{report.games} games replayed, {report.rows} score-table rows and"
            f" {report.attempts} daily attempts checked"
        )
        if not report.ok:
            count = len(report.differences)
            raise CommandError(f"{summary}: {count} difference{'' if count == 1 else 's'}")
        self.stdout.write(f"OK {summary}: the boards are what the games give")
