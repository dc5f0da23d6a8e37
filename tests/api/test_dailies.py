"""The daily challenges through the API: the commitment from the start, the seed and par only
once the day is over, never a day made ahead."""

from datetime import datetime, timedelta

import pytest
from django.test import Client
from django.utils import timezone

from leaderboard.selectors import commitment_of
from tests.api.conftest import World, body, daily_made

pytestmark = pytest.mark.django_db


def clock_at(monkeypatch: pytest.MonkeyPatch, moment: datetime) -> None:
    monkeypatch.setattr(timezone, "now", lambda: moment)


def test_the_list_is_today_then_the_days_before_it(client: Client, world: World) -> None:
    days = body(client.get("/api/v1/dailies"))["days"]

    assert [day["date"] for day in days] == [str(world.today.date), str(world.yesterday.date)]
    today, yesterday = days
    assert (today["over"], today["seed"], today["par"]) == (False, None, None)
    assert today["commitment"] == world.today.commitment
    assert (yesterday["over"], yesterday["seed"], yesterday["par"]) == (
        True,
        world.yesterday.seed,
        world.yesterday.par,
    )
    assert commitment_of(yesterday["seed"]) == yesterday["commitment"]


def test_a_day_shows_its_seed_from_the_moment_it_ends(
    client: Client, world: World, monkeypatch: pytest.MonkeyPatch
) -> None:
    url = f"/api/v1/dailies/{world.today.date}"
    clock_at(monkeypatch, world.today.ends_at - timedelta(microseconds=1))
    before = body(client.get(url))
    listed_before = body(client.get("/api/v1/dailies"))

    clock_at(monkeypatch, world.today.ends_at)
    monkeypatch.setattr("django.conf.settings.API_CACHE_SECONDS", 0)
    after = body(client.get(url))

    assert (before["over"], before["seed"], before["par"]) == (False, None, None)
    assert world.today.seed not in str(listed_before)
    assert (after["over"], after["seed"], after["par"]) == (True, world.today.seed, 1000)


def test_a_day_not_begun_is_not_found_even_when_made_ahead(client: Client, world: World) -> None:
    for day in (world.tomorrow.date, world.tomorrow.date + timedelta(days=400)):
        answer = client.get(f"/api/v1/dailies/{day}")

        assert answer.status_code == 404
        assert body(answer) == {"error": "not_found", "message": "This day has not begun"}
        assert world.tomorrow.commitment not in answer.content.decode()


def test_a_day_without_a_challenge_or_no_date_is_not_found(client: Client, world: World) -> None:
    for day in ("2001-01-01", "2026-02-30", "20260101", "today"):
        answer = client.get(f"/api/v1/dailies/{day}")

        assert answer.status_code == 404, day
        assert body(answer)["error"] == "not_found"


def test_a_past_day_without_par_shows_none(client: Client, world: World) -> None:
    """Par computed by no one yet is null: the API reads, it never computes."""
    old = daily_made(-3, par=None)

    day = body(client.get(f"/api/v1/dailies/{old.date}"))

    assert (day["seed"], day["par"]) == (old.seed, None)


def test_the_list_pages_by_fifty(client: Client, world: World) -> None:
    for offset in range(2, 52):
        daily_made(-offset)

    first = body(client.get("/api/v1/dailies"))
    second = body(client.get(first["next"]))
    far = body(client.get("/api/v1/dailies?page=99999999999999999999"))

    assert len(first["days"]) == 50
    assert (first["has_previous"], first["has_next"], first["previous"]) == (False, True, None)
    assert first["next"] == "/api/v1/dailies?page=2"
    assert [day["date"] for day in second["days"]] == [
        str(world.today.date - timedelta(days=50)),
        str(world.today.date - timedelta(days=51)),
    ]
    assert second["has_next"] is False
    assert second["previous"] == "/api/v1/dailies?page=1"
    assert (far["page"], far["days"], far["has_next"]) == (10_000, [], False)
