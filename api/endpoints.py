"""The API's endpoints: each reads its parameters, asks ``api.selectors`` (through the short-lived
cache where an answer is the same for everyone and costs a few queries), and answers. Every one is
GET, rate-limited per address, and answers JSON (``docs/api.md``)."""

import uuid
from collections.abc import Callable
from dataclasses import asdict
from datetime import date
from typing import Any, Final
from urllib.parse import urlencode

from django.http import HttpRequest
from django.utils import timezone
from django.utils.encoding import escape_uri_path
from ninja import Field, Query, Router, Schema, Status

from api import schemas, selectors
from api.caching import cache_key, cached
from core.formats import PAGE_MAX, page_number
from game.models import Variant
from leaderboard.boards import BoardKind
from leaderboard.models import Deals

router = Router()

REFUSED: Final = {400: schemas.Error, 404: schemas.Error, 429: schemas.Error}
"""The refusals every endpoint may answer (each is :class:`api.schemas.Error`)."""


class PageAsked(Schema):
    page: int = Field(
        1,
        description=f"The page, from 1. Below 1 reads as 1, past {PAGE_MAX:,} as {PAGE_MAX:,} "
        "(an empty page, as any page past the end is).",
    )


class BoardsAsked(Schema):
    variant: Variant = Field(Variant.TRIPEAKS, description="The rules whose games are ranked.")
    deals: Deals = Field(
        Deals.RANDOM, description="The deal pool: random deals, or only deals proved winnable."
    )
    period: schemas.Period = Field("all", description="All time, or this week (from Monday UTC).")
    view: schemas.View = Field("all", description="All games, or clean ones (no hint used).")

    def asked(self) -> selectors.BoardAsked:
        return selectors.BoardAsked(
            variant=self.variant.value, deals=self.deals.value, period=self.period, view=self.view
        )


class BoardPageAsked(BoardsAsked, PageAsked):
    pass


def _number(asked: PageAsked) -> int:
    """The page number, read as the site's pages read theirs (``core.formats.page_number``)."""
    return page_number(str(asked.page))


def _paged(
    request: HttpRequest,
    asked: PageAsked,
    name: str,
    read: Callable[[int], dict[str, Any]],
    *,
    path: dict[str, str] | None = None,
    query: dict[str, str] | None = None,
) -> dict[str, Any]:
    """The page ``asked`` of the listing ``name``: ``read(number)`` through the cache (keyed on
    the page, the ``path``'s parameters and the rest of the ``query``), with the links to its
    neighbours, which keep the rest of the query."""
    number, query = _number(asked), query or {}
    body = cached(cache_key(name, page=number, **(path or {}), **query), lambda: read(number))

    def link(page: int) -> str:
        return f"{escape_uri_path(request.path)}?{urlencode({**query, 'page': page})}"

    return {
        **body,
        "previous": link(number - 1) if body["has_previous"] else None,
        "next": link(number + 1) if body["has_next"] else None,
    }


@router.get(
    "/leaderboards",
    response={200: schemas.BoardsOverview, **REFUSED},
    url_name="leaderboards",
    operation_id="leaderboards",
    summary="The top of the four boards",
    tags=["leaderboards"],
)
def leaderboards(request: HttpRequest, query: Query[BoardsAsked]) -> dict[str, Any]:
    """The top ten of each board (best score, most wins, best win rate, longest win streak) of
    one variant, deal pool, period and view, as the leaderboards page shows them."""
    asked = query.asked()
    return cached(
        cache_key("leaderboards", **asdict(asked)),
        lambda: selectors.boards_overview(asked, timezone.now()),
    )


@router.get(
    "/leaderboards/{kind}",
    response={200: schemas.BoardPage, **REFUSED},
    url_name="board",
    operation_id="board",
    summary="One board, a page at a time",
    tags=["leaderboards"],
)
def board(request: HttpRequest, kind: BoardKind, query: Query[BoardPageAsked]) -> dict[str, Any]:
    """A page of one board: ``best`` (best single score), ``wins`` (most games won), ``rate``
    (best win rate, from 10 games), ``streak`` (longest run of wins). Only ranked games count: a
    fresh secret deal, played by a player in good standing, not hidden by a moderator."""
    asked = query.asked()
    return _paged(
        request,
        query,
        "board",
        lambda number: selectors.board_page(asked, kind, number, timezone.now()),
        path={"kind": kind.value},
        query={key: str(value) for key, value in asdict(asked).items()},
    )


@router.get(
    "/dailies",
    response={200: schemas.DailyPage, **REFUSED},
    url_name="dailies",
    operation_id="dailies",
    summary="The daily challenges, today's first",
    tags=["daily challenge"],
)
def dailies(request: HttpRequest, query: Query[PageAsked]) -> dict[str, Any]:
    """Today's challenge and every day before it: the commitment to each day's seed, and the
    seed and par of the days that are over. Days made ahead are never listed."""
    return _paged(
        request, query, "dailies", lambda number: selectors.dailies_page(number, timezone.now())
    )


@router.get(
    "/dailies/{isodate:day}",
    response={200: schemas.Daily, **REFUSED},
    url_name="daily",
    operation_id="daily",
    summary="One day's challenge",
    tags=["daily challenge"],
)
def daily(request: HttpRequest, day: date) -> dict[str, Any]:
    """A day's challenge (``2026-11-30``): the commitment to its seed; its seed and par once
    the day is over. A day that has not begun is not found."""
    return cached(cache_key("daily", day=day), lambda: selectors.daily_on(day, timezone.now()))


@router.get(
    "/players/{username}",
    response={200: schemas.Player, **REFUSED},
    url_name="player",
    operation_id="player",
    summary="A player's public profile",
    tags=["players"],
)
def player(request: HttpRequest, username: str) -> dict[str, Any]:
    """A player's statistics, as their profile page shows them. A suspended player is not
    found."""
    return cached(
        cache_key("player", username=username),
        lambda: selectors.player_profile(username, timezone.now()),
    )


@router.get(
    "/players/{username}/games",
    response={200: schemas.GamePage, **REFUSED},
    url_name="player_games",
    operation_id="player_games",
    summary="A player's finished games",
    tags=["players"],
)
def player_games(request: HttpRequest, username: str, query: Query[PageAsked]) -> dict[str, Any]:
    """A player's finished games (won, lost or given up), the latest started first. Games in
    play are never listed; a daily game's deal stays secret until its day is over
    (``deal_revealed``)."""
    return _paged(
        request,
        query,
        "player_games",
        lambda number: selectors.player_games_page(username, number, timezone.now()),
        path={"username": username},
    )


@router.get(
    "/games/{uuid:game_id}/export",
    response={200: schemas.GameDocument, 409: schemas.Error, **REFUSED},
    url_name="game_export",
    operation_id="game_export",
    summary="A finished game's tripeaks-game/1 document",
    tags=["games"],
)
def game_export(request: HttpRequest, game_id: uuid.UUID) -> dict[str, Any]:
    """The deal and the move log of a finished game, as ``/games/<id>/export.json`` gives them.
    Refused with 409 for a game in play (``game_in_progress``) and for a daily challenge's game
    until its day is over (``deal_hidden``, with ``reveal_after``)."""
    return selectors.game_document_of(game_id)


@router.get(
    "/games/{uuid:game_id}/analysis",
    response={200: schemas.Analysis, 202: schemas.Pending, 409: schemas.Error, **REFUSED},
    url_name="game_analysis",
    operation_id="game_analysis",
    summary="A finished game's analysis",
    tags=["games"],
)
def game_analysis(
    request: HttpRequest, game_id: uuid.UUID
) -> dict[str, Any] | Status[dict[str, str]]:
    """Par, the line that scores it, the share of par and the mistakes of a finished game whose
    deal may be shown; 202 while it is being computed (ask again in a few seconds). Refused as
    the export is (409)."""
    report = selectors.game_analysis_of(game_id)
    if report is None:
        return Status(202, {"status": "pending"})
    return report
