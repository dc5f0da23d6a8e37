"""Through nginx, as players reach the site: TLS, sign-in and its throttling, whole games over the
websocket upgrade, and headers a client cannot forge."""

import asyncio
import gzip
import json
import re
import time

import pytest
from axes.models import AccessAttempt
from django.contrib.auth.hashers import PBKDF2PasswordHasher
from django.contrib.auth.models import User

from deploy.clients import (
    PLAY_PATH,
    Visitor,
    frame_seq,
    game_player,
    open_game_socket,
    receive_json,
)
from deploy.topology import Topology
from game.engine import Deal, GameState, Variant
from game.models import Game, Move
from game.players import Player as GamePlayer
from game.services import game_start
from tests.accounts.helpers import PASSWORD, make_player, signed_in_session

pytestmark = pytest.mark.django_db(transaction=True)


def player_with_production_password(username: str = "ada") -> User:
    """A player whose password the web processes can check: they hash with production's hasher,
    not the fast one the test settings use."""
    user = make_player(username, email=f"{username}@example.com")
    hasher = PBKDF2PasswordHasher()
    user.password = hasher.encode(PASSWORD, hasher.salt())
    user.save(update_fields=["password"])
    return user


def sign_in(visitor: Visitor, password: str, forged: dict[str, str] | None = None) -> int:
    response = visitor.post_form(
        "/accounts/login/", {"username": "ada", "password": password}, headers=forged
    )
    return response.status


def test_plain_http_is_sent_to_https_and_health_answers_on_both(topology: Topology) -> None:
    visitor = Visitor(topology)
    redirect = visitor.get("/daily/?page=2", plain=True)
    assert redirect.status == 301
    assert redirect.headers["Location"] == f"{topology.url}/daily/?page=2"
    assert visitor.get("/nginx-health", plain=True).status == 200
    health = visitor.get("/healthz")
    assert (health.status, health.json()) == (200, {"status": "ok"})


def test_pages_come_over_tls_with_production_headers(topology: Topology) -> None:
    """DEBUG is off behind the proxy: HSTS, secure cookies, no server version, and a 404 page
    that is the site's own rather than a debug page."""
    visitor = Visitor(topology)
    page = visitor.get("/accounts/login/")
    assert page.status == 200
    assert page.headers["Strict-Transport-Security"].startswith("max-age=31536000")
    assert page.headers["Server"] == "nginx"
    assert "Secure" in (page.headers["Set-Cookie"] or "")
    missing = visitor.get("/no/such/page/")
    assert missing.status == 404
    assert "Traceback" not in missing.text
    assert "URLconf" not in missing.text


def test_signing_in_through_the_proxy(topology: Topology) -> None:
    player_with_production_password()
    visitor = Visitor(topology)
    assert sign_in(visitor, PASSWORD) == 302
    profile = visitor.get("/accounts/profile/")
    assert profile.status == 200
    assert "ada" in profile.text


def test_forged_forwarded_for_does_not_escape_the_lockout(topology: Topology) -> None:
    """Five wrong passwords, each claiming to come from a new address: the pair is locked all
    the same, at the address nginx saw, and the right password then waits too."""
    player_with_production_password()
    visitor = Visitor(topology)
    statuses = [
        sign_in(
            visitor, f"guess-{n}", {"X-Forwarded-For": f"198.51.100.{n}", "X-Real-IP": "1.2.3.4"}
        )
        for n in range(5)
    ]
    assert statuses == [200, 200, 200, 200, 429]
    assert sign_in(visitor, PASSWORD, {"X-Forwarded-For": "203.0.113.77"}) == 429
    assert set(AccessAttempt.objects.values_list("ip_address", flat=True)) == {"127.0.0.1"}


def test_a_forged_scheme_is_not_believed(topology: Topology) -> None:
    """Over TLS, a client that claims plain HTTP is not redirected (the site knows it is secure),
    and the cookies it gets are secure ones."""
    visitor = Visitor(topology)
    page = visitor.get("/accounts/login/", headers={"X-Forwarded-Proto": "http"})
    assert page.status == 200
    assert "Secure" in (page.headers["Set-Cookie"] or "")


def test_a_game_started_and_played_to_its_end_through_nginx(topology: Topology) -> None:
    """A signed-in player starts a game with the page's form and plays it out on the websocket,
    every move acknowledged and stored."""
    player_with_production_password()
    visitor = Visitor(topology)
    assert sign_in(visitor, PASSWORD) == 302
    started = visitor.post_form("/games/new", {"variant": "tripeaks"})
    assert started.status == 303
    game_id = started.headers["Location"].rstrip("/").rsplit("/", 1)[1]
    assert visitor.get(f"/games/{game_id}/").status == 200

    player = game_player(topology, game_id, visitor.cookies["sessionid"])
    final = asyncio.run(player.play())
    assert final["status"] in {"won", "lost"}
    assert player.reconnects == 0
    stored = list(
        Move.objects.filter(game_id=game_id).order_by("seq").values_list("move", flat=True)
    )
    assert stored == [player.acknowledged[seq] for seq in range(len(stored))]
    assert Game.objects.get(id=game_id).status == final["status"]


def test_two_tabs_on_the_two_processes_see_each_others_moves(topology: Topology) -> None:
    """nginx spreads sockets over both processes; a move made on one reaches the other's socket."""
    user = make_player()
    game = game_start(
        player=GamePlayer(user_id=user.pk, guest_key=""), variant=Variant.TRIPEAKS, seed="1"
    )
    session = signed_in_session(user)
    earlier = len(topology.upstreams(PLAY_PATH))  # the sockets of the tests before

    async def two_tabs() -> list[int]:
        tabs = [await open_game_socket(topology, game.id, session) for _ in range(4)]
        try:
            for tab in tabs:
                assert (await receive_json(tab))["type"] == "state"
            await tabs[0].send(json.dumps({"type": "move", "seq": 0, "move": "draw"}))
            return [frame_seq(await receive_json(tab)) for tab in tabs]
        finally:
            for tab in tabs:
                await tab.close()

    assert asyncio.run(two_tabs()) == [1, 1, 1, 1]
    time.sleep(0.5)  # nginx writes a websocket's line once it has closed
    assert set(topology.upstreams(PLAY_PATH)[earlier:]) == {web.port for web in topology.webs}
    state = GameState.replay(Deal.from_seed("1"), Variant.TRIPEAKS, ["draw"])
    assert Game.objects.get(id=game.id).move_count == state.seq


def test_static_files_are_hashed_compressed_and_cached_for_a_year(topology: Topology) -> None:
    """A page links its scripts by hashed name; nginx serves the compressed copy collectstatic
    made, cached for good, and a plain name for an hour."""
    visitor = Visitor(topology)
    page = visitor.get("/rules/").text
    stylesheet = re.search(r'href="(/static/css/site\.[0-9a-f]{12}\.css)"', page)
    assert stylesheet is not None, page[:2000]
    hashed = visitor.get(stylesheet.group(1), headers={"Accept-Encoding": "gzip"})
    assert hashed.status == 200
    assert hashed.headers["Content-Encoding"] == "gzip"
    assert hashed.headers["Cache-Control"] == "public, max-age=31536000, immutable"
    original = (topology.static_root / "css" / "site.css").read_bytes()
    assert gzip.decompress(hashed.body) == original
    plain = visitor.get("/static/css/site.css")
    assert plain.headers["Cache-Control"] == "public, max-age=3600"
    assert plain.body == original
