"""The board's settings in a real browser: a signed-in player's come from, and go to, their
account; a guest's stay in the browser. With "Ask before drawing while a card fits" on, a draw
while a card fits asks first.

Players sign in through the sign-in page (django-axes guards it, so no shortcut), and their games
are started on a known seed, so that the test knows, from the engine, what fits when.
"""

import re

import pytest
from django.contrib.auth.models import User
from playwright.sync_api import Page, Request, expect

from accounts.models import PlayerSettings
from game.engine import Deal, GameState, Variant
from game.models import Game
from game.players import Player
from game.services import game_start
from tests.e2e.test_play import PLAYABLE, expect_seq, screenshot, start_game

PASSWORD = "peaks-and-valleys-42"
SETTINGS_URL = "/accounts/settings/board"
# A deal on which two cards fit at the start, and three after one draw (checked in the test).
SEED = "settings-e2e-1"


def make_player(username: str, **settings: bool) -> User:
    user = User.objects.create_user(username=username, password=PASSWORD)
    PlayerSettings.objects.create(user=user, **settings)
    return user


def sign_in(page: Page, username: str) -> None:
    page.goto("/accounts/login/")
    page.get_by_label("Username").fill(username)
    page.get_by_label("Password").fill(PASSWORD)
    page.get_by_role("button", name="Sign in").click()
    expect(page).to_have_url(re.compile(r"/accounts/profile/$"))


def open_game(page: Page, user: User) -> Game:
    """Start a game on SEED for ``user`` and open its page; return it once connected."""
    game = game_start(
        player=Player(user_id=user.pk, guest_key=""), variant=Variant.TRIPEAKS, seed=SEED
    )
    page.goto(game.get_absolute_url())
    expect_seq(page, 0)
    expect(page.locator("[data-connection]")).to_have_attribute("data-state", "open")
    return game


def open_settings(page: Page) -> None:
    page.locator(".game__tools .settings summary").click()


def has_class(page: Page, name: str) -> bool:
    return bool(page.evaluate(f"document.documentElement.classList.contains('{name}')"))


def fits_after(moves: list[str]) -> int:
    state = GameState(Deal.from_seed(SEED), Variant.TRIPEAKS)
    for move in moves:
        state.apply(next(m for m in state.legal_moves() if m.text == move))
    return len(state.playable_positions())


@pytest.mark.usefixtures("transactional_db")
def test_a_players_settings_come_from_their_account(page: Page) -> None:
    """The account's values win over whatever this browser kept as a guest."""
    page.add_init_script(
        "localStorage.setItem('tripeaks.four-colour', '0');"
        "localStorage.setItem('tripeaks.animations', '0');"
    )
    user = make_player("clubs", four_colour_deck=True)
    sign_in(page, "clubs")

    open_game(page, user)

    assert has_class(page, "four-colour")
    assert not has_class(page, "no-motion")
    open_settings(page)
    expect(page.get_by_label("Four-colour deck")).to_be_checked()
    expect(page.get_by_label("Animations")).to_be_checked()
    expect(page.get_by_label("Ask before drawing while a card fits")).not_to_be_checked()
    expect(page.get_by_text("Saved with your account.")).to_be_visible()
    screenshot(page, "settings-signed-in-panel")


@pytest.mark.usefixtures("transactional_db")
def test_a_toggle_in_the_panel_is_saved_to_the_account(page: Page) -> None:
    user = make_player("still")
    sign_in(page, "still")
    open_game(page, user)
    open_settings(page)

    with page.expect_response(lambda r: r.url.endswith(SETTINGS_URL)) as saved:
        page.get_by_label("Animations").uncheck()

    assert saved.value.status == 204
    assert has_class(page, "no-motion")
    stored = PlayerSettings.objects.get(user=user)
    assert (stored.animations, stored.four_colour_deck, stored.allow_watching) == (
        False,
        False,
        True,
    )
    # Another browser (here: this one, after a reload) gets the account's value.
    page.reload()
    expect_seq(page, 0)
    assert has_class(page, "no-motion")
    open_settings(page)
    expect(page.get_by_label("Animations")).not_to_be_checked()


@pytest.mark.usefixtures("transactional_db")
def test_a_change_the_server_refuses_is_taken_back(page: Page) -> None:
    user = make_player("offline")
    sign_in(page, "offline")
    open_game(page, user)
    open_settings(page)
    page.route(f"**{SETTINGS_URL}", lambda route: route.fulfill(status=500, body=""))

    with page.expect_response(lambda r: r.url.endswith(SETTINGS_URL)):
        # A click, not check(): the box may be unticked again before check() could see it ticked.
        page.get_by_label("Four-colour deck").click()

    expect(page.get_by_label("Four-colour deck")).not_to_be_checked()
    expect(page.locator("[data-settings-status]")).to_have_text(re.compile("could not be saved"))
    assert not has_class(page, "four-colour")
    assert PlayerSettings.objects.get(user=user).four_colour_deck is False


@pytest.mark.usefixtures("transactional_db")
def test_drawing_while_a_card_fits_asks_first(page: Page) -> None:
    """With the setting on, a draw while a card fits opens a dialog naming how many fit: "Keep
    playing" (focused) and Escape send nothing, "Draw anyway" draws."""
    assert (fits_after([]), fits_after(["draw"])) == (2, 3)
    user = make_player("careful", confirm_draw_when_play_fits=True)
    sign_in(page, "careful")
    game = open_game(page, user)
    expect(page.locator(PLAYABLE)).to_have_count(2)
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))
    dialog = page.get_by_role("dialog", name="Draw while a card fits?")

    page.locator(".stock").click()

    expect(dialog).to_be_visible()
    expect(dialog).to_contain_text("2 cards on the peaks fit the waste.")
    expect(dialog.get_by_role("button", name="Keep playing")).to_be_focused()
    screenshot(page, "settings-confirm-draw")
    dialog.get_by_role("button", name="Keep playing").click()
    expect(dialog).to_be_hidden()

    page.keyboard.press("d")
    expect(dialog).to_be_visible()
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()

    page.wait_for_timeout(300)
    expect_seq(page, 0)
    assert Game.objects.get(id=game.id).move_count == 0
    assert not [frame for frame in sent if '"move"' in frame]

    page.locator(".stock").click()
    dialog.get_by_role("button", name="Draw anyway").click()

    expect_seq(page, 1)
    assert Game.objects.get(id=game.id).move_count == 1
    expect(page.locator(PLAYABLE)).to_have_count(3)

    # Escape after an earlier "Draw anyway" still draws nothing.
    page.keyboard.press("d")
    expect(dialog).to_contain_text("3 cards on the peaks fit the waste.")
    page.keyboard.press("Escape")
    expect(dialog).to_be_hidden()
    page.wait_for_timeout(300)
    expect_seq(page, 1)

    # Turned off in the panel (and so in the account), a draw goes straight through.
    open_settings(page)
    with page.expect_response(lambda r: r.url.endswith(SETTINGS_URL)):
        page.get_by_label("Ask before drawing while a card fits").uncheck()
    page.locator(".stock").click()
    expect_seq(page, 2)
    expect(dialog).to_be_hidden()
    assert PlayerSettings.objects.get(user=user).confirm_draw_when_play_fits is False


@pytest.mark.usefixtures("transactional_db")
def test_without_the_setting_a_draw_never_asks(page: Page) -> None:
    user = make_player("bold")
    sign_in(page, "bold")
    open_game(page, user)
    expect(page.locator(PLAYABLE)).to_have_count(2)

    page.locator(".stock").click()

    expect_seq(page, 1)
    expect(page.get_by_role("dialog")).to_have_count(0)


@pytest.mark.usefixtures("transactional_db")
def test_a_guests_toggles_stay_in_the_browser(page: Page) -> None:
    """A guest's settings survive a reload through localStorage; nothing is sent to the server."""
    posted: list[Request] = []
    page.on("request", lambda r: posted.append(r) if r.url.endswith(SETTINGS_URL) else None)
    start_game(page)
    open_settings(page)
    expect(page.get_by_text("Saved with your account.")).to_have_count(0)

    page.get_by_label("Four-colour deck").check()
    page.get_by_label("Animations").uncheck()
    page.get_by_label("Ask before drawing while a card fits").check()
    page.reload()
    expect_seq(page, 0)

    assert has_class(page, "four-colour")
    assert has_class(page, "no-motion")
    open_settings(page)
    expect(page.get_by_label("Four-colour deck")).to_be_checked()
    expect(page.get_by_label("Animations")).not_to_be_checked()
    expect(page.get_by_label("Ask before drawing while a card fits")).to_be_checked()
    assert page.evaluate("localStorage.getItem('tripeaks.confirm-draw')") == "1"
    assert posted == []
