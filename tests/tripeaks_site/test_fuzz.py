"""No input yields a 5xx: every URL of the site, asked by a visitor and by a signed-in player with
bad ids, NUL bytes, huge numbers, over-long fields, every method, and malformed bodies.

The cases come from ``tests/fuzz.py``; each test asks all of its cases and lists every one that
got a 5xx (with the exception behind it), rather than stopping at the first.
"""

import json
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import timedelta
from urllib.parse import urlsplit

import pytest
from channels.db import database_sync_to_async
from channels.testing import WebsocketCommunicator
from django.conf import settings
from django.contrib.auth.models import User
from django.contrib.auth.tokens import default_token_generator
from django.http import HttpResponse
from django.shortcuts import resolve_url
from django.test import Client
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes
from django.utils.http import urlsafe_base64_encode

from game.engine import Variant
from game.models import Game, Mode
from game.players import Player
from game.services import game_start, new_seed
from leaderboard.models import Daily, DailyAttempt
from leaderboard.selectors import commitment_of, utc_today
from races.services import room_open
from tests.accounts.helpers import make_player, play_out, signed_in_session
from tests.fuzz import (
    FORGED_SESSION,
    UNROUTED_SOCKET_PATHS,
    Fill,
    Request,
    Route,
    Target,
    Values,
    Vocabulary,
    bad_inputs,
    methods_to_ask,
    site_routes,
    socket_frames,
    targets,
)
from tests.sockets import socket_to
from tripeaks_site.asgi import websocket_routes

# Each request commits on its own, as on the site: one that fails on the database must not
# poison the ones after it (PostgreSQL aborts the whole transaction).
pytestmark = pytest.mark.django_db(transaction=True)


@dataclass(frozen=True, slots=True)
class World:
    """What the fuzz aims at: two players (``ada`` is the signed-in actor), games of each and of
    a guest, days of the daily challenge, a race room."""

    ada: User
    values: Values


def daily(day_offset: int) -> Daily:
    seed = new_seed()
    return Daily.objects.create(
        date=utc_today() + timedelta(days=day_offset),
        seed=seed,
        commitment=commitment_of(seed),
        par=1000,
        created_at=timezone.now(),
    )


def world_build() -> World:
    ada, bob = make_player("ada"), make_player("bob", email="bob@example.com")
    ada_game = game_start(player=Player(user_id=ada.pk, guest_key=""), variant=Variant.TRIPEAKS)
    bob_playing = game_start(player=Player(user_id=bob.pk, guest_key=""), variant=Variant.TRIPEAKS)
    bob_finished = game_start(player=Player(user_id=bob.pk, guest_key=""), variant=Variant.TRIPEAKS)
    play_out(bob_finished)
    guest_game = game_start(
        player=Player(user_id=None, guest_key="a-guest"), variant=Variant.TRIPEAKS
    )
    yesterday, today = daily(-1), daily(0)
    bob_daily = Game.objects.create(
        seed=today.seed, owner=bob, mode=Mode.DAILY, started_at=timezone.now(),
        reveal_after=today.ends_at,
    )  # fmt: skip
    DailyAttempt.objects.create(daily=today, user=bob, game=bob_daily, created_at=timezone.now())
    room = room_open(user=bob, variant=Variant.TRIPEAKS, public=True, time_limit_s=None)
    games = [bob_playing, bob_finished, ada_game, guest_game, bob_daily]
    real = {
        "game_id": [str(game.id) for game in games],
        "username": [bob.username, ada.username],
        "code": [room.code],
        "day": [str(yesterday.date), str(today.date), str(today.date + timedelta(days=1))],
        "kind": ["best", "streak"],
        "uidb64": [urlsafe_base64_encode(force_bytes(bob.pk))],
        "token": [default_token_generator.make_token(bob), "set-password"],
        "user_id": [str(bob.pk)],
        "object_id": [str(bob_playing.id), str(bob.pk)],
        "id": [str(bob.pk)],
        "app_label": ["game"],
    }
    return World(ada=ada, values=Values(real, ("x", "1")))


def asked(client: Client, path: str, request: Request) -> HttpResponse:
    """The answer to one request; a 5xx raises AssertionError naming the exception behind it."""
    url = f"{path}?{request.query}" if request.query else path
    call = getattr(client, request.method.lower())
    headers = {} if request.headers is None else {"headers": request.headers}
    if request.body is None:
        response = call(url, **headers)
    elif request.content_type is None:
        response = call(url, request.body, **headers)
    else:
        response = call(url, request.body, content_type=request.content_type, **headers)
    if response.status_code >= 500:
        error = response.exc_info[1] if response.exc_info else None
        raise AssertionError(f"{response.status_code} {error!r}")
    return response


def sent_to_sign_in(response: HttpResponse) -> bool:
    """Whether the answer sends the visitor to a sign-in page (the view read nothing else)."""
    if response.status_code not in (301, 302, 303):
        return False
    location = urlsplit(response["Location"]).path
    return location in (resolve_url(settings.LOGIN_URL), reverse("admin:login"))


class Fuzz:
    """One actor's client and the 5xx answers it got."""

    def __init__(self, world: World, actor: str) -> None:
        self.world = world
        self.actor = actor
        self.client = Client(raise_request_exception=False)
        self.failures: list[str] = []
        self.session_key: str | None = None

    def sign_in(self) -> None:
        """Sign the player in, again whenever a case signed them out (signing out is the only
        thing that changes the session cookie of a signed-in player)."""
        if self.actor != "player":
            return
        cookie = self.client.cookies.get(settings.SESSION_COOKIE_NAME)
        if cookie is None or cookie.value != self.session_key:
            self.client.force_login(self.world.ada)
            self.session_key = self.client.cookies[settings.SESSION_COOKIE_NAME].value

    def ask(self, target: Target, request: Request) -> HttpResponse | None:
        self.sign_in()
        try:
            return asked(self.client, target.path, request)
        except AssertionError as error:
            self.failures.append(f"{target.route} as {target.path[:70]!r}, {request}: {error}")
            return None


def fuzz_site(actor: str) -> list[str]:
    """Ask every route of the site as ``actor``; the 5xx answers.

    First every path of real values is read with GET, to learn the names of the pages' form
    fields and which routes send this actor to sign in. Then each target is asked the methods
    ``tests.fuzz.methods_to_ask`` chooses, each method that is not answered ``405`` with bad
    input (all of it on a route's first path, one of each kind on its other paths).
    """
    fuzz = Fuzz(world_build(), actor)
    vocabulary = Vocabulary()
    refused: set[Route] = set()
    by_route = [(route, list(targets(route, fuzz.world.values))) for route in site_routes()]
    for route, route_targets in by_route:
        for target in route_targets:
            if target.fill == Fill.BAD:
                continue
            response = fuzz.ask(target, Request("GET"))
            if response is None:
                continue
            if target.fill == Fill.FIRST and sent_to_sign_in(response):
                refused.add(route)
            if response.status_code == 200 and "html" in response.get("Content-Type", ""):
                vocabulary.learn(response.content.decode())
    keys = vocabulary.keys
    for route, route_targets in by_route:
        reached = route not in refused
        for target in route_targets:
            for method in methods_to_ask(target, reached=reached):
                response = fuzz.ask(target, Request(method))
                if not reached or target.fill == Fill.BAD:
                    continue
                if response is not None and response.status_code == 405:
                    continue
                for request in bad_inputs(method, keys, full=target.fill == Fill.FIRST):
                    fuzz.ask(target, request)
    return fuzz.failures


@pytest.mark.parametrize("actor", ["visitor", "player"])
def test_no_request_gets_a_server_error(actor: str) -> None:
    failures = fuzz_site(actor)
    assert not failures, f"{len(failures)} requests got a 5xx:\n" + "\n".join(failures)


# ---- Websockets ---------------------------------------------------------------------------------


@dataclass(slots=True)
class SocketAnswer:
    """What a socket did: whether it accepted the connection, the frames it sent, and the close
    code it ended with (None: still open)."""

    accepted: bool
    frames: list[str | bytes]
    close_code: int | None


async def socket_answer(
    path: str, session_key: str | None, frames: Iterable[str | bytes] = ()
) -> SocketAnswer:
    """Connect to ``path``, send ``frames``, and read until the socket closes or falls quiet.
    An exception in the application is raised here."""
    socket = socket_to(path, session_key)
    accepted, code = await socket.connect(timeout=5)
    if not accepted:
        return SocketAnswer(False, [], code)
    answer = SocketAnswer(True, [], None)
    await _read_until_quiet(socket, answer)
    for frame in frames if answer.close_code is None else ():
        # Straight to the application: the communicator's own sender refuses an empty frame.
        key = "bytes" if isinstance(frame, bytes) else "text"
        await socket.send_input({"type": "websocket.receive", key: frame})
    if answer.close_code is None:
        await _read_until_quiet(socket, answer)
    await socket.disconnect()
    return answer


async def _read_until_quiet(socket: WebsocketCommunicator, answer: SocketAnswer) -> None:
    while answer.close_code is None and not await socket.receive_nothing(timeout=0.2):
        output = await socket.receive_output()
        if output["type"] == "websocket.close":
            answer.close_code = output.get("code", 1000)
        else:
            answer.frames.append(output.get("text") or output.get("bytes"))


def said_why(answer: SocketAnswer) -> bool:
    """Whether the last frame before the close was an error frame with a code."""
    if not answer.frames or not isinstance(answer.frames[-1], str):
        return False
    last = json.loads(answer.frames[-1])
    return last.get("type") == "error" and isinstance(last.get("code"), str)


def socket_targets(world: World) -> list[Target]:
    routes = site_routes(websocket_routes)
    return [target for route in routes for target in targets(route, world.values)]


@pytest.mark.asyncio
@pytest.mark.parametrize("actor", ["visitor", "player", "forger"])
async def test_no_socket_raises(actor: str) -> None:
    """Every socket route with real and bad values, and paths with no route, for a visitor, a
    signed-in player and a visitor with a forged session cookie: no exception, and a socket that
    closes says why (an error frame, then a 4xxx code)."""
    world = await database_sync_to_async(world_build)()
    session_key = {
        "visitor": None,
        "player": await database_sync_to_async(signed_in_session)(world.ada),
        "forger": FORGED_SESSION,
    }[actor]
    frames = list(socket_frames(world.values.real["game_id"]))
    failures: list[str] = []
    stayed_open = 0
    paths = [
        *((str(target.route), target.path) for target in socket_targets(world)),
        *(("unrouted", path) for path in UNROUTED_SOCKET_PATHS),
    ]
    for name, path in paths:
        try:
            answer = await socket_answer(path, session_key, frames)
        except Exception as error:
            failures.append(f"{name} as {path[:70]!r}: raised {error!r}")
            continue
        if answer.close_code is None:
            stayed_open += 1
        elif not (4000 <= answer.close_code < 5000 and said_why(answer)):
            failures.append(f"{name} as {path[:70]!r}: closed with {answer.close_code}, {answer}")
    assert not failures, f"{len(failures)} sockets failed:\n" + "\n".join(failures)
    assert stayed_open, "No socket stayed open to read the frames"
