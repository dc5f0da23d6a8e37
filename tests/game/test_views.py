"""The game's HTTP entry points: starting games, the game page, replays and exports."""

import json
import re
import uuid

import pytest
from django.test import Client
from django.utils import timezone

from game.engine import Deal, GameState, Variant, verify
from game.models import Game, Move
from game.players import GUEST_KEY_SESSION_FIELD

pytestmark = pytest.mark.django_db


def start_game(client: Client, variant: str | None = None) -> Game:
    response = client.post("/games/new", {"variant": variant} if variant else {})
    assert response.status_code == 303
    match = re.fullmatch(r"/games/([0-9a-f-]{36})/", response["Location"])
    assert match, response["Location"]
    return Game.objects.get(id=match.group(1))


def finish(game: Game) -> GameState:
    """Play a game to its end in the database (the first legal move each time), as stored."""
    state = GameState(Deal.from_seed(game.seed), Variant(game.variant))
    now = timezone.now()
    while not state.status.is_over:
        state.apply(state.legal_moves()[0])
    Move.objects.bulk_create(
        Move(game=game, seq=i, move=m.text, played_at=now) for i, m in enumerate(state.moves)
    )
    Game.objects.filter(id=game.id).update(
        status=state.status.value,
        score=state.score,
        cards_left=state.cards_left,
        move_count=state.seq,
        finished_at=now,
        duration_ms=int((now - game.started_at).total_seconds() * 1000),
    )
    game.refresh_from_db()
    return state


def test_a_guest_starts_a_game_and_gets_its_page(client: Client) -> None:
    """POST /games/new makes a casual game for the guest's session and sends them to it."""
    game = start_game(client)
    assert game.mode == "casual"
    assert game.variant == "tripeaks"
    assert game.owner is None
    assert game.guest_key == client.session[GUEST_KEY_SESSION_FIELD]
    page = client.get(f"/games/{game.id}/")
    assert page.status_code == 200


def test_the_game_page_reveals_no_hidden_card_and_no_seed(client: Client) -> None:
    """The page of a game in play names no face-down card, no stock card and not the seed."""
    game = start_game(client)
    html = client.get(f"/games/{game.id}/").content.decode()
    deal = Deal.from_seed(game.seed)
    assert game.seed not in html
    hidden = [card.code for card in (*deal.tableau[:18], *deal.stock)]
    named = set(re.findall(r"(?<![0-9A-Za-z])[A2-9TJQK][cdhs](?![0-9A-Za-z])", html))
    assert named.isdisjoint(hidden), named & set(hidden)


def test_the_variant_can_be_chosen(client: Client) -> None:
    assert start_game(client, "tripeaks-nowrap").variant == "tripeaks-nowrap"


def test_an_unknown_variant_is_refused(client: Client) -> None:
    response = client.post("/games/new", {"variant": "klondike"})
    assert response.status_code == 400
    assert not Game.objects.exists()


def test_starting_a_game_needs_the_csrf_token() -> None:
    """Another site cannot start games in a visitor's name."""
    response = Client(enforce_csrf_checks=True).post("/games/new")
    assert response.status_code == 403
    assert not Game.objects.exists()


def test_starting_a_game_needs_post(client: Client) -> None:
    assert client.get("/games/new").status_code == 405


def test_someone_elses_game_in_progress_is_forbidden(client: Client) -> None:
    game = start_game(client)
    response = Client().get(f"/games/{game.id}/")
    assert response.status_code == 403
    assert game.seed not in response.content.decode()


def test_an_unknown_game_is_not_found(client: Client) -> None:
    assert client.get(f"/games/{uuid.uuid4()}/").status_code == 404
    assert client.get("/games/not-a-uuid/").status_code == 404


def test_exporting_a_game_in_progress_is_refused_without_the_deal(client: Client) -> None:
    game = start_game(client)
    response = client.get(f"/games/{game.id}/export.json")
    assert response.status_code == 409
    body = response.content.decode()
    assert json.loads(body)["error"] == "game_in_progress"
    assert game.seed not in body
    assert Deal.from_seed(game.seed).stock[0].code not in body


def test_a_finished_game_exports_a_document_that_verifies(client: Client) -> None:
    """The export of a finished game is a tripeaks-game/1 document that the engine verifies."""
    game = start_game(client)
    state = finish(game)
    response = client.get(f"/games/{game.id}/export.json")
    assert response.status_code == 200
    document = response.json()
    assert document["format"] == "tripeaks-game/1"
    assert document["id"] == str(game.id)
    assert document["seed"] == game.seed
    assert document["score"] == state.score
    assert document["duration_ms"] is not None
    assert verify(document).score == state.score


def test_a_finished_game_shows_its_replay_to_anyone(client: Client) -> None:
    """Once over, the game's page is its replay, with the deal revealed, for any visitor."""
    game = start_game(client)
    state = finish(game)
    page = Client().get(f"/games/{game.id}/")
    assert page.status_code == 200
    html = page.content.decode()
    assert state.deal.tableau[0].code in html
    found = re.search(
        r'<script id="replay-frames" type="application/json">(.*?)</script>', html, re.S
    )
    assert found is not None
    frames = json.loads(found.group(1))
    assert len(frames) == state.seq + 1
    assert frames[-1]["score"] == state.score


def test_an_abandoned_game_replays_to_its_status(client: Client) -> None:
    game = start_game(client)
    Game.objects.filter(id=game.id).update(
        status="abandoned", finished_at=timezone.now(), duration_ms=1000
    )
    response = client.get(f"/games/{game.id}/export.json")
    assert response.json()["status"] == "abandoned"
    assert verify(response.json()).status.value == "abandoned"


def test_play_again_starts_a_new_game_on_the_same_deal(client: Client) -> None:
    game = start_game(client)
    finish(game)
    response = client.post(f"/games/{game.id}/again")
    assert response.status_code == 303
    again = Game.objects.exclude(id=game.id).get()
    assert (again.seed, again.variant, again.status) == (game.seed, game.variant, "in_progress")


def test_play_again_is_refused_while_the_deal_is_in_play(client: Client) -> None:
    game = start_game(client)
    assert client.post(f"/games/{game.id}/again").status_code == 400
    assert Game.objects.count() == 1
