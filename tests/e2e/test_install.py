"""Installable: Chromium finds the manifest good enough to install the site (the check
Lighthouse's installability audit ran: DevTools' ``Page.getInstallabilityErrors``), and the
service worker shows the offline page, and the tutorial, with the network gone."""

from collections.abc import Iterator
from pathlib import Path

import pytest
from playwright.sync_api import Browser, Page

from tests.e2e.conftest import CHROMIUM, CHROMIUM_ARGS, DESKTOP_VIEWPORT

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture(params=["en-GB"])
def installable_page(
    server_url: str, browser: Browser, tmp_path: Path, request: pytest.FixtureRequest
) -> Iterator[Page]:
    """A page of a browser profile of its own (Chromium installs nothing from an incognito
    context, which every other test uses), service workers allowed, in the browser's language
    the test asks for (English unless it says otherwise)."""
    context = browser.browser_type.launch_persistent_context(
        tmp_path / "profile",
        executable_path=str(CHROMIUM),
        args=CHROMIUM_ARGS,
        headless=True,
        base_url=server_url,
        viewport=DESKTOP_VIEWPORT,
        service_workers="allow",
        locale=request.param,
    )
    try:
        yield context.pages[0] if context.pages else context.new_page()
    finally:
        context.close()


def ready_for_offline(page: Page) -> None:
    """Open the home page and wait until its service worker controls it (its files stored)."""
    page.goto("/")
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.reload()
    page.wait_for_function("navigator.serviceWorker.controller !== null")


def test_chromium_finds_the_site_installable(installable_page: Page) -> None:
    ready_for_offline(installable_page)
    session = installable_page.context.new_cdp_session(installable_page)

    errors = session.send("Page.getInstallabilityErrors")["installabilityErrors"]
    manifest = session.send("Page.getAppManifest")

    assert errors == []
    assert manifest["errors"] == []
    assert '"display":"standalone"' in manifest["data"].replace(" ", "")


def test_offline_a_page_shows_the_offline_page_and_the_tutorial_still_opens(
    installable_page: Page,
) -> None:
    ready_for_offline(installable_page)
    installable_page.context.set_offline(True)

    installable_page.goto("/leaderboards/")
    assert installable_page.get_by_role("heading", level=1).inner_text() == "You are offline"

    installable_page.get_by_role("link", name="Open the tutorial").click()
    installable_page.wait_for_url("**/tutorial/")
    assert installable_page.locator("[data-t=next], .tutorial").first.is_visible()


@pytest.mark.parametrize("installable_page", ["fr-FR"], indirect=True)
def test_offline_the_tutorial_speaks_the_language_it_was_installed_in(
    installable_page: Page,
) -> None:
    """The stored tutorial is the French one, and its scripts still have their French words
    with the network gone (the scripts' catalog is kept by the service worker, and by the
    browser's own cache while it holds it)."""
    ready_for_offline(installable_page)
    installable_page.goto("/tutorial/")  # online, once: its catalog is the home page's
    installable_page.context.set_offline(True)

    installable_page.goto("/tutorial/")
    installable_page.locator("[data-t=next]").click()
    progress = installable_page.locator("[data-t=progress]")
    assert (progress.text_content() or "").startswith("Étape 2 sur ")
