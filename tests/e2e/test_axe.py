"""axe-core finds no accessibility violation on the site's main pages, at a desktop's and a phone's
size: home, a game (new, under way, over), the daily challenge, the leaderboards, the races and a
profile.

axe-core is the version pinned in package-lock.json, installed into node_modules/ by `npm ci`
(`make lint` and `make test` run it) and injected into the page from there: nothing is fetched
while the tests run. Besides axe's default rules, ``label-content-name-mismatch`` runs too (an
accessible name must start with the text a control shows: a face-up card says "K♠ king of
spades").
"""

from pathlib import Path
from typing import Any

import pytest
from django.contrib.auth import get_user_model
from playwright.sync_api import Page, ViewportSize, expect

from tests.e2e.test_daily import sign_up
from tests.e2e.test_moderation import sign_in
from tests.e2e.test_play import PLAYABLE, expect_seq, start_game

AXE = Path(__file__).resolve().parents[2] / "node_modules" / "axe-core" / "axe.min.js"

SIZES: dict[str, ViewportSize] = {
    "desktop": {"width": 1280, "height": 800},
    "phone": {"width": 360, "height": 740},
}

RUN_AXE = """async () => {
  const results = await axe.run(document, {
    rules: { "label-content-name-mismatch": { enabled: true } },
    resultTypes: ["violations"],
  });
  return results.violations.map((violation) => ({
    id: violation.id,
    impact: violation.impact,
    help: violation.help,
    nodes: violation.nodes.map((node) => `${node.target.join(" ")}: ${node.failureSummary}`),
  }));
}"""


def violations(page: Page) -> list[dict[str, Any]]:
    """What axe finds wrong with the page as it stands."""
    if not AXE.exists():
        pytest.fail(f"{AXE} is missing: run `npm ci` (make test does)", pytrace=False)
    page.add_script_tag(path=str(AXE))
    found: list[dict[str, Any]] = page.evaluate(RUN_AXE)
    return found


def play_a_few_moves(page: Page) -> None:
    """Three draws, then a card that fits if one does: a game under way."""
    for seq in range(1, 4):
        page.locator(".stock").click()
        expect_seq(page, seq)
    if page.locator(PLAYABLE).count():
        page.locator(PLAYABLE).first.click()
        expect_seq(page, 4)


def give_up(page: Page) -> None:
    page.get_by_role("button", name="Give up").click()
    page.get_by_role("dialog").get_by_role("button", name="Give up").click()
    expect(page.locator("[data-game-over]")).to_be_visible()
    # The panel's analysis arrives on its own (the server's worker makes it): wait for it, so that
    # axe sees the finished panel.
    expect(page.locator("[data-analysis]")).not_to_have_attribute(
        "data-state", "pending", timeout=90_000
    )


GUEST_PAGES = [
    "home", "game-new", "game-mid", "game-over", "home-continue", "daily", "leaderboards", "races",
]  # fmt: skip


@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("name", GUEST_PAGES)
def test_no_violations_for_a_guest(page: Page, name: str, size: str) -> None:
    page.set_viewport_size(SIZES[size])
    if name == "home-continue":  # the home page offers the game in play
        start_game(page)
        page.goto("/")
        expect(page.get_by_role("link", name="Continue your game")).to_be_visible()
    elif name.startswith("game"):
        start_game(page)
        if name in ("game-mid", "game-over"):
            play_a_few_moves(page)
        if name == "game-over":
            give_up(page)
    else:
        page.goto(
            {"home": "/", "daily": "/daily/", "leaderboards": "/leaderboards/"}.get(
                name, f"/{name}/"
            )
        )

    assert violations(page) == []


@pytest.mark.usefixtures("transactional_db")
@pytest.mark.parametrize("size", SIZES)
@pytest.mark.parametrize("path", ["/accounts/profile/", "/races/", "/daily/", "/"])
def test_no_violations_for_a_player(page: Page, server_url: str, path: str, size: str) -> None:
    """Signed in: the profile, the races' form, the daily's start, the home page's daily."""
    user = get_user_model().objects.create_user("axe_player", password="a long enough password")
    sign_in(page.context, user, server_url)
    page.set_viewport_size(SIZES[size])
    response = page.goto(path)
    assert response is not None
    assert response.status == 200

    assert violations(page) == []


@pytest.mark.usefixtures("transactional_db")
def test_no_violations_with_a_message(page: Page) -> None:
    """Signing up lands on the profile with a message in the site's status region."""
    page.set_viewport_size(SIZES["phone"])
    sign_up(page, "axe_newcomer")
    expect(page.get_by_role("status").first).to_contain_text("Welcome")

    assert violations(page) == []
