"""Reads for the profile's graphs: a player's recent scores, win rate by week, share of par and
daily challenge calendar, each as a :class:`accounts.charts.Chart` with the table behind it.

Only finished games, and par only for games whose deal may be revealed (a daily challenge's game
before its day is over keeps even that to itself).
"""

from __future__ import annotations

from collections import Counter
from datetime import UTC, date, datetime, time, timedelta
from typing import Final

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import pgettext

from accounts.charts import (
    HEIGHT,
    WIDTH,
    Chart,
    Value,
    bars,
    calendar_cells,
    calendar_size,
    day_words,
    share,
)
from accounts.selectors import finished_games
from game.models import GameAnalysis, Status
from leaderboard.selectors import daily_attempt_days, utc_today, week_start

RECENT: Final = 30
WEEKS: Final = 12
CALENDAR_WEEKS: Final = 12


def profile_charts(user: AbstractBaseUser, *, now: datetime | None = None) -> tuple[Chart, ...]:
    """The profile's four graphs, newest figures on the right."""
    now = now or timezone.now()
    return (
        score_chart(user),
        win_rate_chart(user, utc_today(now)),
        par_chart(user, now),
        daily_chart(user, utc_today(now)),
    )


def score_chart(user: AbstractBaseUser) -> Chart:
    """The scores of the player's last finished games, oldest first, wins marked."""
    games = list(
        finished_games(user)
        .order_by("-finished_at", "-started_at")
        .values_list("finished_at", "status", "score")[:RECENT]
    )[::-1]
    top = max((score for _finished, _status, score in games), default=0)
    values = [
        Value(
            score,
            "won" if status == Status.WON else "lost",
            _("%(day)s: %(result)s, %(score)s")
            % {"day": finished_words(finished), "result": Status(status).label, "score": score},
        )
        for finished, status, score in games
    ]
    won = sum(status == Status.WON for _finished, status, _score in games)
    return Chart(
        slug="scores",
        title=_("Score, last %(count)s games") % {"count": RECENT},
        summary=(
            _("%(games)s games, %(won)s won, best %(best)s.")
            % {"games": len(games), "won": won, "best": top}
            if games
            else _("No games yet.")
        ),
        width=WIDTH,
        height=HEIGHT,
        bars=bars(values, top),
        columns=(_("Finished"), _("Result"), _("Score")),
        rows=tuple(
            (finished_words(finished), str(Status(status).label), str(score))
            for finished, status, score in games
        ),
        top_label=str(top) if games else "",
        legend=(("won", _("won")), ("lost", _("not won"))),
    )


def win_rate_chart(user: AbstractBaseUser, today: date) -> Chart:
    """The share of games won in each of the last weeks (Monday to Sunday, UTC)."""
    first = week_start(today) - timedelta(weeks=WEEKS - 1)
    played: Counter[date] = Counter()
    won: Counter[date] = Counter()
    since = datetime.combine(first, time.min, tzinfo=UTC)
    results = (
        finished_games(user).filter(finished_at__gte=since).values_list("finished_at", "status")
    )
    for finished, status in results:
        week = week_start(utc_day(finished))
        played[week] += 1
        won[week] += status == Status.WON
    weeks = [first + timedelta(weeks=index) for index in range(WEEKS)]
    values = [
        Value(
            won[week] / played[week] if played[week] else 0,
            "rate",
            _("Week of %(day)s: %(share)s of %(games)s")
            % {
                "day": day_words(week),
                "share": share(won[week], played[week]),
                "games": played[week],
            },
        )
        for week in weeks
    ]
    rows = tuple(
        (day_words(week), str(played[week]), str(won[week]), share(won[week], played[week]))
        for week in weeks
        if played[week]
    )
    return Chart(
        slug="win-rate",
        title=_("Win rate by week, last %(count)s weeks") % {"count": WEEKS},
        summary=(
            _("%(won)s won of %(games)s games over %(weeks)s weeks.")
            % {"won": sum(won.values()), "games": sum(played.values()), "weeks": len(rows)}
            if rows
            else _("No games in these weeks.")
        ),
        width=WIDTH,
        height=HEIGHT,
        bars=bars(values, 1),
        columns=(_("Week of"), _("Games"), pgettext("games won, a column", "Won"), _("Win rate")),
        rows=rows,
        top_label="100%",
    )


def par_chart(user: AbstractBaseUser, now: datetime) -> Chart:
    """How close each of the last analysed games came to par, the best score its deal allowed."""
    analysed = list(
        GameAnalysis.objects.filter(game__owner_id=user.pk)
        .exclude(game__status=Status.IN_PROGRESS)
        .filter(Q(game__reveal_after__isnull=True) | Q(game__reveal_after__lte=now))
        .order_by("-game__finished_at")
        .values_list("game__finished_at", "game__score", "par")[:RECENT]
    )[::-1]
    values = [
        Value(
            score / par if par else 0,
            "par",
            _("%(day)s: %(score)s of par %(par)s")
            % {"day": finished_words(finished), "score": score, "par": par},
        )
        for finished, score, par in analysed
    ]
    total_score = sum(score for _finished, score, _par in analysed)
    total_par = sum(par for _finished, _score, par in analysed)
    return Chart(
        slug="par",
        title=_("Share of par, last %(count)s analysed games") % {"count": RECENT},
        summary=(
            _("%(share)s of par over %(games)s games.")
            % {"share": share(total_score, total_par), "games": len(analysed)}
            if analysed
            else _("No analysed games yet.")
        ),
        width=WIDTH,
        height=HEIGHT,
        bars=bars(values, 1),
        columns=(_("Finished"), _("Score"), _("Par"), _("Share of par")),
        rows=tuple(
            (finished_words(finished), str(score), str(par), share(score, par))
            for finished, score, par in analysed
        ),
        top_label=_("par"),
    )


def daily_chart(user: AbstractBaseUser, today: date) -> Chart:
    """The days of the last weeks on which the player made their ranked daily attempt."""
    first = week_start(today) - timedelta(weeks=CALENDAR_WEEKS - 1)
    attempts = daily_attempt_days(user.pk, first, today)
    days = [
        (
            day,
            "won" if won else "played",
            _("%(day)s: %(result)s") % {"day": day_words(day), "result": result_words(score, won)},
        )
        for day, score, won in attempts
    ]
    width, height = calendar_size(CALENDAR_WEEKS)
    return Chart(
        slug="daily",
        title=_("Daily challenges, last %(count)s weeks") % {"count": CALENDAR_WEEKS},
        summary=(
            _("%(days)s days played, %(won)s won.")
            % {"days": len(attempts), "won": sum(won for _day, _score, won in attempts)}
            if attempts
            else _("No daily challenge in these weeks.")
        ),
        width=width,
        height=height,
        bars=calendar_cells(days, today, CALENDAR_WEEKS),
        columns=(_("Day"), _("Result")),
        rows=tuple((day_words(day), result_words(score, won)) for day, score, won in attempts),
        legend=(("won", _("won")), ("played", _("not won")), ("none", _("no attempt"))),
    )


def result_words(score: int | None, won: bool) -> str:
    """A daily attempt's result in words.

    >>> result_words(None, False), result_words(812, True), result_words(40, False)
    ('in play', 'won, 812', 'not won, 40')
    """
    if score is None:
        return _("in play")
    if won:
        return _("won, %(score)s") % {"score": score}
    return _("not won, %(score)s") % {"score": score}


def utc_day(moment: datetime | None) -> date:
    """The UTC date of a finished game's end (every finished game has one)."""
    assert moment is not None
    return moment.astimezone(UTC).date()


def finished_words(moment: datetime | None) -> str:
    """The UTC day a game ended, in a few words."""
    return day_words(utc_day(moment))
