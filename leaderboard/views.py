"""Pages of the daily challenge and the leaderboards. Views stay thin: they check access, call a
service or selectors, render."""

import json
import uuid
from dataclasses import dataclass, replace
from datetime import date
from typing import Any, Final
from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth import get_user_model
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import get_object_or_404, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from django.views.decorators.http import require_POST, require_safe

from core.errors import ClientError
from core.formats import page_number
from core.previews import Preview
from game.models import Game, Variant
from game.players import player_for_request
from game.selectors import deal_revealed, game_document
from leaderboard import boards, challenge, selectors, share_card
from leaderboard.boards import Board, BoardKind, DailyBoard
from leaderboard.challenge import daily_attempts_close
from leaderboard.models import ALL_TIME, WIN_RATE_MIN_GAMES, Daily, Deals
from leaderboard.selectors import utc_today

OVERVIEW_ROWS = 10
# The switches' words, short enough for a phone; the page's lede names the board in full.
RULES = ((Variant.TRIPEAKS.value, _("TriPeaks")), (Variant.NOWRAP.value, _("No wrap")))
DEALS = ((Deals.RANDOM.value, _("Random deals")), (Deals.WINNABLE.value, _("Winnable only")))
PERIODS = (("all", _("All time")), ("week", _("This week")))
VIEWS = ((False, _("All games")), (True, _("Clean (no hints)")))
# The boards' titles on the pages, in the reader's language (the API keeps BOARD_TITLES' English).
TITLES: Final = {
    BoardKind.BEST: _("Best score"),
    BoardKind.WINS: _("Most wins"),
    BoardKind.RATE: _("Best win rate"),
    BoardKind.STREAK: _("Longest win streak"),
}


def _user_id(request: HttpRequest) -> int | None:
    return request.user.pk if request.user.is_authenticated else None


def _see_other(url: str) -> HttpResponseRedirect:
    return HttpResponseRedirect(url, status=303)


def _daily_board(request: HttpRequest, daily: Daily) -> dict[str, Any]:
    """The day's board page asked for, and the visitor's place on it."""
    board = DailyBoard(daily.id)
    user_id = _user_id(request)
    return {
        "page": boards.board_page(board, page_number(request.GET.get("page"))),
        "rank": boards.rank_of(user_id, board) if user_id is not None else None,
    }


@require_safe
def daily_today(request: HttpRequest) -> HttpResponse:
    """Today's challenge: the commitment to its seed, the time left, the attempt, the board."""
    now = timezone.now()
    daily_attempts_close(now=now)  # yesterday's board, linked from here, is final
    daily = challenge.daily_for(utc_today(now), now=now)
    attempt = selectors.daily_attempt_of(daily, _user_id(request))
    share = None
    if attempt is not None and attempt.game.is_over:
        share = selectors.daily_share_of(attempt.game, base_url=request.build_absolute_uri("/"))
    yesterday = Daily.objects.filter(date__lt=daily.date).order_by("-date").first()
    board = _daily_board(request, daily)
    return render(
        request,
        "leaderboard/daily.html",
        {
            "daily": daily,
            "attempt": attempt,
            "share": share,
            "preview": Preview(
                title=f"TriPeaks daily challenge, {daily.date:%-d %B %Y}",
                description=(
                    "One deal for everyone today, proven winnable before it was dealt: one ranked"
                    " attempt each, one board."
                ),
            ),
            "ends_at_ms": int(daily.ends_at.timestamp() * 1000),
            "yesterday": yesterday,
            **board,
            # Only the first page follows the day live: later ones would shift under the reader.
            "socket_path": f"/ws/daily/{daily.date}/" if board["page"].number == 1 else None,
        },
    )


@require_POST
def daily_start(request: HttpRequest) -> HttpResponse:
    """Start (or resume) the visitor's ranked attempt at today's challenge."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("leaderboard:daily"))
    now = timezone.now()
    game = challenge.daily_attempt_start(user=request.user, day=utc_today(now), now=now)
    return _see_other(game.get_absolute_url())


@require_safe
def daily_day(request: HttpRequest, day: date) -> HttpResponse:
    """A past day's challenge: its seed and the check of the commitment, par, and its board."""
    today = utc_today()
    if day == today:
        return HttpResponseRedirect(reverse("leaderboard:daily"))
    if day > today:
        raise Http404("This day has not begun")
    daily = get_object_or_404(Daily, date=day)
    daily_attempts_close()  # the day is over: its board shows every attempt, closed at midnight
    par = selectors.daily_par(daily)
    if par is None:  # nobody made it ahead (manage.py daily_prepare): the deal is public now
        par = challenge.daily_par_compute(daily=daily)
    return render(
        request,
        "leaderboard/daily_day.html",
        {
            "daily": daily,
            "par": par,
            "seed_revealed": selectors.daily_seed_revealed(daily),
            "preview": Preview(
                title=f"TriPeaks daily challenge, {daily.date:%-d %B %Y}",
                description=f"Par {par}. The day's final board, its deal, and a game on it.",
            ),
            "attempt": selectors.daily_attempt_of(daily, _user_id(request)),
            **_daily_board(request, daily),
        },
    )


@require_POST
def daily_play(request: HttpRequest, day: date) -> HttpResponse:
    """Play a day's deal unranked: a past day for anyone, today's after one's ranked attempt."""
    now = timezone.now()
    today = utc_today(now)
    if day > today:
        raise Http404("This day has not begun")
    if day == today:
        if not request.user.is_authenticated:
            return redirect_to_login(reverse("leaderboard:daily"))
        daily = challenge.daily_for(day, now=now)
    else:
        daily = get_object_or_404(Daily, date=day)
    player = player_for_request(request, create_guest_key=True)
    try:
        game = challenge.daily_replay_start(player=player, daily=daily, now=now)
    except ClientError as error:
        messages.error(request, error.in_words())
        return _see_other(reverse("leaderboard:daily"))
    return _see_other(game.get_absolute_url())


@require_safe
def daily_archive(request: HttpRequest) -> HttpResponse:
    """Past days' challenges, newest first, fifty to a page."""
    number = page_number(request.GET.get("page"))
    days = selectors.daily_archive(utc_today(), number)
    return render(
        request,
        "leaderboard/archive.html",
        {
            "days": days[: selectors.PAGE_SIZE],
            "number": number,
            "has_next": len(days) > selectors.PAGE_SIZE,
        },
    )


@dataclass(frozen=True, slots=True)
class BoardChoice:
    """What a leaderboard page asks for: the period, the view (clean games only or all), the
    variant and the deal pool. Anything unknown in the query string stands for the default."""

    period: str = "all"
    clean: bool = False
    variant: str = Variant.TRIPEAKS
    deals: str = Deals.RANDOM

    @classmethod
    def of(cls, request: HttpRequest) -> "BoardChoice":
        variant = request.GET.get("variant", "")
        deals = request.GET.get("deals", "")
        return cls(
            period="week" if request.GET.get("period") == "week" else "all",
            clean=request.GET.get("view") == "clean",
            variant=variant if variant in Variant.values else Variant.TRIPEAKS,
            deals=deals if deals in Deals.values else Deals.RANDOM,
        )

    def board(self, kind: BoardKind) -> Board:
        return boards.board_for(
            kind,
            weekly=self.period == "week",
            clean=self.clean,
            variant=self.variant,
            deals=self.deals,
        )

    @property
    def query(self) -> str:
        """The choice as a query string (no leading ``?``)."""
        return urlencode(
            {
                "variant": self.variant,
                "deals": self.deals,
                "period": self.period,
                "view": "clean" if self.clean else "all",
            }
        )

    def groups(self) -> list[dict[str, Any]]:
        """The switches of the page: each group's options, with the query string each leads to
        (the other groups kept) and whether it is the current one."""
        groups = (
            (_("Rules"), [(replace(self, variant=v), text) for v, text in RULES]),
            (_("Deals"), [(replace(self, deals=d), text) for d, text in DEALS]),
            (
                _("Period"),
                [(replace(self, period=p), text) for p, text in PERIODS],
            ),
            (
                _("Games counted"),
                [(replace(self, clean=c), text) for c, text in VIEWS],
            ),
        )
        return [
            {
                "label": label,
                "options": [
                    {"text": text, "query": other.query, "current": other == self}
                    for other, text in options
                ],
            }
            for label, options in groups
        ]

    @property
    def names(self) -> str:
        """The variant and the deal pool, in words: "TriPeaks, random deals"."""
        return f"{Variant(self.variant).label}, {Deals(self.deals).label.lower()}"


def _board_context(choice: BoardChoice) -> dict[str, Any]:
    board = choice.board(BoardKind.BEST)
    return {
        "choice": choice,
        "week": board.period if board.period != ALL_TIME else None,
        "min_games": WIN_RATE_MIN_GAMES,
    }


@require_safe
def leaderboards(request: HttpRequest) -> HttpResponse:
    """The four boards of a variant and deal pool, all time or this week, clean games only or
    all: the top of each."""
    choice = BoardChoice.of(request)
    user_id = _user_id(request)
    tops = []
    for kind in BoardKind:
        board = choice.board(kind)
        tops.append(
            {
                "kind": kind.value,
                "title": TITLES[kind],
                "page": boards.board_page(board, 1, size=OVERVIEW_ROWS),
                "rank": boards.rank_of(user_id, board) if user_id is not None else None,
            }
        )
    return render(
        request, "leaderboard/leaderboards.html", {"boards": tops, **_board_context(choice)}
    )


@require_safe
def board(request: HttpRequest, kind: str) -> HttpResponse:
    """One board in full, fifty to a page."""
    try:
        board_kind = BoardKind(kind)
    except ValueError:
        raise Http404("No such board") from None
    choice = BoardChoice.of(request)
    chosen = choice.board(board_kind)
    user_id = _user_id(request)
    return render(
        request,
        "leaderboard/board.html",
        {
            "kind": board_kind.value,
            "title": TITLES[board_kind],
            "page": boards.board_page(chosen, page_number(request.GET.get("page"))),
            "rank": boards.rank_of(user_id, chosen) if user_id is not None else None,
            "query": f"{choice.query}&",
            **_board_context(choice),
        },
    )


@require_safe
def row_games(request: HttpRequest, username: str) -> HttpResponse:
    """Every game a player's row counts on the boards chosen (their wins, rate and streak), as
    ``tripeaks-game/1`` documents, one JSON per line: ``python -m game.engine verify -`` replays
    them all.

    Written whole rather than streamed: under ASGI, Django reads a synchronous stream into memory
    before sending it anyway.
    """
    player = get_object_or_404(get_user_model(), username=username, is_active=True)
    choice = BoardChoice.of(request)
    games = boards.row_games(player.pk, choice.board(BoardKind.WINS)).select_related("owner")
    lines = "".join(
        json.dumps(game_document(game)) + "\n"
        for game in games.iterator(chunk_size=200)
        if deal_revealed(game)
    )
    response = HttpResponse(lines, content_type="application/x-ndjson")
    name = f"tripeaks-{username}-{choice.variant}-{choice.deals}-{choice.period}"
    response["Content-Disposition"] = f'attachment; filename="{name}.jsonl"'
    return response


@require_safe
def daily_card(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """A finished ranked daily attempt's preview picture: its share grid (no card)."""
    game = get_object_or_404(Game, id=game_id)
    result = selectors.daily_result_of(game)
    if result is None:
        raise Http404("Only a finished daily challenge attempt has a result card")
    response = HttpResponse(share_card.daily_card_cached(str(game.id), result), "image/png")
    response["Cache-Control"] = f"public, max-age={share_card.CACHE_SECONDS}"
    return response
