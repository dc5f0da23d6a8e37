"""Reads for spectating: which games may be watched, the "live now" list, and a spectator's VIEW.

The rule lives in one place, :func:`watchable_games`; the live-now page, the watch page and the
watch socket all ask it, so that a game one of them refuses is refused by all three.
"""

import uuid
from dataclasses import dataclass
from datetime import datetime, timedelta
from typing import Any, Final

from django.db.models import Exists, F, OuterRef, Q, QuerySet
from django.db.models.functions import Coalesce
from django.utils import timezone

from accounts.models import PlayerSettings
from core.errors import Forbidden, GameOver, NotFound
from core.formats import iso
from game.live import load_live_game
from game.models import Game, Mode, Status, Variant
from game.selectors import View, game_view

LIVE_WINDOW: Final = timedelta(minutes=10)
"""A game shows on the live-now page while its last move (or its start) is this recent."""
LIVE_NOW_LIMIT: Final = 50
"""The live-now page lists at most this many games, the most recently active first."""


def watchable_games(
    *, now: datetime | None = None, already_watching: bool = False
) -> QuerySet[Game]:
    """The games a spectator may watch: the whole rule.

    - The game is in progress (and has started: a race's games are dealt before its countdown
      ends). A finished game has its own page; only a spectator ``already_watching`` may see the
      final state arrive.
    - Its owner is a signed-in player (a guest never chose to be watched), whose account is
      active (a banned player's games are not shown) and who allows watching
      (``PlayerSettings.allow_watching``; no settings row means the default, which allows it).
    - A moderator has not hidden it.
    - It is a casual game, or its deal may already be revealed (``reveal_after`` has passed): a
      daily challenge's game until its day is over, and a race's while the race runs, would show
      the deal to players who still have to play it.
    """
    now = now or timezone.now()
    watching_refused = PlayerSettings.objects.filter(
        user_id=OuterRef("owner_id"), allow_watching=False
    )
    games = Game.objects.filter(
        ~Exists(watching_refused),
        Q(mode=Mode.CASUAL) | Q(reveal_after__lte=now),
        owner__isnull=False,
        owner__is_active=True,
        hidden=False,
        started_at__lte=now,
    )
    if not already_watching:
        games = games.filter(status=Status.IN_PROGRESS)
    return games


def game_watchable(game_id: uuid.UUID, *, already_watching: bool = False) -> bool:
    """Whether the rule lets a spectator watch this game now (one query)."""
    return watchable_games(already_watching=already_watching).filter(id=game_id).exists()


def watch_state(game_id: uuid.UUID, *, already_watching: bool = False) -> View:
    """The VIEW a spectator may see of a game: exactly the player's, from its stored log.

    Read from the database rather than the live-game cache, so that spectators never take the
    lock or the database thread of the move path. Raises a :class:`~core.errors.ClientError` when
    the rule says no: ``not_found``, ``game_over`` (a finished game, for a new spectator) or
    ``forbidden``.
    """
    game = (
        Game.objects.filter(id=game_id)
        .annotate(
            watchable=Exists(
                watchable_games(already_watching=already_watching).filter(id=OuterRef("id"))
            )
        )
        .values("status", "watchable")
        .first()
    )
    if game is None:
        raise NotFound("There is no such game")
    if not game["watchable"]:
        if game["status"] != Status.IN_PROGRESS and not already_watching:
            raise GameOver("This game is over: its own page shows how it went")
        raise Forbidden("This game cannot be watched")
    try:
        return game_view(load_live_game(game_id))
    except Game.DoesNotExist:  # deleted with its player's account, between the two reads
        raise NotFound("There is no such game") from None


@dataclass(frozen=True, slots=True)
class LiveGameRow:
    """One game on the live-now page: who plays it and how it stands, never a card."""

    game_id: uuid.UUID
    player: str
    variant: str
    score: int
    cards_left: int
    moves: int
    started_at: datetime
    active_at: datetime

    @property
    def variant_label(self) -> str:
        return str(Variant(self.variant).label)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": str(self.game_id),
            "player": self.player,
            "variant": self.variant_label,
            "score": self.score,
            "cards_left": self.cards_left,
            "moves": self.moves,
            "started_at": iso(self.started_at),
            "active_at": iso(self.active_at),
        }


def live_now(*, now: datetime | None = None, limit: int = LIVE_NOW_LIMIT) -> list[LiveGameRow]:
    """Games that may be watched and were active within :data:`LIVE_WINDOW` (a move, or their
    start), the most recently active first."""
    now = now or timezone.now()
    rows = (
        watchable_games(now=now)
        .annotate(active_at=Coalesce("last_move_at", "started_at"))
        .filter(active_at__gte=now - LIVE_WINDOW)
        .order_by(F("active_at").desc(), "id")
        .values_list(
            "id",
            "owner__username",
            "variant",
            "score",
            "cards_left",
            "move_count",
            "started_at",
            "active_at",
        )[:limit]
    )
    return [LiveGameRow(*row) for row in rows]
