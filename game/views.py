"""Pages of the game app. Views stay thin: they check access, call a service, render."""

import uuid

from django.http import (
    Http404,
    HttpRequest,
    HttpResponse,
    HttpResponseBadRequest,
    HttpResponseRedirect,
    JsonResponse,
)
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_POST, require_safe

from core.errors import ClientError, NotFound
from game import services
from game.engine import Variant
from game.forms import NewGameForm
from game.models import Game
from game.pages import game_page_context, home_page_context
from game.players import player_for_request
from game.selectors import (
    ANALYSED_ONCE_OVER,
    analysis_before_reveal,
    deal_revealed,
    finished_game,
    finished_hidden,
    game_analysis,
    game_export,
    game_over_check,
    unfinished_game,
)
from game.tutorial import STEPS, tutorial_frames


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The front page: where to start: the visitor's game still in play, a new game, today's
    daily challenge (from the providers of game.pages)."""
    context = {
        "unfinished": unfinished_game(player_for_request(request)),
        **home_page_context(request),
    }
    return render(request, "game/home.html", context)


@require_safe
def rules(request: HttpRequest) -> HttpResponse:
    """The rules of TriPeaks in the project's own words."""
    return render(request, "game/rules.html")


@require_safe
def tutorial(request: HttpRequest) -> HttpResponse:
    """A short run played out step by step on a fixed teaching deal."""
    return render(request, "game/tutorial.html", {"frames": tutorial_frames(), "steps": STEPS})


@require_POST
def new_game(request: HttpRequest) -> HttpResponse:
    """Start a casual game for whoever asks, signed in or not, and go to it."""
    form = NewGameForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest("Unknown variant")
    player = player_for_request(request, create_guest_key=True)
    game = services.game_start(
        player=player,
        variant=Variant(form.cleaned_data["variant"]),
        winnable_only=form.cleaned_data["winnable_only"],
    )
    return HttpResponseRedirect(game.get_absolute_url(), status=303)


@require_POST
def play_again(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """Start a new casual game on the deal of a finished game (its seed is public by then)."""
    player = player_for_request(request, create_guest_key=True)
    try:
        again = services.game_again(player=player, game_id=game_id)
    except NotFound:
        raise Http404("There is no such game") from None
    except ClientError as error:
        return HttpResponseBadRequest(error.in_words())
    return HttpResponseRedirect(again.get_absolute_url(), status=303)


@require_safe
def play(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """A game in progress for its player; a finished game's replay, with the deal, for anyone
    (a daily challenge's game: its result only, until the day is over)."""
    game = get_object_or_404(Game, id=game_id)
    if game.is_over:
        context = game_page_context(request, game)
        if not deal_revealed(game):
            return render(
                request, "game/finished_hidden.html", {**finished_hidden(game), **context}
            )
        return render(request, "game/finished.html", {**finished_game(game), **context})
    player = player_for_request(request)
    if not player.owns(game.owner_id, game.guest_key):
        return render(request, "game/forbidden.html", {"game": game}, status=403)
    return render(request, "game/play.html", {"game": game, **game_page_context(request, game)})


@require_safe
def analysis(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """A finished game's analysis: 200 with it, 202 while it is being computed."""
    game = get_object_or_404(Game, id=game_id)
    try:
        game_over_check(game, ANALYSED_ONCE_OVER)
    except ClientError as error:
        return JsonResponse(error.body(), status=409)
    report = game_analysis(game)
    if report is None:
        return JsonResponse({"status": "pending"}, status=202)
    if not deal_revealed(game):
        own = player_for_request(request).owns(game.owner_id, game.guest_key)
        report = analysis_before_reveal(report, own=own)
    return JsonResponse(report)


@require_safe
def export(request: HttpRequest, game_id: uuid.UUID) -> HttpResponse:
    """The ``tripeaks-game/1`` document of a finished game; never the deal of one in play, nor
    of a daily challenge's game before its day is over."""
    game = get_object_or_404(Game, id=game_id)
    try:
        document = game_export(game)
    except ClientError as error:
        return JsonResponse(error.body(), status=409)
    response = JsonResponse(document, json_dumps_params={"indent": 2})
    response["Content-Disposition"] = f'attachment; filename="tripeaks-{game.id}.json"'
    return response
