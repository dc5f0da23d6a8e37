"""The browser-test harness: a real Daphne server and a headless Chromium driven by Playwright.

Fixtures:

- ``server_url``: the base URL (``http://127.0.0.1:<port>``, no trailing slash) of a Daphne process
  serving ``tripeaks_site.asgi:application`` (HTTP and websockets) against the test database, for
  the whole session. Data a test writes is visible to that server only once committed, so a test
  that writes must use ``transactional_db`` (or ``django_db(transaction=True)``). The server's
  output goes to ``server.log`` in a ``daphne*`` directory under pytest's temporary directory.
- ``browser``: Debian's Chromium, launched once for the e2e tests.
- ``page``: a fresh page in a fresh browser context (no shared cookies or storage) for each test,
  with ``base_url`` set, so ``page.goto("/rules/")`` works. Desktop-sized; resize it with
  ``page.set_viewport_size``.

Every test under this directory is marked ``e2e``: ``pytest -m "not e2e"`` leaves them out.

The tests are synchronous. Playwright's synchronous API runs an event loop in the test's thread,
which Django would take for async code; see ``browser`` for how the ORM is allowed meanwhile.
"""

import os
import socket
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest
from django.db import connection
from playwright.sync_api import Browser, Page, ViewportSize, sync_playwright

PROJECT_ROOT = Path(__file__).resolve().parents[2]
E2E_DIR = Path(__file__).resolve().parent
HOST = "127.0.0.1"
SERVER_START_TIMEOUT = 30.0

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
    """
    skip = pytest.mark.skip(reason=f"{CHROMIUM} is missing and TRIPEAKS_SKIP_E2E=1")
    for item in items:
        if item.path.is_relative_to(E2E_DIR):
            item.add_marker(pytest.mark.e2e)
            if chromium_skipped() and "browser" in getattr(item, "fixturenames", ()):
                item.add_marker(skip)


def free_port() -> int:
    """A TCP port on HOST that nothing listens on right now."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind((HOST, 0))
        return sock.getsockname()[1]


def shared_database_url() -> str:
    """A DATABASE_URL naming the test database that pytest-django created for this session."""
    settings_dict = connection.settings_dict
    name = str(settings_dict["NAME"])
    if settings_dict["ENGINE"] == "django.db.backends.sqlite3":
        return f"sqlite:///{Path(name).resolve()}"
    # Same server, credentials and options as the configured database; only the name differs.
    configured = urlsplit(os.environ["DATABASE_URL"])
    return urlunsplit(configured._replace(path=f"/{name}"))


def wait_for_port(process: subprocess.Popen[bytes], port: int, log_path: Path) -> None:
    """Return once the server accepts connections; fail with its log if it dies or never does."""
    deadline = time.monotonic() + SERVER_START_TIMEOUT
    while time.monotonic() < deadline:
        if process.poll() is not None:
            pytest.fail(
                f"Daphne exited with status {process.returncode} before listening on port {port}."
                f"\n--- server log ---\n{log_path.read_text(errors='replace')}",
                pytrace=False,
            )
        try:
            with socket.create_connection((HOST, port), timeout=0.5):
                return
        except OSError:
            time.sleep(0.1)
    process.kill()
    process.wait()
    pytest.fail(
        f"Daphne did not listen on port {port} within {SERVER_START_TIMEOUT:.0f} s."
        f"\n--- server log ---\n{log_path.read_text(errors='replace')}",
        pytrace=False,
    )


@pytest.fixture(scope="session")
def server_url(django_db_setup: None, tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """Serve the ASGI application with Daphne on a free port, sharing the test database."""
    port = free_port()
    log_path = tmp_path_factory.mktemp("daphne") / "server.log"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "tests.settings",
        "DATABASE_URL": shared_database_url(),
        "DEBUG": "1",  # so that the ASGI application serves the static files itself
        "PYTHONUNBUFFERED": "1",
    }
    # Set for this process only while Playwright runs (see ``browser``); the server is truly async.
    env.pop("DJANGO_ALLOW_ASYNC_UNSAFE", None)
    command = [
        sys.executable,
        "-m",
        "daphne",
        "--bind",
        HOST,
        "--port",
        str(port),
        "tripeaks_site.asgi:application",
    ]
    with log_path.open("wb") as log:
        process = subprocess.Popen(
            command, cwd=PROJECT_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT
        )
    try:
        wait_for_port(process, port, log_path)
        yield f"http://{HOST}:{port}"
    finally:
        # Before the test database is dropped: PostgreSQL refuses while the server is connected.
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


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
def page(server_url: str, browser: Browser) -> Iterator[Page]:
    """A new page in its own browser context, pointed at the test server."""
    context = browser.new_context(base_url=server_url, viewport=DESKTOP_VIEWPORT)
    try:
        yield context.new_page()
    finally:
        context.close()
