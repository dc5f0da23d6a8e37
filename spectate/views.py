"""Pages of the spectate app: the live-now list and the watch page. Views stay thin: they ask the
rule (:mod:`spectate.selectors`) and render; the board itself comes over the watch socket."""

import uuid
from typing import Any

from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_safe

from accounts.selectors import board_preferences
from game.models import Game
from game.players import player_for_request
from spectate.selectors import LIVE_NOW_LIMIT, LIVE_WINDOW, LiveGameRow, game_watchable, live_now

LIVE_WINDOW_MINUTES = int(LIVE_WINDOW.total_seconds() // 60)


def _live_entry(row: LiveGameRow) -> dict[str, Any]:
    """A row of the live-now list as the page's script receives it, with its links."""
    return {
        **row.to_json(),
        "watch_url": reverse("spectate:watch", kwargs={"game_id": row.game_id}),
        "player_url": reverse("accounts:player", kwargs={"username": row.player}),
    }


@require_safe
def live(request: HttpRequest) -> HttpResponse:
    """Games in progress that their players let others watch, most recently active first."""
    return render(
        request,
        "spectate/live.html",
        {"rows": live_now(), "window_minutes": LIVE_WINDOW_MINUTES, "limit": LIVE_NOW_LIMIT},
    )


@require_safe
def live_json(request: HttpRequest) -> JsonResponse:
    """The live-now list as JSON, which the page polls to stay current."""
    return JsonResponse(
        {"games": [_live_entry(row) for row in live_now()], "window_minutes": LIVE_WINDOW_MINUTES}
    )


@require_safe
def watch(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """A game in progress, read-only, for anyone the rule lets watch it.

    Its player is sent to their own board, and everyone to a finished game's own page (the
    replay, behind its reveal gate).
    """
    game = get_object_or_404(Game.objects.select_related("owner"), id=game_id)
    if game.is_over or player_for_request(request).owns(game.owner_id, game.guest_key):
        return redirect(game.get_absolute_url())
    if not game_watchable(game.id):
        return render(request, "spectate/not_watchable.html", status=403)
    assert game.owner is not None  # the rule admits signed-in players' games only
    return render(
        request,
        "spectate/watch.html",
        {
            "game": game,
            "player": game.owner.get_username(),
            "preferences": board_preferences(request.user),
        },
    )
