"""A set-based fill names what it cares about; the models give every other column its value."""

import pytest
from django.contrib.auth import get_user_model

from bench.inserts import FillOutOfDate, insert_head
from game.models import Game

GAME_VALUES = {
    "id": "game_id",
    "seed": "'bench'",
    "owner_id": "user_id",
    "guest_key": "''",
    "started_at": "now()",
}


def test_a_column_left_out_gets_the_model_default() -> None:
    insert, values = insert_head(Game, GAME_VALUES)
    columns = insert.removeprefix("INSERT INTO game_game (").removesuffix(")").split(", ")
    filled = dict(zip(columns, values.split(", "), strict=True))
    assert filled["hidden"] == "false"
    assert filled["status"] == "'in_progress'"
    assert filled["seed"] == "'bench'"


def test_nullable_and_automatic_columns_are_left_to_the_database() -> None:
    named = ("password", "username", "first_name", "last_name", "email")
    insert, _ = insert_head(get_user_model(), dict.fromkeys(named, "''"))
    assert "last_login" not in insert
    assert "(id," not in insert


def test_a_column_without_a_default_must_be_named() -> None:
    with pytest.raises(FillOutOfDate, match=r"game_game\.seed"):
        insert_head(Game, {key: value for key, value in GAME_VALUES.items() if key != "seed"})


def test_a_column_the_model_does_not_have_is_refused() -> None:
    with pytest.raises(FillOutOfDate, match="no column gone"):
        insert_head(Game, {**GAME_VALUES, "gone": "1"})
