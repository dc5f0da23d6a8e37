"""Close the days that are over and make today's and the coming days' challenges ahead of time,
with their par.

Run it daily, or more often (cron, or the orchestrator's scheduled job): then the ranked attempts
still in play when their day ended are closed as they stood at midnight
(``leaderboard.challenge.daily_attempts_close``), nobody waits for the solver when a day begins, and
every day's page shows par from the start. Running it again changes nothing.
"""

from datetime import timedelta
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from leaderboard.challenge import daily_attempts_close, daily_for, daily_par_compute
from leaderboard.selectors import utc_today


class Command(BaseCommand):
    help = (
        "Close the ranked attempts of days that are over, create today's and the next days'"
        " daily challenges, and work out their par."
    )

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--days", type=int, default=2, help="days ahead besides today")

    def handle(self, *args: Any, days: int = 2, **options: Any) -> None:
        closed = daily_attempts_close()
        self.stdout.write(f"closed {len(closed)} ranked attempt{'' if len(closed) == 1 else 's'}")
        today = utc_today()
        for ahead in range(days + 1):
            daily = daily_for(today + timedelta(days=ahead))
            if daily.par is None:
                daily_par_compute(daily=daily)
            # The seed is secret until the day is over: print only the public fingerprint.
            self.stdout.write(f"{daily.date}: par {daily.par}, commitment {daily.commitment}")
