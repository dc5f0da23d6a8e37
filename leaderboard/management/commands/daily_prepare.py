"""Close the days that are over and make today's and the coming days' challenges ahead of time,
with their par: :func:`leaderboard.challenge.days_prepare`, in the foreground.

Every web process runs the same by itself, at start and then hourly (``core.scheduled``;
``docs/operations.md``), so nobody waits for the solver when a day begins, and every day's page
shows par from the start. Running it again changes nothing.
"""

from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from leaderboard.challenge import DAYS_AHEAD, days_prepare


class Command(BaseCommand):
    help = (
        "Close the ranked attempts of days that are over, create today's and the next days'"
        " daily challenges, and work out their par."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=DAYS_AHEAD, help="days ahead besides today")

    def handle(self, *args: Any, days: int = DAYS_AHEAD, **options: Any) -> None:
        prepared = days_prepare(days)
        closed = len(prepared.closed)
        self.stdout.write(f"closed {closed} ranked attempt{'' if closed == 1 else 's'}")
        for daily in prepared.days:
            # The seed is secret until the day is over: print only the public fingerprint.
            self.stdout.write(f"{daily.date}: par {daily.par}, commitment {daily.commitment}")
