"""The indexes a move pays for: every move updates its game's row and inserts a move row, into
each of their tables' indexes, so an index no query needs is a cost on every move. The lookups
that two dropped indexes served are found through the composite indexes that start with the same
column (PostgreSQL's plans, with sequential scans ruled out so that the tiny test tables do not
hide the choice)."""

import pytest
from django.db import connection
from django.db.models import QuerySet

from game.models import Game, Move

pytestmark = [
    pytest.mark.django_db,
    pytest.mark.skipif(connection.vendor != "postgresql", reason="PostgreSQL's plans"),
]


def plan(queryset: QuerySet) -> str:
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
    return queryset.explain()


def indexes(table: str) -> set[str]:
    with connection.cursor() as cursor:
        cursor.execute("SELECT indexname FROM pg_indexes WHERE tablename = %s", [table])
        return {name for (name,) in cursor.fetchall()}


def test_a_games_moves_are_found_through_the_unique_index_on_game_and_seq() -> None:
    game_id = "00000000-0000-0000-0000-000000000001"
    assert "move_seq_unique_per_game" in plan(Move.objects.filter(game_id=game_id).order_by("seq"))
    assert indexes("game_move") == {"game_move_pkey", "move_seq_unique_per_game"}


def test_a_guests_games_are_found_through_the_index_of_their_recent_games() -> None:
    assert "game_guest_recent" in plan(Game.objects.filter(guest_key="someone"))
    assert not {name for name in indexes("game_game") if "guest_key" in name}
