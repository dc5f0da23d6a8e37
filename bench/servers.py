"""Daphne servers for the benchmarks that drive real websockets (moves.py, races.py).

Import this module before Django is set up: it points the bench process and its servers at the
bench database (see ``bench/environment.py``), with production settings (DEBUG off) and rate
limits out of the way.
"""

from __future__ import annotations

import os
import secrets
import socket
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from bench.environment import bench_database_url, database_create, redis_url  # noqa: E402
from bench.processes import process_stop  # noqa: E402

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


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def start_servers(
    application: str, count: int = 1, *, extra_env: dict[str, str] | None = None
) -> list[tuple[subprocess.Popen[bytes], str]]:
    """Start ``count`` Daphne processes serving ``application``, each on a free loopback port, all
    at once; return each, and its base URL, once all of them listen."""
    servers = []
    for _ in range(count):
        port = free_port()
        server = subprocess.Popen(
            [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "-v", "0",
             application],
            cwd=ROOT,
            env=os.environ | SERVER_ENV | (extra_env or {}),
        )  # fmt: skip
        servers.append((server, port))
    try:
        for server, port in servers:
            wait_for_port(server, port)
    except SystemExit:
        for server, _ in servers:
            process_stop(server)
        raise
    return [(server, f"ws://127.0.0.1:{port}") for server, port in servers]


def wait_for_port(server: subprocess.Popen[bytes], port: int) -> None:
    """Return once ``server`` accepts connections on ``port``; leave if it dies or never does."""
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        if server.poll() is not None:
            raise SystemExit(f"Daphne exited with status {server.returncode}")
        try:
            socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
            return
        except OSError:
            time.sleep(0.1)
    raise SystemExit("Daphne did not start")
