"""Daphne servers for the benchmarks that drive real websockets (moves.py, races.py).

Import this module before Django is set up: it points the bench process and its servers at the
bench database (see ``bench/environment.py``), with production settings (DEBUG off) and rate
limits out of the way.
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.environment import bench_database_url, database_create, redis_url  # noqa: E402
from deploy.processes import ProcessError, free_port, spawn, stop_process, wait_for_port  # noqa: E402

DATABASE_URL = bench_database_url()
REDIS_URL = redis_url()
SERVER_ENV = {
    "DATABASE_URL": DATABASE_URL,
    "DEBUG": "0",
    "SECRET_KEY": secrets.token_urlsafe(50),
    "ALLOWED_HOSTS": "127.0.0.1",
    "GAME_SOCKET_RATE": "1000000",
    "GAME_SOCKET_BURST": "1000000",
    "LOG_LEVEL": "WARNING",
}
RATE_LIMITS_OFF = ("GAME_SOCKET_RATE", "GAME_SOCKET_BURST", "LOG_LEVEL")
"""The settings of :data:`SERVER_ENV` a bench also gives web processes it starts otherwise."""
os.environ.update(SERVER_ENV)
os.environ.pop("REDIS_URL", None)  # the bench process itself needs no channel layer
os.environ["DJANGO_SETTINGS_MODULE"] = "tripeaks_site.settings"


def prepare_database() -> None:
    """Create the bench database if it is missing, and migrate it (Django must be set up)."""
    from django.core.management import call_command

    database_create(DATABASE_URL, replace=False)
    call_command("migrate", verbosity=0)


def vacuum_database() -> None:
    """VACUUM ANALYZE the bench database (Django must be set up).

    Every move rewrites its game's row, so each phase leaves tens of thousands of dead rows
    behind. Autovacuum clears them and keeps the planner's statistics fresh on a normal server;
    where it is off (as on the machines this project is built on), a database bloated by earlier
    runs, with no statistics at all, would be measured instead of the code.
    """
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("VACUUM ANALYZE")


def autovacuum_on() -> bool:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute("SHOW autovacuum")
        return bool(cursor.fetchone()[0] == "on")


def start_servers(
    application: str, count: int = 1, *, extra_env: dict[str, str] | None = None
) -> list[tuple[subprocess.Popen[bytes], str]]:
    """Start ``count`` Daphne processes serving ``application``, each on a free loopback port, all
    at once; return each, and its base URL, once all of them listen."""
    servers = []
    for _ in range(count):
        port = free_port()
        command = [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "-v", "0",
                   application]  # fmt: skip
        servers.append((spawn(command, env=os.environ | SERVER_ENV | (extra_env or {})), port))
    try:
        for server, port in servers:
            wait_for_port(server, port)
    except ProcessError as error:
        for server, _ in servers:
            stop_process(server)
        raise SystemExit(f"Daphne did not start: {error}") from None
    return [(server, f"ws://127.0.0.1:{port}") for server, port in servers]
