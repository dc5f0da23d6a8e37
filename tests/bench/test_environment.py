"""Where the benches keep their data: beside the suite's database, never in it."""

from bench.environment import (
    DEFAULT_DATABASE_URL,
    DEFAULT_REDIS_URL,
    bench_database_url,
    leaderboard_database_url,
    redis_url,
    without_password,
)

SITE = "postgres://bench:secret@db.example:5433/tripeaks?sslmode=require"


def test_the_bench_database_is_beside_the_site_database_on_its_server() -> None:
    assert bench_database_url({"DATABASE_URL": SITE}) == (
        "postgres://bench:secret@db.example:5433/tripeaks_bench?sslmode=require"
    )


def test_the_leaderboard_bench_has_a_database_of_its_own_on_the_same_server() -> None:
    assert leaderboard_database_url({"DATABASE_URL": SITE}) == (
        "postgres://bench:secret@db.example:5433/leaderboard_tripeaks_bench?sslmode=require"
    )


def test_neither_is_the_suite_test_database() -> None:
    environ = {"DATABASE_URL": "postgresql://postgres@127.0.0.1:5432/tripeaks"}
    names = {bench_database_url(environ), leaderboard_database_url(environ)}
    assert not any(url.endswith(("/tripeaks", "/test_tripeaks")) for url in names)
    assert len(names) == 2


def test_an_explicit_bench_database_wins() -> None:
    environ = {"DATABASE_URL": SITE, "BENCH_DATABASE_URL": "postgres://me@here/mine"}
    assert bench_database_url(environ) == "postgres://me@here/mine"
    assert leaderboard_database_url(environ) == "postgres://me@here/leaderboard_mine"


def test_without_postgresql_the_local_server_is_used() -> None:
    assert bench_database_url({"DATABASE_URL": "sqlite:///db.sqlite3"}) == DEFAULT_DATABASE_URL
    assert bench_database_url({}) == DEFAULT_DATABASE_URL


def test_redis_comes_from_the_bench_setting_then_the_site_setting() -> None:
    assert redis_url({"REDIS_URL": "redis://a:6395/0"}) == "redis://a:6395/0"
    both = {"REDIS_URL": "redis://a:6395/0", "BENCH_REDIS_URL": "redis://b:6396/1"}
    assert redis_url(both) == "redis://b:6396/1"
    assert redis_url({}) == DEFAULT_REDIS_URL


def test_a_printed_url_has_no_password() -> None:
    assert without_password(SITE) == "postgres://bench@db.example:5433/tripeaks?sslmode=require"
    assert without_password("postgres://bench@db/tripeaks") == "postgres://bench@db/tripeaks"
