"""Where the benches keep their data: their PostgreSQL databases and the Redis server they use.

Free of side effects, so that any bench (and the smoke tests) can ask before Django is set up.

- The bench database (``bench/moves.py``, ``races.py``, ``writer.py``): ``BENCH_DATABASE_URL`` in
  full when it is set; otherwise the server of ``DATABASE_URL`` when that names PostgreSQL, with the
  database ``<its name>_bench`` beside it, so that neither the site's database nor the test suite's
  is ever touched; otherwise ``tripeaks_bench`` on the local PostgreSQL.
- The leaderboard bench drops and makes again a database of its own on the same server:
  ``leaderboard_<the bench database's name>``.
- Redis (``bench/races.py``): ``BENCH_REDIS_URL``, else ``REDIS_URL``, else database 7 of the local
  Redis.
"""

from __future__ import annotations

import os
from collections.abc import Mapping
from urllib.parse import urlsplit, urlunsplit

DEFAULT_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/tripeaks_bench"
DEFAULT_REDIS_URL = "redis://127.0.0.1:6379/7"
POSTGRES_SCHEMES = ("postgres", "postgresql")


def database_name(url: str) -> str:
    """The database a PostgreSQL URL names."""
    return urlsplit(url).path.lstrip("/")


def with_database(url: str, name: str) -> str:
    """The same server, credentials and options as ``url``, another database."""
    return urlunsplit(urlsplit(url)._replace(path=f"/{name}"))


def without_password(url: str) -> str:
    """``url`` as a bench prints it: any password left out."""
    parts = urlsplit(url)
    if parts.password is None:
        return url
    netloc = parts.netloc.rsplit("@", 1)[1]
    return urlunsplit(parts._replace(netloc=f"{parts.username}@{netloc}"))


def bench_database_url(environ: Mapping[str, str] = os.environ) -> str:
    """The bench database (see the module's docstring)."""
    if environ.get("BENCH_DATABASE_URL"):
        return environ["BENCH_DATABASE_URL"]
    site = environ.get("DATABASE_URL", "")
    if urlsplit(site).scheme in POSTGRES_SCHEMES:
        return with_database(site, f"{database_name(site)}_bench")
    return DEFAULT_DATABASE_URL


def leaderboard_database_url(environ: Mapping[str, str] = os.environ) -> str:
    """The leaderboard bench's database, dropped and made again on every fill."""
    bench = bench_database_url(environ)
    return with_database(bench, f"leaderboard_{database_name(bench)}")


def redis_url(environ: Mapping[str, str] = os.environ) -> str:
    """The Redis server of the benches that run more than one process."""
    return environ.get("BENCH_REDIS_URL") or environ.get("REDIS_URL") or DEFAULT_REDIS_URL


def database_create(url: str, *, replace: bool) -> None:
    """Make the database ``url`` names on its server, unless it exists; with ``replace``, drop it
    first (closing its connections). Connects to the server's ``postgres`` database to do so."""
    import psycopg
    from psycopg import sql

    name = database_name(url)
    with psycopg.connect(with_database(url, "postgres"), autocommit=True) as server:
        if replace:
            drop = sql.SQL("DROP DATABASE IF EXISTS {} WITH (FORCE)")
            server.execute(drop.format(sql.Identifier(name)))
        exists = server.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone()
        if not exists:
            server.execute(sql.SQL("CREATE DATABASE {}").format(sql.Identifier(name)))
