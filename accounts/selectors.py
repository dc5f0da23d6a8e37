"""Reads about a player: statistics, recent games, board preferences, and their data export."""

import uuid
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.db.models import Avg, Count, Max, Q, QuerySet
from django.http import HttpRequest
from django.utils import timezone

from accounts.models import PlayerSettings
from core.formats import iso
from core.previews import Preview
from game.models import Game, Status
from game.selectors import deal_revealed, game_document
from leaderboard.selectors import daily_streak, utc_today

EXPORT_FORMAT = "tripeaks-export/1"
RECENT_GAMES = 10
BOARD_PREFERENCES = ("four_colour_deck", "animations", "confirm_draw_when_play_fits")


@dataclass(frozen=True, slots=True)
class PlayerStatistics:
    """A player's record, computed from their stored games (finished ones only).

    Rates, averages and the best score are ``None`` until there is a game (or a win) to take
    them from.
    """

    games_played: int
    games_won: int
    games_unranked: int
    """Of the games played, those that count on no board: a deal seen before, a race (their
    figures here include them, marked as such on the profile)."""
    win_rate: float | None
    best_score: int | None
    average_score: float | None
    current_win_streak: int
    longest_win_streak: int
    average_win_ms: int | None
    daily_streak: int
    """Days in a row, up to today or yesterday (UTC), with a ranked daily challenge attempt."""


@dataclass(frozen=True, slots=True)
class GameInProgress:
    """What may be shown of a game still in play: nothing that reveals a card."""

    id: uuid.UUID
    started_at: datetime
    moves: int


def finished_games(user: AbstractBaseUser) -> QuerySet[Game]:
    """The player's games that are over: won, lost or abandoned."""
    return Game.objects.filter(owner_id=user.pk).exclude(status=Status.IN_PROGRESS)


def player_statistics(user: AbstractBaseUser, *, now: datetime | None = None) -> PlayerStatistics:
    """The player's record: totals in one aggregate query, win streaks from the finished games
    in the order they ended (statuses only), and the daily challenge streak."""
    games = finished_games(user)
    totals = games.aggregate(
        played=Count("id"),
        won=Count("id", filter=Q(status=Status.WON)),
        unranked=Count("id", filter=Q(ranked=False)),
        best_score=Max("score"),
        average_score=Avg("score"),
        average_win_ms=Avg("duration_ms", filter=Q(status=Status.WON)),
    )
    in_order = games.order_by("finished_at", "started_at", "id").values_list("status", flat=True)
    current, longest = win_streaks(in_order.iterator())
    played, won = totals["played"], totals["won"]
    average_win_ms = totals["average_win_ms"]
    return PlayerStatistics(
        games_played=played,
        games_won=won,
        games_unranked=totals["unranked"],
        win_rate=won / played if played else None,
        best_score=totals["best_score"],
        average_score=totals["average_score"],
        current_win_streak=current,
        longest_win_streak=longest,
        average_win_ms=round(average_win_ms) if average_win_ms is not None else None,
        daily_streak=daily_streak(user.pk, utc_today(now)),
    )


def win_streaks(statuses: Iterable[str]) -> tuple[int, int]:
    """The current and the longest run of wins in game results listed oldest first.

    >>> win_streaks(["won", "won", "lost", "won", "won", "won", "abandoned", "won"])
    (1, 3)
    >>> win_streaks([])
    (0, 0)
    """
    current = longest = 0
    for status in statuses:
        current = current + 1 if status == Status.WON else 0
        longest = max(longest, current)
    return current, longest


def recent_games(user: AbstractBaseUser, *, finished_only: bool = False) -> list[Game]:
    """The player's latest games, newest first."""
    games = finished_games(user) if finished_only else Game.objects.filter(owner_id=user.pk)
    return list(games.order_by("-started_at")[:RECENT_GAMES])


def games_in_progress(user: AbstractBaseUser) -> list[GameInProgress]:
    """The player's unfinished games, named only by what reveals no card."""
    rows = (
        Game.objects.filter(owner_id=user.pk, status=Status.IN_PROGRESS)
        .order_by("-started_at")
        .values_list("id", "started_at", "move_count")
    )
    return [GameInProgress(*row) for row in rows]


def profile_preview(user: AbstractBaseUser, figures: PlayerStatistics) -> Preview:
    """A public profile's link preview: the player's record (``figures``, as the page shows
    them) in one sentence."""
    record = f"{figures.games_played} game{'' if figures.games_played == 1 else 's'} played"
    if figures.win_rate is not None:
        record += f", {round(figures.win_rate * 100)}% won, best score {figures.best_score}"
    return Preview(title=f"{user.get_username()} on TriPeaks Online", description=f"{record}.")


def board_preferences(user: AbstractBaseUser | AnonymousUser) -> dict[str, bool]:
    """How the board should look and behave for this visitor; defaults for guests.

    >>> board_preferences(AnonymousUser())
    {'four_colour_deck': False, 'animations': True, 'confirm_draw_when_play_fits': False}
    """
    defaults = {name: getattr(PlayerSettings(), name) for name in BOARD_PREFERENCES}
    if not user.is_authenticated:
        return defaults
    stored = PlayerSettings.objects.filter(user_id=user.pk).values(*BOARD_PREFERENCES).first()
    return stored if stored is not None else defaults


def game_page_preferences(request: HttpRequest, game: Game) -> dict[str, Any]:
    """The board settings a game page in play applies (registered with ``game.pages``)."""
    return {} if game.is_over else {"preferences": board_preferences(request.user)}


def player_settings(user: AbstractBaseUser) -> PlayerSettings:
    """The player's settings row, or an unsaved one holding the defaults."""
    return PlayerSettings.objects.filter(user_id=user.pk).first() or PlayerSettings(user_id=user.pk)


def account_export(user: AbstractBaseUser, *, now: datetime | None = None) -> dict[str, Any]:
    """Everything the site keeps about a player, as one ``tripeaks-export/1`` object.

    Each finished game is a ``tripeaks-game/1`` document with its deal and move log. Games still
    in play are listed without their deal, which would reveal the face-down cards, and so are
    today's daily challenge games, whose deal is secret until the day is over.
    """
    now = now or timezone.now()
    games = finished_games(user).select_related("owner").order_by("started_at", "id")
    settings = player_settings(user)
    finished = list(games.iterator(chunk_size=200))
    sealed = [game for game in finished if not deal_revealed(game, now)]
    return {
        "format": EXPORT_FORMAT,
        "player": user.get_username(),
        "exported_at": iso(now),
        "account": {
            "username": user.get_username(),
            "email": getattr(user, "email", ""),
            "date_joined": iso(getattr(user, "date_joined", None)),
            "settings": {
                "four_colour_deck": settings.four_colour_deck,
                "animations": settings.animations,
                "confirm_draw_when_play_fits": settings.confirm_draw_when_play_fits,
                "allow_watching": settings.allow_watching,
            },
        },
        "games": [game_document(game) for game in finished if deal_revealed(game, now)],
        "games_sealed": [
            {
                "id": str(game.id),
                "status": game.status,
                "score": game.score,
                "finished_at": iso(game.finished_at),
                "reveal_after": iso(game.reveal_after),
            }
            for game in sealed
        ],
        "games_in_progress": [
            {"id": str(game.id), "started_at": iso(game.started_at), "moves": game.moves}
            for game in games_in_progress(user)
        ],
    }
