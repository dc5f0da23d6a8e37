"""One board per variant and deal pool, switched on the page like the period and the view; and
every row links to what it counts: a best score to its game's replay and export, a row of the
other boards to all its games, which the engine's verify replays."""

import json
import re
import uuid
from collections.abc import Callable
from datetime import timedelta

import pytest
from django.contrib.auth.models import User
from django.test import Client

from game.engine import Deal, Variant
from game.engine.cli import verify_text
from game.engine.solver import solve
from game.models import DealSource, Game, Status
from game.players import Player
from game.services import game_start
from leaderboard import challenge
from leaderboard.boards import Board, BoardKind, DailyBoard, board_page, row_games
from tests.accounts.helpers import signed_in
from tests.leaderboard.conftest import Clock
from tests.leaderboard.helpers import DAY, at, finished_game, play_out, ranked_result

pytestmark = pytest.mark.django_db

W = Status.WON
Players = Callable[..., list[User]]
NOWRAP = Variant.NOWRAP.value


def names(board: Board | DailyBoard) -> list[str]:
    return [row.player for row in board_page(board).rows]


def test_a_no_wrap_game_never_appears_on_the_standard_board(
    clock: Clock, players: Players, client: Client
) -> None:
    clock.set(at(DAY, 12))
    ada, bob = players(2)
    finished_game(ada, score=3000, status=W, variant=Variant.NOWRAP, finished_at=at(DAY, 9))
    finished_game(bob, score=500, status=W, finished_at=at(DAY, 9))

    for kind in BoardKind:
        if kind == BoardKind.RATE:
            continue  # nobody has ten games
        assert names(Board(kind)) == ["p001"], kind
        assert names(Board(kind, variant=NOWRAP)) == ["p000"], kind
    standard = client.get("/leaderboards/").content.decode()
    nowrap = client.get(f"/leaderboards/?variant={NOWRAP}").content.decode()
    assert "p000" not in standard
    assert "p001" in standard
    assert "p000" in nowrap
    assert "p001" not in nowrap
    assert "TriPeaks without wrap, random deals" in nowrap


def test_winnable_deals_count_on_their_own_boards_only(players: Players) -> None:
    """Ten wins out of ten on winnable deals, and two out of ten on random ones: each pool's
    boards see their own ten games."""
    (ada,) = players(1)
    for minute in range(10):
        finished_game(
            ada,
            score=900,
            status=W,
            deal_source=DealSource.WINNABLE,
            finished_at=at(DAY, 9, minute),
        )
        status = W if minute < 2 else Status.LOST
        finished_game(ada, score=100, status=status, finished_at=at(DAY, 10, minute))

    def rate(deals: str) -> list[tuple[int | None, int | None, int | None]]:
        rows = board_page(Board(BoardKind.RATE, deals=deals)).rows
        return [(row.won, row.played, rows[0].rank) for row in rows]

    assert rate("random") == [(2, 10, 1)]
    assert rate("winnable") == [(10, 10, 1)]
    streak = {
        deals: board_page(Board(BoardKind.STREAK, deals=deals)).rows[0].streak
        for deals in ("random", "winnable")
    }
    assert streak == {"random": 2, "winnable": 10}
    best = {
        deals: board_page(Board(BoardKind.BEST, deals=deals)).rows[0].score
        for deals in ("random", "winnable")
    }
    assert best == {"random": 100, "winnable": 900}


def test_the_page_switches_variant_and_deals_and_keeps_the_other_choices(client: Client) -> None:
    html = client.get("/leaderboards/?period=week&view=clean&deals=winnable").content.decode()
    links = re.findall(r'<a href="\?([^"]+)"( aria-current="page")?>([^<]+)</a>', html)
    current = [text for _, here, text in links if here]
    assert current == ["TriPeaks", "Winnable only", "This week", "Clean (no hints)"]
    nowrap = next(query for query, _, text in links if text == "No wrap")
    assert nowrap == "variant=tripeaks-nowrap&amp;deals=winnable&amp;period=week&amp;view=clean"
    assert "One board per deal pool" in html
    assert "Only a fresh deal ranks" in html
    assert client.get("/leaderboards/?variant=golf&deals=any").status_code == 200  # defaults


WON_SEED = "7"
"""A seed whose standard deal the solver wins: the games below are dealt fresh, then given this
deal, so that a row on the tally boards is there to link from."""


def fresh_game(user: User, variant: Variant = Variant.TRIPEAKS) -> Game:
    return game_start(player=Player(user_id=user.pk, guest_key=""), variant=variant)


def won_line() -> list[str]:
    line = solve(Deal.from_seed(WON_SEED), Variant.TRIPEAKS).line
    assert line is not None
    return [move.text for move in line]


def test_a_best_score_row_links_to_its_game_s_replay_and_export(ada: User, client: Client) -> None:
    game = fresh_game(ada)
    play_out(game)

    html = client.get("/leaderboards/best/").content.decode()
    replay = re.search(r'href="([^"]+)" data-row-replay', html)
    export = re.search(r'href="([^"]+)" data-row-export', html)

    assert replay is not None
    assert export is not None
    assert replay[1] == f"/games/{game.id}/"
    assert client.get(replay[1]).status_code == 200
    document = client.get(export[1]).json()
    assert verify_text(json.dumps(document))[0] == "OK"
    assert (document["id"], document["score"]) == (str(game.id), game.score)


def test_a_tally_row_links_to_every_game_it_counts_and_verify_checks_them_all(
    clock: Clock, ada: User, client: Client
) -> None:
    """Ada's row on this week's clean boards counts her clean games of the week: not last week's
    game, not the game with a hint, not the no-wrap one, not the one played again."""
    clock.set(at(DAY, 8))
    counted: list[uuid.UUID] = []
    for hour, options in (
        (9, {}),
        (10, {"hint": True}),
        (11, {"nowrap": True}),
        (12, {"again": True}),
        (13, {}),
        (-24 * 3, {}),
    ):
        clock.set(at(DAY, 8) + timedelta(hours=hour))
        game = fresh_game(ada, Variant.NOWRAP if options.get("nowrap") else Variant.TRIPEAKS)
        Game.objects.filter(id=game.id).update(seed=WON_SEED, assisted=bool(options.get("hint")))
        if options.get("again"):
            again = signed_in(ada).post(f"/games/{counted[0]}/again")
            game = Game.objects.get(id=again["Location"].split("/")[2])
        line = None if options.get("nowrap") else won_line()
        play_out(game, finished_at=at(DAY, 8) + timedelta(hours=hour, minutes=5), line=line)
        if not options and hour > 0:
            counted.append(game.id)

    board = Board(BoardKind.WINS, period="2026-11-30", clean=True)
    assert [game.id for game in row_games(ada.pk, board)] == counted
    clock.set(at(DAY, 20))
    html = client.get("/leaderboards/?period=week&view=clean").content.decode()
    link = re.search(r'href="([^"]+)" data-row-games', html)
    assert link is not None
    response = client.get(link[1].replace("&amp;", "&"))

    lines = response.content.decode().splitlines()
    assert response["Content-Type"] == "application/x-ndjson"
    assert [json.loads(line)["id"] for line in lines] == [str(game_id) for game_id in counted]
    assert [verify_text(line)[0] for line in lines] == ["OK"] * len(counted)
    assert client.get("/leaderboards/games/nobody.jsonl").status_code == 404


def test_a_day_s_rows_link_to_their_games_once_the_day_is_over(
    clock: Clock, players: Players, client: Client
) -> None:
    clock.set(at(DAY, 6))
    daily = challenge.daily_for(DAY)
    (bob,) = players(1)
    attempt = ranked_result(daily, bob, score=400, duration_ms=60_000, finished_at=at(DAY, 9))

    during = client.get("/daily/").content.decode()
    clock.set(at(DAY + timedelta(days=1), 9))
    after = client.get(f"/daily/{DAY}/").content.decode()

    assert "data-row-replay" not in during
    assert f'href="/games/{attempt.game_id}/" data-row-replay' in after
    assert f'href="/games/{attempt.game_id}/export.json" data-row-export' in after


def test_the_score_tables_admin_shows_each_row_s_variant_and_deal_pool(players: Players) -> None:
    (ada,) = players(1)
    finished_game(
        ada,
        score=700,
        variant=Variant.NOWRAP,
        deal_source=DealSource.WINNABLE,
        finished_at=at(DAY, 9),
    )
    admin = User.objects.create_superuser("root", password="x")
    client = signed_in(admin)
    for table in ("playerbest", "playertally"):
        html = client.get(f"/admin/leaderboard/{table}/?variant=tripeaks-nowrap").content.decode()
        assert html.count(">TriPeaks without wrap</td>") == 4, table
        assert "Winnable deals only" in html
