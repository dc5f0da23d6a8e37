"""The rate limit (429 past it, per address, per minute) and the short-lived cache."""

import pytest
from django.test import Client, override_settings

from api import throttling
from api.caching import CACHE
from tests.api.conftest import World, body, daily_made

pytestmark = pytest.mark.django_db

URLS = (
    "/api/v1/leaderboards",
    "/api/v1/leaderboards/best",
    "/api/v1/dailies",
    "/api/v1/players/bob",
    "/api/v1/players/bob/games",
)


@pytest.fixture
def minute(monkeypatch: pytest.MonkeyPatch) -> list[float]:
    """The throttle's clock, standing still at 20 s into a minute until the test moves it."""
    now = [6_000_020.0]
    monkeypatch.setattr(throttling, "clock", lambda: now[0])
    return now


@override_settings(API_RATE_PER_MINUTE=5)
def test_past_the_limit_every_endpoint_answers_429_until_the_minute_ends(
    client: Client, world: World, minute: list[float]
) -> None:
    allowed = [client.get(url) for url in URLS]
    refused = [client.get(url) for url in (*URLS, f"/api/v1/games/{world.finished.id}/export")]

    assert [answer.status_code for answer in allowed] == [200] * 5
    assert [answer.status_code for answer in refused] == [429] * 6
    assert refused[0]["Retry-After"] == "40"
    assert body(refused[0]) == {
        "error": "rate_limited",
        "message": "Too many requests from this address: try again in 40 s",
        "retry_after": 40,
    }
    minute[0] += 40
    assert client.get(URLS[0]).status_code == 200


@override_settings(API_RATE_PER_MINUTE=2)
def test_the_limit_is_per_address_and_a_forwarded_header_changes_nothing(
    world: World, minute: list[float]
) -> None:
    """Addresses are counted apart; a client's own X-Forwarded-For is not believed (behind
    nginx, Daphne's --proxy-headers makes REMOTE_ADDR the client's)."""
    one, other = Client(REMOTE_ADDR="192.0.2.1"), Client(REMOTE_ADDR="192.0.2.2")
    for _ in range(2):
        assert one.get("/api/v1/dailies").status_code == 200

    spoofed = one.get("/api/v1/dailies", headers={"X-Forwarded-For": "198.51.100.7"})

    assert spoofed.status_code == 429
    assert other.get("/api/v1/dailies").status_code == 200


@override_settings(API_RATE_PER_MINUTE=1)
def test_the_docs_and_schema_are_not_counted(client: Client, minute: list[float]) -> None:
    for _ in range(3):
        assert client.get("/api/docs/").status_code == 200
        assert client.get("/api/openapi.json").status_code == 200
    assert client.get("/api/v1/dailies").status_code == 200
    assert client.get("/api/v1/dailies").status_code == 429


@override_settings(API_CACHE_SECONDS=30)
def test_an_answer_is_kept_a_few_seconds_by_the_server_and_clients(
    client: Client, world: World
) -> None:
    first = client.get("/api/v1/dailies")
    daily_made(-2)
    kept = client.get("/api/v1/dailies")

    assert first["Cache-Control"] == "public, max-age=30"
    assert body(kept) == body(first)
    assert len(body(first)["days"]) == 2


@override_settings(API_CACHE_SECONDS=0)
def test_without_a_cache_every_answer_is_fresh(client: Client, world: World) -> None:
    first = client.get("/api/v1/dailies")
    daily_made(-2)
    fresh = client.get("/api/v1/dailies")

    assert "Cache-Control" not in first
    assert len(body(fresh)["days"]) == len(body(first)["days"]) + 1


def test_only_get_and_head_are_answered(client: Client, world: World) -> None:
    for method in ("post", "put", "patch", "delete", "options"):
        answer = getattr(client, method)("/api/v1/dailies")

        assert answer.status_code == 405
        assert answer["Allow"] == "GET, HEAD"
        assert body(answer)["error"] == "method_not_allowed"
    head = client.head("/api/v1/dailies")
    assert (head.status_code, head.content) == (200, b"")


DEAD_REDIS = {
    "default": {
        "BACKEND": "django.core.cache.backends.redis.RedisCache",
        "LOCATION": "redis://127.0.0.1:1/0",  # nothing listens there: refused at once
        "OPTIONS": {"socket_connect_timeout": 1, "socket_timeout": 1},
    }
}


def test_without_its_cache_the_api_serves_unlimited_and_uncached(
    client: Client, world: World, minute: list[float]
) -> None:
    """Redis down: every request is let through and answered afresh; the outage is told once
    and ends with the first request that reaches the cache again."""
    with override_settings(CACHES=DEAD_REDIS, API_RATE_PER_MINUTE=1, API_CACHE_SECONDS=30):
        answers = [client.get("/api/v1/dailies") for _ in range(3)]
        daily_made(-2)
        fresh = client.get("/api/v1/dailies")
        assert CACHE.down

    assert [answer.status_code for answer in answers] == [200, 200, 200]
    assert len(body(fresh)["days"]) == len(body(answers[0])["days"]) + 1
    assert client.get("/api/v1/dailies").status_code == 200
    assert not CACHE.down
