"""The browser-test harness: a real Daphne server and a headless Chromium driven by Playwright.

Fixtures:

- ``server_url``: the base URL (``http://127.0.0.1:<port>``, no trailing slash) of a Daphne process
  serving ``tripeaks_site.asgi:application`` (HTTP and websockets) against the test database, for
  the browser tests (it stops after them: its analysis loop would otherwise work on the finished
  games of the tests that follow, in the same database). Data a test writes is visible to that
  server only once committed, so a test that writes must use ``transactional_db`` (or
  ``django_db(transaction=True)``). The server's output goes to ``daphne-<port>.log`` in a
  ``daphne*`` directory under pytest's temporary directory.
- ``browser``: Debian's Chromium, launched once for the e2e tests.
- ``page``: a fresh page in a fresh browser context (no shared cookies or storage) for each test,
  with ``base_url`` set, so ``page.goto("/rules/")`` works. Desktop-sized; resize it with
  ``page.set_viewport_size``.

Every test under this directory is marked ``e2e``: ``pytest -m "not e2e"`` leaves them out.

The tests are synchronous. Playwright's synchronous API runs an event loop in the test's thread,
which Django would take for async code; see ``browser`` for how the ORM is allowed meanwhile.
"""

import os
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

import pytest
from django.db import connection
from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

from tests.servers import daphne_server, wait_for_server_queries

E2E_DIR = Path(__file__).resolve().parent

CHROMIUM = Path("/usr/bin/chromium")
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
DESKTOP_VIEWPORT: ViewportSize = {"width": 1280, "height": 800}


def chromium_skipped() -> bool:
    """Whether to skip the browser tests: Chromium is missing and TRIPEAKS_SKIP_E2E=1 says so."""
    return not CHROMIUM.exists() and os.environ.get("TRIPEAKS_SKIP_E2E") == "1"


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark every test collected from this directory ``e2e``; skip those needing a missing browser.

    Skipping here, rather than in ``browser``, spares starting a server for tests that won't run.
    A test whose server it is, with no database of its own asked for, gets one (with its tables
    emptied after, as the server's writes are committed): pytest-django creates the test
    database only for the tests that ask, and the server of a browser test run alone would
    otherwise answer from a database without tables.
    """
    skip = pytest.mark.skip(reason=f"{CHROMIUM} is missing and TRIPEAKS_SKIP_E2E=1")
    for item in items:
        if item.path.is_relative_to(E2E_DIR):
            item.add_marker(pytest.mark.e2e)
            fixtures = getattr(item, "fixturenames", ())
            if chromium_skipped() and "browser" in fixtures:
                item.add_marker(skip)
            if "server_url" in fixtures and not _asks_for_a_database(item, fixtures):
                item.add_marker(pytest.mark.django_db(transaction=True))


def _asks_for_a_database(item: pytest.Item, fixtures: Sequence[str]) -> bool:
    return item.get_closest_marker("django_db") is not None or bool(
        {"db", "transactional_db"} & set(fixtures)
    )


@pytest.fixture(scope="package")
def server_url(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Serve the ASGI application with Daphne on a free port, sharing the test database."""
    with daphne_server(tmp_path_factory.mktemp("daphne")) as url:
        yield url


@pytest.fixture(scope="package")
def browser() -> Iterator[Browser]:
    """Launch Debian's Chromium headless for the tests of this package, then close it.

    Package-scoped, not session-scoped, so that Playwright's event loop has stopped before any
    test outside this package (an asyncio one, say) runs in the same thread.
    """
    if not CHROMIUM.exists():
        pytest.fail(
            f"The browser tests need Debian's chromium at {CHROMIUM}. Run `make test`, which"
            " installs it, or set TRIPEAKS_SKIP_E2E=1 to skip these tests.",
            pytrace=False,
        )
    # While Playwright's event loop runs in this thread, Django refuses ORM calls as if they came
    # from async code. The test code around them is synchronous, so allow them until the end.
    with pytest.MonkeyPatch.context() as patch, sync_playwright() as playwright:
        patch.setenv("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
        chromium = playwright.chromium.launch(
            executable_path=str(CHROMIUM), args=CHROMIUM_ARGS, headless=True
        )
        yield chromium
        chromium.close()


@pytest.fixture
def page(server_url: str, browser: Browser, django_db_blocker: Any) -> Iterator[Page]:
    """A new page in its own browser context, pointed at the test server. The site's service
    worker stays off (tests/e2e/test_install.py runs it): what a test routes or counts is then
    exactly what the page asked for."""
    context = browser.new_context(
        base_url=server_url, viewport=DESKTOP_VIEWPORT, service_workers="block"
    )
    try:
        yield context.new_page()
    finally:
        context.close()
        # The page's last requests may still be running on the server; emptying the tables
        # under them (after a transactional test) can deadlock on PostgreSQL.
        with django_db_blocker.unblock():
            wait_for_server_queries()
            # While Playwright's loop runs, Django keeps a connection of its own for this context,
            # apart from the test's: left open, it would stop the test database being dropped.
            connection.close()
