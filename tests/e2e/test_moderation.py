"""The staff replay viewer in a real browser: a moderator steps through a game still being played,
with every card shown, by the buttons and by the keyboard; players and other staff get no viewer.

The test knows where every card lies from the engine (the game's seed and its stored log), and
compares what the page draws with that at each step it looks at.
"""

import re
import uuid
from datetime import timedelta
from typing import Any

import pytest
from django.conf import settings
from django.contrib.auth.models import User
from django.test import Client
from django.utils import timezone
from playwright.sync_api import Browser, BrowserContext, Page, expect

from game.engine import Card, Deal, GameState, Variant
from game.models import Game
from tests.accounts.helpers import make_player, play_out
from tests.e2e.layout import expect_no_sideways_scroll
from tests.e2e.test_play import PHONE, screenshot
from tests.moderation.conftest import make_moderator

# A deal whose first legal moves mix plays and draws: 6♦ 5♠ 4♠ 3♦ 2♥ 3♠ draw K♠ A♥ K♣ draw 6♠ draw
# K♥. The game stops there, in play, with face-down cards left on the peaks.
SEED = "moderation-e2e"
MOVES = 14
SUIT_SYMBOLS = {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}

# What the page draws of each of the 28 places: how the card is drawn, what it says to a screen
# reader, and the rank and suit printed on its face.
BOARD_SHOWN = """() => [...document.querySelectorAll(".board__peaks .card")].map((card) => [
  card.classList.contains("card--played") ? "played"
    : card.classList.contains("card--revealed") ? "revealed"
    : card.classList.contains("card--down") ? "down" : "up",
  card.getAttribute("aria-label"),
  card.querySelector(".card__rank").textContent + card.querySelector(".card__suit").textContent,
])"""
STOCK_SHOWN = """() => [...document.querySelectorAll("[data-stock-list] li")].map(
  (item) => item.getAttribute("aria-label"))"""
# How a face is painted: its background and whether the body is turned over (to its back).
FACE_STYLE = """(card) => [
  getComputedStyle(card.querySelector(".card__face")).backgroundImage,
  getComputedStyle(card.querySelector(".card__body")).transform,
]"""


def sign_in(context: BrowserContext, user: User, server_url: str) -> None:
    """Give the browser a session signed in as ``user`` (a real one, in the session table)."""
    client = Client()
    client.force_login(user)
    name = settings.SESSION_COOKIE_NAME
    context.add_cookies([{"name": name, "value": client.cookies[name].value, "url": server_url}])


def viewer_url(game: Game) -> str:
    return f"/moderation/games/{game.id}/"


def state_after(game: Game, moves: int) -> GameState:
    """The engine's state after the first ``moves`` moves of the stored log."""
    logged = list(game.moves.order_by("seq").values_list("move", flat=True))
    return GameState.replay(Deal.from_seed(game.seed), Variant(game.variant), logged[:moves])


def short(card: Card) -> str:
    """The card as its face prints it: "10♥", "K♠"."""
    rank = "10" if card.code[0] == "T" else card.code[0]
    return rank + SUIT_SYMBOLS[card.code[1]]


def board_expected(state: GameState) -> list[list[Any]]:
    """What BOARD_SHOWN should find: face-down cards drawn "revealed", with their face shown."""
    places: list[list[Any]] = []
    for position, card in enumerate(state.deal.tableau):
        if state.is_played(position):
            places.append(["played", None, ""])  # gone: nothing painted
        elif state.is_face_up(position):
            places.append(["up", f"{short(card)} {card.name}", short(card)])
        else:
            places.append(["revealed", f"{short(card)} {card.name}, face down", short(card)])
    return places


def position_text(state: GameState, total: int) -> str:
    """What the live region says at ``state``, in a game of ``total`` moves still being played."""
    if state.seq == 0:
        where = "The deal, before the first move"
    else:
        move = state.moves[-1]
        sentence = (
            f"drew the {state.waste_top.name}"
            if move.card is None
            else f"played the {move.card.name}"
        )
        where = f"Move {state.seq} of {total}: {sentence}"
    end = "; in progress" if state.seq == total else ""
    figures = f"score {state.score}, streak {state.streak}, {state.stock_count} in the stock"
    return f"{where}. {figures}{end}."


def expect_frame(page: Page, game: Game, moves: int) -> GameState:
    """Wait for the viewer to say it shows the position after ``moves`` moves, then check every
    card on the peaks, the stock's order, the waste and which step buttons can be pressed."""
    state = state_after(game, moves)
    expect(page.locator("[data-position]")).to_have_text(position_text(state, MOVES))
    assert page.evaluate(BOARD_SHOWN) == board_expected(state)
    drawn = len(state.deal.stock) - state.stock_count
    assert page.evaluate(STOCK_SHOWN) == [card.name for card in state.deal.stock[drawn:]]
    expect(page.locator(".waste")).to_have_attribute("aria-label", f"Waste: {state.waste_top.name}")
    for name, enabled in (("First", moves > 0), ("Back", moves > 0)):
        expect(page.get_by_role("button", name=name, exact=True)).to_be_enabled(enabled=enabled)
    for name, enabled in (("Next", moves < MOVES), ("Last", moves < MOVES)):
        expect(page.get_by_role("button", name=name, exact=True)).to_be_enabled(enabled=enabled)
    current = page.locator('.mod-move-list__move[aria-current="step"]')
    if moves:
        expect(current).to_have_attribute("data-frame", str(moves))
    else:
        expect(current).to_have_count(0)
    return state


def expect_played_where_the_engine_says(page: Page, game: Game, moves: int) -> None:
    """The place the engine gives the card that move ``moves`` plays is empty now, and the card
    is on the waste (expect_frame has seen it there, face up, the step before)."""
    before = state_after(game, moves - 1)
    move = state_after(game, moves).moves[-1]
    assert move.card is not None, f"move {moves} of this deal is a play"
    place = page.locator(
        f'.board__peaks .card[data-pos="{before.deal.positions[move.card.index]}"]'
    )
    expect(place).to_have_class(re.compile(r"\bcard--played\b"))
    expect(page.locator(".waste")).to_have_attribute("aria-label", f"Waste: {move.card.name}")


@pytest.fixture
def game(transactional_db: None) -> Game:
    """Ada's game on SEED, MOVES moves in and still being played."""
    ada = make_player("ada")
    started = Game.objects.create(
        seed=SEED, owner=ada, started_at=timezone.now() - timedelta(minutes=3)
    )
    state = play_out(started, moves=MOVES)
    assert not state.status.is_over
    kinds = {move.card is None for move in state.moves}
    assert kinds == {True, False}, "the log mixes plays and draws"
    return started


@pytest.fixture
def staff_page(page: Page, server_url: str, game: Game) -> Page:
    """A moderator's page, on the viewer of ``game``."""
    sign_in(page.context, make_moderator("mona"), server_url)
    page.emulate_media(reduced_motion="reduce")
    response = page.goto(viewer_url(game))
    assert response is not None
    assert response.status == 200
    return page


def test_the_viewer_shows_every_card_and_steps_by_buttons_and_keys(
    staff_page: Page, game: Game
) -> None:
    page = staff_page
    deal = expect_frame(page, game, 0).deal
    # Face-down cards show their faces, drawn on the hatched "still face down" face; face-up ones
    # on a plain face. The stock lists all 23 cards in the order they come.
    assert len(page.evaluate(STOCK_SHOWN)) == len(deal.stock) == 23
    revealed = page.locator(".board__peaks .card.card--revealed")
    expect(revealed).to_have_count(18)
    expect(revealed.first.locator(".card__rank")).to_be_visible()
    background, transform = revealed.first.evaluate(FACE_STYLE)
    assert "repeating-linear-gradient" in background
    assert transform == "none"  # turned face up, not showing its back
    face_up = page.locator(".board__peaks .card:not(.card--revealed):not(.card--played)").first
    assert "repeating-linear-gradient" not in face_up.evaluate(FACE_STYLE)[0]
    # The stock's cards, face down too, on the same hatched face.
    stock_face = page.locator("[data-stock-list] li").first.evaluate(
        "(item) => getComputedStyle(item).backgroundImage"
    )
    assert "repeating-linear-gradient" in stock_face
    screenshot(page, "moderation-viewer-desktop")

    # The buttons: Next plays the first move (6♦ off the peaks), Back undoes it.
    page.get_by_role("button", name="Next", exact=True).click()
    expect_frame(page, game, 1)
    expect_played_where_the_engine_says(page, game, 1)
    page.get_by_role("button", name="Next", exact=True).click()
    expect_frame(page, game, 2)
    page.get_by_role("button", name="Back", exact=True).click()
    expect_frame(page, game, 1)
    page.get_by_role("button", name="Last", exact=True).click()
    expect_frame(page, game, MOVES)
    # Last and Next are disabled now: focus goes to Back, not lost with the disabled button.
    expect(page.get_by_role("button", name="Back", exact=True)).to_be_focused()
    page.get_by_role("button", name="First", exact=True).click()
    expect_frame(page, game, 0)
    expect(page.get_by_role("button", name="Next", exact=True)).to_be_focused()

    # The keyboard: → ← step, End and Home jump; a step past either end stays put.
    keyboard = page.keyboard
    keyboard.press("ArrowLeft")
    expect_frame(page, game, 0)
    for moves in range(1, 8):
        keyboard.press("ArrowRight")
        expect_frame(page, game, moves)
    # Move 7 is a draw: the stock's next card turns up on the waste.
    assert state_after(game, 7).moves[-1].card is None
    keyboard.press("ArrowRight")
    expect_frame(page, game, 8)
    expect_played_where_the_engine_says(page, game, 8)  # K♠, uncovered by the earlier plays
    keyboard.press("ArrowLeft")
    expect_frame(page, game, 7)
    keyboard.press("End")
    expect_frame(page, game, MOVES)
    expect_played_where_the_engine_says(page, game, MOVES)
    keyboard.press("ArrowRight")
    expect_frame(page, game, MOVES)
    keyboard.press("Home")
    expect_frame(page, game, 0)

    # A move in the list jumps to it; typing a reason does not step.
    page.locator("summary", has_text="Every move").click()
    page.locator('.mod-move-list__move[data-frame="5"]').click()
    expect_frame(page, game, 5)
    reason = page.locator("#hide-reason")
    reason.fill("looks fine")
    reason.press("ArrowRight")
    expect_frame(page, game, 5)


def test_the_viewer_fits_a_phone(staff_page: Page, game: Game) -> None:
    """At 360 px wide nothing scrolls sideways: the board, the stock, the controls, the moves."""
    page = staff_page
    page.set_viewport_size(PHONE)
    page.reload()
    expect_frame(page, game, 0)
    page.locator("summary", has_text="Every move").click()
    for moves in (0, MOVES):
        if moves:
            page.keyboard.press("End")
        expect_frame(page, game, moves)
        expect_no_sideways_scroll(page)
    # The four step buttons share one row.
    tops = {
        round(box["y"])
        for box in (
            page.get_by_role("button", name=name, exact=True).bounding_box()
            for name in ("First", "Back", "Next", "Last")
        )
        if box is not None
    }
    assert len(tops) == 1
    board = page.locator("[data-board]").bounding_box()
    assert board is not None
    assert board["x"] >= 0
    assert board["x"] + board["width"] <= PHONE["width"]
    screenshot(page, "moderation-viewer-phone")


def test_players_and_other_staff_get_no_viewer(
    browser: Browser, server_url: str, game: Game
) -> None:
    """A signed-in player is sent to the admin's sign-in; staff outside the moderator group get
    403. Neither page carries the frames, nor the unfinished game's seed."""
    sam = make_player("sam", email="sam@example.com")
    sam.is_staff = True
    sam.save(update_fields=["is_staff"])
    owner = game.owner
    assert owner is not None
    for user, status in (
        (owner, 200),
        (make_player("bob", email="bob@example.com"), 200),
        (sam, 403),
    ):
        context = browser.new_context(base_url=server_url)
        try:
            sign_in(context, user, server_url)
            page = context.new_page()
            response = page.goto(viewer_url(game))
            assert response is not None
            assert response.status == status, user.username
            if status == 200:
                expect(page).to_have_url(re.compile(r"/admin/login/\?next="))
            assert page.locator("#mod-frames").count() == 0
            assert page.locator("[data-mod-viewer]").count() == 0
            assert SEED not in page.content()
        finally:
            context.close()


@pytest.mark.usefixtures("transactional_db")
def test_an_unknown_game_is_not_found(page: Page, server_url: str) -> None:
    sign_in(page.context, make_moderator("mona"), server_url)
    response = page.goto(f"/moderation/games/{uuid.uuid4()}/")
    assert response is not None
    assert response.status == 404
