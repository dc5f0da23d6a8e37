"""Daphne servers for tests that need real ones: the browser tests and the multi-process tests.

Each server is a separate process serving ``tripeaks_site.asgi:application`` against the test
database that pytest-django created, so a test must commit what the server is to see
(``transactional_db``).
"""

import os
import subprocess
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from django.db import connection

from deploy.processes import HOST, free_port, spawn, stop_process, wait_for_port

# The limits `make run` gives Daphne (see the Makefile).
DAPHNE_LIMITS = ["--websocket-max-message-size", "16384", "--websocket-max-frame-size", "16384"]


def shared_database_url() -> str:
    """A DATABASE_URL naming the test database that pytest-django created for this session."""
    settings_dict = connection.settings_dict
    name = str(settings_dict["NAME"])
    if settings_dict["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{Path(name).resolve()}"
    # Same server, credentials and options as the configured database; only the name differs.
    configured = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(configured._replace(path=f"/{name}"))


@contextmanager
def daphne_server(log_dir: Path) -> Iterator[str]:
    """Run one Daphne process on a free port; yield its base URL (``http://127.0.0.1:<port>``)."""
    with daphne_process(log_dir) as (_, base):
        yield base


@contextmanager
def daphne_process(log_dir: Path) -> Iterator[tuple[subprocess.Popen[bytes], str]]:
    """Run one Daphne process on a free port; yield it and its base URL."""
    port = free_port()
    log_path = log_dir / f"daphne-{port}.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": shared_database_url(),
        "DEBUG": "1",  # so that the ASGI application serves the static files itself
        "PYTHONUNBUFFERED": "1",
    }
    # Set in the test process only while Playwright runs; the server is truly async.
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    command = [
        sys.executable, "-m", "daphne", "--bind", HOST, "--port", str(port), *DAPHNE_LIMITS,
        "tripeaks_site.asgi:application",
    ]  # fmt: skip
    process = spawn(command, log=log_path, env=env)
    try:
        wait_for_port(process, port, log_path)
        yield process, f"http://{HOST}:{port}"
    finally:
        # Before the test database is dropped: PostgreSQL refuses while the server is connected.
        stop_process(process)


SERVER_QUIET_TIMEOUT = 5.0


def wait_for_server_queries() -> None:
    """Wait (a few seconds at most) until no other connection to the test database is running a
    query or holding a transaction open: the servers have finished what a closed page asked.

    Only PostgreSQL needs it: there, emptying the tables at the end of a transactional test while a
    server's transaction holds locks on them can end in a deadlock.
    """
    if connection.vendor != "postgresql":
        return
    deadline = time.monotonic() + SERVER_QUIET_TIMEOUT
    with connection.cursor() as cursor:
        while time.monotonic() < deadline:
            cursor.execute(
                "SELECT count(*) FROM pg_stat_activity WHERE datname = current_database() "
                "AND pid <> pg_backend_pid() AND state <> 'idle'"
            )
            (busy,) = cursor.fetchone()
            if busy == 0:
                return
            time.sleep(0.05)
