"""Pages of the races app: the lobby, a room, the ratings board, and the room's commands as plain
forms (the room page sends them over its websocket when it can; these work without JavaScript).
Views stay thin: they check access, call a service or selectors, render."""

from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.models import AbstractBaseUser
from django.contrib.auth.views import redirect_to_login
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseRedirect
from django.shortcuts import render
from django.urls import reverse
from django.views.decorators.http import require_POST, require_safe

from accounts.selectors import board_preferences
from core.errors import ClientError
from core.formats import page_number
from game.engine import Variant
from races import challenges, selectors, services
from races.forms import ChallengeForm, OpenRoomForm
from races.models import Room, RoomKind, RoomState
from races.selectors import RATINGS_MIN_RACES


def _see_other(url: str) -> HttpResponseRedirect:
    return HttpResponseRedirect(url, status=303)


def _room_or_404(code: str, kind: str = RoomKind.RACE) -> Room:
    room = selectors.room_for_code(code)
    if room is None or room.kind != kind:
        raise Http404("There is no such room")
    return room


def _lobby(
    request: HttpRequest,
    form: OpenRoomForm | None = None,
    challenge_form: ChallengeForm | None = None,
    status: int = 200,
) -> HttpResponse:
    return render(
        request,
        "races/lobby.html",
        {
            "rooms": selectors.lobby_rooms(),
            "results": selectors.recent_results(),
            "form": form or OpenRoomForm(),
            "challenge_form": challenge_form or ChallengeForm(),
        },
        status=status,
    )


@require_safe
def lobby(request: HttpRequest) -> HttpResponse:
    """Public rooms waiting for racers, the forms to open one or make a friend challenge, and
    the latest results."""
    return _lobby(request)


@require_POST
def room_open(request: HttpRequest) -> HttpResponse:
    """Open a room (signed-in players only) and go to it."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("races:lobby"))
    form = OpenRoomForm(request.POST)
    if not form.is_valid():
        return _lobby(request, form=form, status=400)
    room = services.room_open(
        user=request.user,
        variant=Variant(form.cleaned_data["variant"]),
        public=form.cleaned_data["visibility"] == "public",
        time_limit_s=form.time_limit_s(),
    )
    return _see_other(room.get_absolute_url())


@require_safe
def room(request: HttpRequest, code: str) -> HttpResponse:
    """A room: its racers and their progress, live; the visitor's own board while they race."""
    challenge_room = selectors.room_for_code(code)
    if challenge_room is not None and challenge_room.is_challenge:
        return HttpResponseRedirect(challenge_room.get_absolute_url())
    found = _room_or_404(code)
    user_id = request.user.pk if request.user.is_authenticated else None
    snapshot = selectors.room_snapshot(found)
    game = selectors.own_game(found, user_id)
    context: dict[str, Any] = {
        "room": found,
        "snapshot": snapshot.frame,
        "is_racer": selectors.is_racer(found, user_id),
        "is_host": user_id == found.host_id,
        "game": game,
        "socket_path": f"/ws/races/{found.code}/",
        "room_url": request.build_absolute_uri(found.get_absolute_url()),
    }
    if game is not None:
        context["preferences"] = board_preferences(request.user)
    return render(request, "races/room.html", context)


def _command(
    request: HttpRequest, code: str, action: Callable[[str, AbstractBaseUser], object]
) -> HttpResponse:
    """Run a room command for a signed-in player and go back to the room."""
    found = _room_or_404(code)
    user = request.user
    if not isinstance(user, AbstractBaseUser):  # a guest
        return redirect_to_login(found.get_absolute_url())
    try:
        action(found.code, user)
    except ClientError as error:
        messages.error(request, error.in_words())
    return _see_other(found.get_absolute_url())


@require_POST
def room_join(request: HttpRequest, code: str) -> HttpResponse:
    return _command(request, code, lambda code, user: services.room_join(code=code, user=user))


@require_POST
def room_leave(request: HttpRequest, code: str) -> HttpResponse:
    """Leave the room; during a round, one's game is given up. (Over the websocket, the game's
    analysis starts at once; from this form, at the analysis loop's next look.)"""
    return _command(request, code, lambda code, user: services.room_leave(code=code, user=user))


@require_POST
def race_start(request: HttpRequest, code: str) -> HttpResponse:
    """The host starts the race, or the next one (a rematch)."""
    return _command(request, code, lambda code, user: services.race_start(code=code, user=user))


@require_safe
def ratings(request: HttpRequest) -> HttpResponse:
    """The race ratings board, fifty to a page."""
    page = selectors.ratings_page(page_number(request.GET.get("page")))
    own = selectors.rating_of(request.user.pk) if request.user.is_authenticated else None
    return render(
        request,
        "races/ratings.html",
        {"page": page, "own": own, "min_races": RATINGS_MIN_RACES},
    )


@require_POST
def challenge_open(request: HttpRequest) -> HttpResponse:
    """Make a friend challenge (signed-in players only) and go to its page, to share its link."""
    if not request.user.is_authenticated:
        return redirect_to_login(reverse("races:lobby") + "#challenge-title")
    form = ChallengeForm(request.POST)
    if not form.is_valid():
        return _lobby(request, challenge_form=form, status=400)
    challenge_room = challenges.challenge_open(
        user=request.user,
        variant=Variant(form.cleaned_data["variant"]),
        players=form.cleaned_data["players"],
        open_days=form.cleaned_data["open_days"],
        time_limit_s=form.time_limit_s(),
    )
    return _see_other(challenge_room.get_absolute_url())


@require_safe
def challenge(request: HttpRequest, code: str) -> HttpResponse:
    """A friend challenge: its link, its players ranked live, the visitor's own game to play;
    once it is over, the deal and everyone's replay. Reading it ends it when it is due."""
    found = _room_or_404(code, RoomKind.CHALLENGE)
    services.race_end_if_due(code=found.code)
    found.refresh_from_db()
    user_id = request.user.pk if request.user.is_authenticated else None
    snapshot = selectors.room_snapshot(found)
    game = selectors.own_game(found, user_id)
    round_ = selectors.current_round(found)
    finished = found.state == RoomState.FINISHED
    played = sum(1 for racer in snapshot.frame["racers"] if racer["progress"] is not None)
    context: dict[str, Any] = {
        "room": found,
        "round": round_,
        "snapshot": snapshot.frame,
        "game": game,
        "finished": finished,
        "can_play": game is None and not finished and played < (found.players or 0),
        "seed": round_.seed if finished and round_ is not None else None,
        "socket_path": f"/ws/races/{found.code}/",
        "challenge_url": request.build_absolute_uri(found.get_absolute_url()),
    }
    return render(request, "races/challenge.html", context)


@require_POST
def challenge_play(request: HttpRequest, code: str) -> HttpResponse:
    """Play the challenge: one's own game on its deal, dealt the first time (one game each)."""
    found = _room_or_404(code, RoomKind.CHALLENGE)
    user = request.user
    if not isinstance(user, AbstractBaseUser):  # a guest
        return redirect_to_login(found.get_absolute_url())
    try:
        game = challenges.challenge_play(code=found.code, user=user)
    except ClientError as error:
        messages.error(request, error.in_words())
        return _see_other(found.get_absolute_url())
    return _see_other(game.get_absolute_url())
