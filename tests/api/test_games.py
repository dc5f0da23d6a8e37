"""A game's export and analysis through the API: the site's rules exactly (the same functions
decide), a game in play and a daily game before its day is over refused with the same 409s."""

from datetime import datetime, timedelta
from typing import Any

import pytest
from django.test import Client
from django.utils import timezone

from game.engine import Deal, GameState, Variant
from game.models import Game, GameAnalysis
from tests.api.conftest import World, body

pytestmark = pytest.mark.django_db


def clock_at(monkeypatch: pytest.MonkeyPatch, moment: datetime) -> None:
    monkeypatch.setattr(timezone, "now", lambda: moment)


def analysed(game: Game) -> dict[str, Any]:
    """Store an analysis of a finished game, as the analysis worker would (with a made-up par
    line: the solver is too slow for these tests, and the line's cards are what matters)."""
    state = GameState(Deal.from_seed(game.seed), Variant(game.variant))
    par_line = []
    while not state.status.is_over:
        move = state.legal_moves()[-1]
        par_line.append(move.text)
        state.apply(move)
    par = game.score + 100
    report: dict[str, Any] = {
        "status": game.status,
        "score": game.score,
        "par": par,
        "par_exact": True,
        "par_line": par_line,
        "share": round(game.score / (game.score + 100), 4),
        "winnable": True,
        "lost_at": 3,
        "draws_while_play_fit": [{"move": 2, "fits": ["7h"]}],
        "streaks": [{"first_move": 1, "length": 2, "points": 30, "broken_by": 3}],
        "plays_opening_nothing": [{"move": 1, "card": "9h", "openers": ["Tc"]}],
        "missed_king_ace": [{"move": 3, "waste": "Kd", "cards": ["Ah"]}],
        "stock_left_for_last": {"move": 30, "draws": 4},
    }
    GameAnalysis.objects.create(game=game, par=par, report=report, computed_at=timezone.now())
    return report


def test_a_finished_game_exports_the_same_document_as_the_site(
    client: Client, world: World
) -> None:
    answer = client.get(f"/api/v1/games/{world.finished.id}/export")
    site = client.get(f"/games/{world.finished.id}/export.json")

    assert answer.status_code == 200
    assert body(answer) == site.json()
    assert body(answer)["seed"] == world.finished.seed


@pytest.mark.parametrize("what", ["export", "analysis"])
def test_a_game_in_play_is_refused_with_the_sites_409(
    client: Client, world: World, what: str
) -> None:
    for game in (world.playing, world.guest_playing, world.daily_playing):
        answer = client.get(f"/api/v1/games/{game.id}/{what}")
        site = client.get(f"/games/{game.id}/{what}.json")

        assert answer.status_code == site.status_code == 409
        assert body(answer) == site.json()
        assert body(answer)["error"] == "game_in_progress"
        assert game.seed not in answer.content.decode()


def test_a_finished_daily_game_is_refused_until_its_day_is_over(
    client: Client, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    game = world.daily_done
    analysed(game)
    end = world.today.ends_at

    clock_at(monkeypatch, end - timedelta(microseconds=1))
    export = client.get(f"/api/v1/games/{game.id}/export")
    analysis = client.get(f"/api/v1/games/{game.id}/analysis")
    site = client.get(f"/games/{game.id}/export.json")

    assert export.status_code == analysis.status_code == 409
    assert body(export) == site.json()
    assert body(export) == {
        "error": "deal_hidden",
        "message": "This is a daily challenge's deal: it is published when the day is over",
        "reveal_after": end.isoformat().replace("+00:00", "Z"),
    }
    assert body(analysis)["error"] == "deal_hidden"
    for answer in (export, analysis):
        assert game.seed not in answer.content.decode()

    clock_at(monkeypatch, end)
    export = client.get(f"/api/v1/games/{game.id}/export")
    analysis = client.get(f"/api/v1/games/{game.id}/analysis")

    assert export.status_code == analysis.status_code == 200
    assert body(export) == client.get(f"/games/{game.id}/export.json").json()
    assert body(analysis) == client.get(f"/games/{game.id}/analysis.json").json()
    assert body(analysis)["par_line"]  # the whole analysis, now that the deal is public


def test_an_analysis_is_pending_then_served_whole(client: Client, world: World) -> None:
    pending = client.get(f"/api/v1/games/{world.finished.id}/analysis")
    report = analysed(world.finished)
    served = client.get(f"/api/v1/games/{world.finished.id}/analysis")

    assert (pending.status_code, body(pending)) == (202, {"status": "pending"})
    assert "Cache-Control" not in pending
    assert served.status_code == 200
    assert body(served) == report


@pytest.mark.parametrize("what", ["export", "analysis"])
def test_an_unknown_game_is_not_found(client: Client, world: World, what: str) -> None:
    for game_id in ("00000000-0000-4000-8000-000000000000", "not-a-uuid"):
        answer = client.get(f"/api/v1/games/{game_id}/{what}")

        assert answer.status_code == 404
        assert body(answer)["error"] == "not_found"
