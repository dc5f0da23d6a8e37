"""The daily challenge's writes: each day's secret deal (proved winnable), its par, the players'
ranked attempts and their replays of a day's deal."""

import hmac
import logging
import uuid
from dataclasses import dataclass
from datetime import date, datetime, timedelta
from hashlib import sha256
from typing import Final

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext_noop

from core.errors import ClientError, NotFound, SignInRequired
from game.analysis_worker import deal_verdict
from game.ending import games_abandon
from game.engine import Deal
from game.engine import Variant as EngineVariant
from game.engine.solver import solve
from game.models import DealPar, Game, Mode
from game.players import Player
from game.services import game_start
from leaderboard.models import Daily, DailyAttempt
from leaderboard.scores import scores_record
from leaderboard.selectors import commitment_of, daily_attempt_of, utc_today

logger = logging.getLogger(__name__)

DAILY_VARIANT: Final = EngineVariant.TRIPEAKS
DAILY_SEED_TRIES: Final = 100
"""Seeds to try for a winnable deal; about nine deals in ten are, so this never runs out."""


class DailyClosed(ClientError):
    """Ranked attempts are for today's challenge only."""

    code = "daily_closed"


class DailyNotYet(NotFound):
    """A day that has not begun."""


class AttemptFirst(ClientError):
    """Today's deal may be replayed only once the player's ranked attempt is over."""

    code = "attempt_first"


class NoWinnableDailyDeal(Exception):
    """No seed of the day's sequence gave a deal the solver proves winnable (vanishingly rare)."""


def daily_seed(day: date, n: int) -> str:
    """The ``n``-th seed of a day's secret sequence: HMAC-SHA256 of ``<date>/<n>``, in hex."""
    key = settings.DAILY_SEED_SECRET.encode()
    return hmac.new(key, f"{day.isoformat()}/{n}".encode(), sha256).hexdigest()


def winnable_daily_seed(day: date) -> str:
    """The first seed of the day's sequence whose deal the solver proves winnable."""
    for n in range(DAILY_SEED_TRIES):
        seed = daily_seed(day, n)
        if solve(Deal.from_seed(seed), DAILY_VARIANT).winnable:
            return seed
    raise NoWinnableDailyDeal(f"no winnable deal in the first {DAILY_SEED_TRIES} seeds of {day}")


def daily_for(day: date, *, now: datetime | None = None) -> Daily:
    """The challenge of ``day``, made on first use. Two processes making it at once agree: the
    seed is the same for both, and the date is unique."""
    daily = Daily.objects.filter(date=day).first()
    if daily is not None:
        return daily
    seed = winnable_daily_seed(day)
    try:
        with transaction.atomic():
            return Daily.objects.create(
                date=day,
                variant=DAILY_VARIANT.value,
                seed=seed,
                commitment=commitment_of(seed),
                created_at=now or timezone.now(),
            )
    except IntegrityError:
        return Daily.objects.get(date=day)


def daily_par_compute(*, daily: Daily) -> int:
    """Solve a day's deal for par (a second or two) and keep it, with the deal's verdict, so that
    the analyses of its games need not solve it again."""
    verdict = deal_verdict(daily.seed, daily.variant)
    DealPar.objects.get_or_create(
        seed=daily.seed,
        variant=daily.variant,
        defaults={**verdict, "computed_at": timezone.now()},
    )
    Daily.objects.filter(id=daily.id).update(par=verdict["par"])
    daily.par = verdict["par"]
    return daily.par


def daily_attempt_start(*, user: AbstractBaseUser, day: date, now: datetime | None = None) -> Game:
    """Start the player's one ranked attempt at ``day``'s challenge, or return the one they began.

    Only today's challenge can be attempted. The unique (day, player) constraint settles two
    starts at once: one inserts the attempt, the other finds it.
    """
    now = now or timezone.now()
    if day != utc_today(now):
        raise DailyClosed(gettext_noop("Ranked attempts are for today's challenge only."))
    daily = daily_for(day, now=now)
    attempt = daily_attempt_of(daily, user.pk)
    if attempt is not None:
        return attempt.game
    try:
        with transaction.atomic():
            player = Player(user_id=user.pk, guest_key="")
            game = _daily_game(daily, player=player, now=now, ranked=True)
            DailyAttempt.objects.create(daily=daily, user_id=user.pk, game=game, created_at=now)
    except IntegrityError:
        return DailyAttempt.objects.select_related("game").get(daily=daily, user_id=user.pk).game
    return game


def daily_replay_start(*, player: Player, daily: Daily, now: datetime | None = None) -> Game:
    """Start an unranked game on a day's deal: any past day, for anyone; today's only for a
    signed-in player whose ranked attempt is over."""
    now = now or timezone.now()
    today = utc_today(now)
    if daily.date > today:
        raise DailyNotYet(gettext_noop("This day's challenge has not begun."))
    if daily.date == today:
        if player.user_id is None:
            # Today's deal is for signed-in players: a guest could scout it before an attempt.
            raise SignInRequired(gettext_noop("Sign in to play today's challenge."))
        attempt = daily_attempt_of(daily, player.user_id)
        if attempt is None or not attempt.game.is_over:
            raise AttemptFirst(
                gettext_noop("Play your ranked attempt first: you may replay the deal after it.")
            )
    return _daily_game(daily, player=player, now=now, ranked=False)


def _daily_game(daily: Daily, *, player: Player, now: datetime, ranked: bool) -> Game:
    """A game on the day's deal: the player's ranked attempt, or a replay of a deal they know, or
    may (after their attempt, or once the day is over)."""
    return game_start(
        player=player,
        variant=EngineVariant(daily.variant),
        mode=Mode.DAILY,
        seed=daily.seed,
        secret_daily=ranked,
        reveal_after=daily.ends_at,
        now=now,
    )


# ---- The end of a day: its ranked attempts still in play are closed as they stood at midnight
# (UTC), given up with the points they had then (docs/boards.md).


@transaction.atomic
def daily_attempts_close(*, now: datetime | None = None) -> list[uuid.UUID]:
    """Close every ranked attempt whose day is over and that has no result yet; return the
    games it gave up.

    A game still in play is given up at midnight, or, if its player went on after midnight, now
    (its log shows what came after; those moves count nowhere). Every such attempt, and any that
    ended after midnight, takes its place on the day's board as it stood at midnight. Idempotent,
    and cheap when there is nothing to close (the open attempts have an index of their own):
    ``manage.py daily_prepare`` runs it, and so does reading a day's board.
    """
    now = now or timezone.now()
    attempts = DailyAttempt.objects.filter(
        score__isnull=True, daily__date__lt=utc_today(now), game__hidden=False
    ).select_related("daily", "game")
    due = list(attempts)
    if not due:
        return []
    ends = {
        attempt.game_id: _closed_at(attempt, now) for attempt in due if not attempt.game.is_over
    }
    closed = games_abandon(ends)
    # Those games are entered by games_abandon; the ones that ended after midnight, here.
    scores_record([attempt.game_id for attempt in due if attempt.game_id not in ends])
    return closed


def _closed_at(attempt: DailyAttempt, now: datetime) -> datetime:
    ends_at = attempt.daily.ends_at
    last_move_at = attempt.game.last_move_at
    return ends_at if last_move_at is None or last_move_at < ends_at else now


DAYS_AHEAD: Final = 2


@dataclass(frozen=True, slots=True)
class DaysPrepared:
    """What :func:`days_prepare` did: the attempts it closed, and the days it made ready."""

    closed: list[uuid.UUID]
    days: list[Daily]


def days_prepare(days: int = DAYS_AHEAD) -> DaysPrepared:
    """Close the ranked attempts of days that are over, and make today's challenge and the next
    ``days`` days', each with its par. Every web process runs this at start and then hourly
    (``core.scheduled``; ``manage.py daily_prepare`` in the foreground).

    Safe to run in several processes at once: closing is idempotent, a day's date is unique and its
    seed the same for everyone (``daily_for``), and a deal's verdict is kept once per deal
    (``daily_par_compute``); two processes at most solve the same deal twice.
    """
    closed = daily_attempts_close()
    today = utc_today()
    prepared = []
    for ahead in range(days + 1):
        daily = daily_for(today + timedelta(days=ahead))
        if daily.par is None:
            daily_par_compute(daily=daily)
        prepared.append(daily)
    return DaysPrepared(closed=closed, days=prepared)
