"""The production topology (``deploy/topology.py``) for the tests of this package.

nginx in front of two Daphne processes started as the image starts them, ``DEBUG=0``, Redis, and
the test database that pytest-django made on PostgreSQL. It needs PostgreSQL (the suite's
``DATABASE_URL``), nginx, redis-server and openssl: CI's second run has them all; without them the
tests of this package are skipped, saying what is missing.

Each module gets a topology of its own (starting one takes a few seconds). Tests write through
the ORM only what the web processes must see, so they use ``transactional_db``.
"""

import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.db import connection

from deploy.topology import NGINX, Topology, production
from tests.servers import shared_database_url, wait_for_server_queries

DEPLOY_DIR = Path(__file__).resolve().parent


def missing_for_topology() -> str | None:
    """Why the production topology cannot run here, or None."""
    if connection.vendor != "postgresql":
        return "the production topology runs on PostgreSQL (set DATABASE_URL)"
    for program in (NGINX, "redis-server", "redis-cli", "openssl"):
        if shutil.which(program) is None:
            return f"{program} is not installed (make test installs it)"
    return None


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    reason = missing_for_topology()
    if reason is None:
        return
    for item in items:
        if item.path.is_relative_to(DEPLOY_DIR):
            item.add_marker(pytest.mark.skip(reason=reason))


@pytest.fixture(scope="module")
def topology(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[Topology]:
    with production(
        tmp_path_factory.mktemp("topology"),
        database_url=shared_database_url(),
        secret_key=settings.SECRET_KEY,
    ) as running:
        yield running


@pytest.fixture(autouse=True)
def _servers_done(django_db_blocker: object) -> Iterator[None]:
    """After each test, let the web processes finish what it asked before its tables are emptied
    (on PostgreSQL that could deadlock otherwise)."""
    yield
    wait_for_server_queries()
