"""'Download my data': every finished game as a tripeaks-game/1 document that verifies."""

import io
import json
from pathlib import Path

import pytest
from django.contrib.auth.models import User
from django.test import Client

from game.engine import Variant, verify
from game.engine.cli import main as engine_cli
from game.models import Game
from game.players import Player
from game.services import game_start
from tests.accounts.helpers import play_out

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(player: User) -> dict[str, Game]:
    """Ada's games: one played to the end, one given up, one no-wrap, and one still in play."""
    ada = Player(user_id=player.pk, guest_key="")
    played = {
        "over": game_start(player=ada, variant=Variant.TRIPEAKS),
        "given_up": game_start(player=ada, variant=Variant.TRIPEAKS),
        "nowrap": game_start(player=ada, variant=Variant.NOWRAP),
        "in_play": game_start(player=ada, variant=Variant.TRIPEAKS),
    }
    play_out(played["over"])
    play_out(played["given_up"], moves=4, abandon=True)
    play_out(played["nowrap"])
    play_out(played["in_play"], moves=3)
    return played


def test_the_export_round_trips_through_verify(
    games: dict[str, Game], player_client: Client, tmp_path: Path
) -> None:
    """Each document replays to its stored status and score, in the engine and its CLI."""
    response = player_client.get("/accounts/export.json")
    assert response.status_code == 200
    assert response["Content-Type"] == "application/json"
    assert response["Content-Disposition"].startswith('attachment; filename="tripeaks-export-')
    export = json.loads(response.content)
    assert export["format"] == "tripeaks-export/1"
    assert export["player"] == "ada"
    assert export["exported_at"].endswith("Z")
    documents = export["games"]
    assert {d["id"] for d in documents} == {
        str(games[k].id) for k in ("over", "given_up", "nowrap")
    }
    for document in documents:
        game = Game.objects.get(id=document["id"])
        assert document["format"] == "tripeaks-game/1"
        assert document["player"] == "ada"
        assert len(document["moves"]) == game.move_count
        state = verify(document)
        assert (state.status.value, state.score) == (game.status, game.score)

    files = []
    for document in documents:
        files.append(tmp_path / f"{document['id']}.json")
        files[-1].write_text(json.dumps(document))
    out = io.StringIO()
    assert engine_cli(["verify", *map(str, files)], out) == 0, out.getvalue()
    assert out.getvalue().count("OK") == 3


def test_a_game_in_play_is_listed_without_its_deal(
    games: dict[str, Game], player_client: Client
) -> None:
    """Only its id, start and move count: no seed, no deal, no move."""
    in_play = games["in_play"]
    raw = player_client.get("/accounts/export.json").content.decode()
    export = json.loads(raw)
    assert export["games_in_progress"] == [
        {
            "id": str(in_play.id),
            "started_at": in_play.started_at.isoformat().replace("+00:00", "Z"),
            "moves": 3,
        }
    ]
    assert in_play.seed not in raw
    assert str(in_play.id) not in {d["id"] for d in export["games"]}


def test_the_export_holds_the_account_and_its_settings(player_client: Client) -> None:
    export = player_client.get("/accounts/export.json").json()
    assert export["games"] == []
    assert export["account"]["username"] == "ada"
    assert export["account"]["email"] == "ada@example.com"
    assert export["account"]["settings"] == {
        "four_colour_deck": False,
        "animations": True,
        "confirm_draw_when_play_fits": False,
        "allow_watching": True,
    }


def test_the_export_holds_only_the_players_games(
    games: dict[str, Game], player_client: Client
) -> None:
    bea = User.objects.create_user("bea", password="x")
    theirs = game_start(player=Player(user_id=bea.pk, guest_key=""), variant=Variant.TRIPEAKS)
    play_out(theirs)
    guest = game_start(player=Player(user_id=None, guest_key="g"), variant=Variant.TRIPEAKS)
    play_out(guest)
    ids = {d["id"] for d in player_client.get("/accounts/export.json").json()["games"]}
    assert str(theirs.id) not in ids
    assert str(guest.id) not in ids
    assert len(ids) == 3


def test_the_data_page_explains_what_cannot_be_exported(
    games: dict[str, Game], player_client: Client
) -> None:
    html = player_client.get("/accounts/data/").content.decode()
    assert "every finished game (3 now)" in html
    assert "Games still in play cannot be exported" in html
    assert f'href="/games/{games["in_play"].id}/"' in html
    assert 'href="/accounts/export.json"' in html
    assert games["in_play"].seed not in html


def test_each_document_says_what_its_result_is(
    games: dict[str, Game], player: User, player_client: Client, tmp_path: Path
) -> None:
    """Mode, ranked, assisted and deal source, as the game knows them, in the account export and
    the game's own export; verify prints them."""
    over = games["over"]
    Game.objects.filter(id=over.id).update(assisted=True)
    replay = Game.objects.get(id=player_client.post(f"/games/{over.id}/again")["Location"][7:-1])
    play_out(replay)

    exported = {d["id"]: d for d in player_client.get("/accounts/export.json").json()["games"]}
    single = player_client.get(f"/games/{replay.id}/export.json").json()

    fields = ("mode", "ranked", "assisted", "deal_source")
    assert [exported[str(over.id)][name] for name in fields] == ["casual", True, True, "random"]
    assert [single[name] for name in fields] == ["casual", False, False, "replay"]
    assert exported[str(replay.id)] == single
    path = tmp_path / "replay.json"
    path.write_text(json.dumps(single))
    out = io.StringIO()
    assert engine_cli(["verify", str(path)], out) == 0
    assert (
        out.getvalue().rstrip().endswith("mode casual; ranked no; assisted no; deal_source replay")
    )
