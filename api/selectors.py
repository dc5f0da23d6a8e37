"""The API's reads: the body of each answer, made from the reads of the apps below it (the boards'
pages, the daily challenge's seed and par, a player's record, a finished game's document and
analysis). No rule is decided here: who is on a board and in what order is
``leaderboard.boards``'s, when a day's seed may be shown ``leaderboard.selectors``', when a game's
deal may be ``game.selectors``'. What the answers look like is ``api.schemas``.
"""

import uuid
from dataclasses import asdict, dataclass
from datetime import date, datetime, timedelta
from typing import Any, Final

from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser
from django.urls import reverse

from accounts.selectors import finished_games, player_statistics
from accounts.templatetags.accounts_format import board_of
from core.errors import NotFound
from core.formats import iso
from game.models import Game, Variant
from game.selectors import deal_revealed, game_export, revealed_analysis
from leaderboard import boards
from leaderboard.boards import BOARD_TITLES, Board, BoardKind, BoardPage, BoardRow
from leaderboard.models import ALL_TIME, Daily, Deals
from leaderboard.selectors import (
    PAGE_SIZE,
    daily_archive,
    daily_par,
    daily_seed_revealed,
    utc_today,
)

OVERVIEW_ROWS: Final = 10
"""Rows of each board in the overview, as on the leaderboards page."""


# ---- Leaderboards ------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class BoardAsked:
    """The boards a request asks for: the rules, the deal pool, the period, the games counted."""

    variant: str = Variant.TRIPEAKS
    deals: str = Deals.RANDOM
    period: str = "all"
    view: str = "all"

    def board(self, kind: BoardKind, now: datetime) -> Board:
        return boards.board_for(
            kind,
            weekly=self.period == "week",
            clean=self.view == "clean",
            variant=self.variant,
            deals=self.deals,
            now=now,
        )


def board_page(asked: BoardAsked, kind: BoardKind, number: int, now: datetime) -> dict[str, Any]:
    """A page of one board (``leaderboard.boards.board_page``), fifty rows to a page."""
    board = asked.board(kind, now)
    page = boards.board_page(board, number)
    return {
        "board": _board_choice(board, asked),
        **_paging(page.number, page.has_next),
        "rows": [_board_row(row) for row in page.rows],
    }


def boards_overview(asked: BoardAsked, now: datetime) -> dict[str, Any]:
    """The top of each of the four boards of one choice."""
    tops = []
    for kind in BoardKind:
        board = asked.board(kind, now)
        page: BoardPage = boards.board_page(board, 1, size=OVERVIEW_ROWS)
        tops.append(
            {
                "board": _board_choice(board, asked),
                "rows": [_board_row(row) for row in page.rows],
                "url": reverse("api:board", kwargs={"kind": kind.value}),
            }
        )
    return {"boards": tops}


def _board_choice(board: Board, asked: BoardAsked) -> dict[str, Any]:
    return {
        "kind": board.kind.value,
        "title": BOARD_TITLES[board.kind],
        "variant": board.variant,
        "deals": board.deals,
        "period": asked.period,
        "week": None if board.period == ALL_TIME else board.period,
        "view": asked.view,
    }


def _board_row(row: BoardRow) -> dict[str, Any]:
    return {
        "rank": row.rank,
        "player": row.player,
        "player_url": reverse("api:player", kwargs={"username": row.player})
        if row.player
        else None,
        "score": row.score,
        "duration_ms": row.duration_ms,
        "finished_at": iso(row.finished_at),
        "game": None if row.game_id is None else str(row.game_id),
        "won": row.won,
        "played": row.played,
        "win_rate": row.win_rate,
        "streak": row.streak,
        "streak_at": iso(row.streak_at),
    }


def _paging(number: int, has_next: bool) -> dict[str, Any]:
    """The page's place in its list (the links to its neighbours are the endpoint's to add)."""
    return {"page": number, "has_previous": number > 1, "has_next": has_next}


# ---- The daily challenge -----------------------------------------------------------------------


def dailies_page(number: int, now: datetime) -> dict[str, Any]:
    """Today's challenge and the days before it, newest first (days made ahead are left out)."""
    tomorrow = utc_today(now) + timedelta(days=1)
    days = daily_archive(tomorrow, number)
    return {
        **_paging(number, len(days) > PAGE_SIZE),
        "days": [_daily(daily, now) for daily in days[:PAGE_SIZE]],
    }


def daily_on(day: date, now: datetime) -> dict[str, Any]:
    """One day's challenge; a day that has not begun is not found (even if made ahead)."""
    if day > utc_today(now):
        raise NotFound("This day has not begun")
    daily = Daily.objects.filter(date=day).first()
    if daily is None:
        raise NotFound("There was no challenge on this day")
    return _daily(daily, now)


def _daily(daily: Daily, now: datetime) -> dict[str, Any]:
    """A day's challenge: its seed and par only once the day is over."""
    over = daily_seed_revealed(daily, now)
    return {
        "date": daily.date.isoformat(),
        "variant": daily.variant,
        "commitment": daily.commitment,
        "ends_at": iso(daily.ends_at),
        "over": over,
        "seed": daily.seed if over else None,
        "par": daily_par(daily) if over else None,
        "url": daily.get_absolute_url(),
    }


# ---- Players -----------------------------------------------------------------------------------


def public_player(username: str) -> AbstractBaseUser:
    """A player whose profile is public: any but a deactivated (banned) one."""
    player = get_user_model().objects.filter(username=username, is_active=True).first()
    if player is None:
        raise NotFound("There is no such player")
    return player


def player_profile(username: str, now: datetime) -> dict[str, Any]:
    """A player's public profile: their statistics, as their profile page shows them."""
    player = public_player(username)
    return {
        "username": player.get_username(),
        "joined": iso(player.date_joined),  # type: ignore[attr-defined]
        "statistics": asdict(player_statistics(player, now=now)),
        "games": reverse("api:player_games", kwargs={"username": player.get_username()}),
        "url": reverse("accounts:player", kwargs={"username": player.get_username()}),
    }


def player_games_page(username: str, number: int, now: datetime) -> dict[str, Any]:
    """A player's finished games, the latest started first (as their profile lists them)."""
    player = public_player(username)
    offset = (number - 1) * PAGE_SIZE
    games = finished_games(player).order_by("-started_at", "-id")
    found = list(games[offset : offset + PAGE_SIZE + 1])
    return {
        **_paging(number, len(found) > PAGE_SIZE),
        "player": player.get_username(),
        "games": [_game_summary(game, now) for game in found[:PAGE_SIZE]],
    }


def _game_summary(game: Game, now: datetime) -> dict[str, Any]:
    """What a list shows of a finished game: its result, and never a card."""
    return {
        "id": str(game.id),
        "variant": game.variant,
        "mode": game.mode,
        "ranked": game.ranked,
        "counts_on": board_of(game),
        "status": game.status,
        "score": game.score,
        "cards_left": game.cards_left,
        "moves": game.move_count,
        "assisted": game.assisted,
        "started_at": iso(game.started_at),
        "finished_at": iso(game.finished_at),
        "duration_ms": game.duration_ms,
        "deal_revealed": deal_revealed(game, now),
        "reveal_after": iso(game.reveal_after),
        "url": game.get_absolute_url(),
        "export": reverse("api:game_export", kwargs={"game_id": game.id}),
        "analysis": reverse("api:game_analysis", kwargs={"game_id": game.id}),
    }


# ---- A finished game ---------------------------------------------------------------------------


def _game(game_id: uuid.UUID) -> Game:
    game = Game.objects.filter(id=game_id).select_related("owner").first()
    if game is None:
        raise NotFound("There is no such game")
    return game


def game_document_of(game_id: uuid.UUID) -> dict[str, Any]:
    """A game's ``tripeaks-game/1`` document, refused as the site's export.json refuses it."""
    return game_export(_game(game_id))


def game_analysis_of(game_id: uuid.UUID) -> dict[str, Any] | None:
    """A game's analysis (None while it is computed), only once its deal may be shown."""
    return revealed_analysis(_game(game_id))
