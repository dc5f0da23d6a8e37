"""Playing a game in a real browser: the board, clicks and keys, reloads, lost connections, the end.

The browser owns its game (it starts it from the home page, as a guest); where a test needs to know
the hidden cards, it reads the game's seed from the database and asks the engine, never the page.
Screenshots go to SCREENSHOT_DIR, outside the repository, for a person to look at.
"""

import os
import re
import tempfile
import uuid
from pathlib import Path

import pytest
from playwright.sync_api import Page, ViewportSize, expect

from game.engine import Card, Deal, GameState, Move, Variant
from game.models import Game
from tests.e2e.layout import expect_no_sideways_scroll

SCREENSHOT_DIR = Path(
    os.environ.get("TRIPEAKS_SCREENSHOTS", Path(tempfile.gettempdir()) / "tripeaks-screenshots")
)
PHONE: ViewportSize = {"width": 360, "height": 740}
DESKTOP: ViewportSize = {"width": 1280, "height": 800}
GAME_URL = re.compile(r"/games/([0-9a-f-]{36})/$")

FACE_UP = ".board__peaks .card:not(.card--down):not(.card--played)"
FACE_DOWN = ".board__peaks .card.card--down"
PLAYABLE = ".board__peaks .card.card--playable"

# Records the page's websockets, and lets a test lose what the page sends, as a bad network would.
SOCKET_SPY = """
window.__sockets = [];
window.__dropSends = false;
window.__closeAfterSend = false;
window.__refuseConnections = false;
const NativeWebSocket = window.WebSocket;
window.WebSocket = class extends NativeWebSocket {
  constructor(url, ...rest) {
    // A port nobody listens on stands for a server that cannot be reached.
    super(window.__refuseConnections ? "ws://127.0.0.1:9/" : url, ...rest);
    window.__sockets.push(this);
  }
  send(data) {
    if (window.__dropSends) return;
    super.send(data);
    if (window.__closeAfterSend) {
      window.__closeAfterSend = false;
      this.close();
    }
  }
};
"""


def screenshot(page: Page, name: str) -> None:
    SCREENSHOT_DIR.mkdir(parents=True, exist_ok=True)
    page.screenshot(path=SCREENSHOT_DIR / f"{name}.png", full_page=True)


def start_game(page: Page, variant: str = "tripeaks") -> uuid.UUID:
    """Start a game from the home page's Play button; return its id once the board is drawn."""
    page.goto("/")
    page.locator(f'input[name="variant"][value="{variant}"]').check()
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page).to_have_url(GAME_URL)
    expect_seq(page, 0)
    expect(page.locator("[data-connection]")).to_have_attribute("data-state", "open")
    match = GAME_URL.search(page.url)
    assert match is not None
    return uuid.UUID(match[1])


def expect_seq(page: Page, seq: int) -> None:
    """Wait until the board shows the snapshot after ``seq`` moves."""
    expect(page.locator("[data-game]")).to_have_attribute("data-seq", str(seq))


def click_move(page: Page, state: GameState, move: Move) -> None:
    """Make ``move`` on the page by a click (the card, or the stock), and in ``state``."""
    if move.card is None:
        page.locator(".stock").click()
    else:
        position = state.deal.positions[move.card.index]
        page.locator(f'.board__peaks .card[data-pos="{position}"]').click()
    state.apply(move)
    expect_seq(page, state.seq)


def play_out(page: Page, state: GameState) -> None:
    """Play to the end by clicks: the first card that fits, else a draw (ends within 51 moves)."""
    while not state.status.is_over:
        click_move(page, state, state.legal_moves()[0])


def short(code: str) -> str:
    """A card code as the page prints it: "Ts" → "10♠"."""
    rank = "10" if code[0] == "T" else code[0]
    return rank + {"c": "♣", "d": "♦", "h": "♥", "s": "♠"}[code[1]]


def hud(page: Page, name: str) -> str:
    return page.locator(f'[data-hud="{name}"]').inner_text()


def card_labels(page: Page) -> list[str | None]:
    """What the 28 places of the peaks say to a screen reader, by position."""
    return [card.get_attribute("aria-label") for card in page.locator(".board__peaks .card").all()]


def spoken_name(label: str) -> str:
    """The card in words from a face-up card's name: "K♠ king of spades, playable" → "king of
    spades"."""
    return label.split(" ", 1)[1].removesuffix(", playable")


def stock_count(page: Page) -> str:
    return page.locator(".stock__count").inner_text()


def engine_state(game_id: uuid.UUID, moves: int = 0) -> GameState:
    """The engine's state of a game after its first ``moves`` moves, from the stored log."""
    game = Game.objects.get(id=game_id)
    logged = list(game.moves.order_by("seq").values_list("move", flat=True))
    assert len(logged) == moves
    return GameState.replay(Deal.from_seed(game.seed), Variant(game.variant), logged)


def draw_until_something_fits(page: Page) -> int:
    """Draw until a card fits the waste (a fresh deal may offer none); return the moves made."""
    seq = 0
    while page.locator(PLAYABLE).count() == 0:
        page.locator(".stock").click()
        seq += 1
        expect_seq(page, seq)
    return seq


def test_play_starts_a_fresh_deal_from_the_home_page(page: Page) -> None:
    """Play on the home page opens a new game: 10 face-up cards, 18 backs, 23 in the stock."""
    start_game(page)

    expect(page.locator(FACE_UP)).to_have_count(10)
    expect(page.locator(FACE_DOWN)).to_have_count(18)
    expect(page.locator(".stock__count")).to_have_text("23")
    assert hud(page, "score") == "0"
    assert hud(page, "cards-left") == "28"
    assert hud(page, "peaks") == "0/3"
    expect(page.locator("[data-clock]")).to_have_text(re.compile(r"^\d+:\d\d$"))
    # Cards are buttons named for people, starting with what they show; face-down ones say only
    # that they are.
    expect(page.locator(FACE_DOWN).first).to_have_attribute("aria-label", "face-down card")
    label = page.locator(FACE_UP).first.get_attribute("aria-label") or ""
    assert re.fullmatch(
        r"(A|[2-9]|10|J|Q|K)[♣♦♥♠] "
        r"(ace|two|three|four|five|six|seven|eight|nine|ten|jack|queen|king) of "
        r"(clubs|diamonds|hearts|spades)(, playable)?",
        label,
    )
    for card in page.locator(PLAYABLE).all():
        expect(card).to_have_attribute("aria-label", re.compile(r", playable$"))
    screenshot(page, "play-start-desktop")


@pytest.mark.usefixtures("transactional_db")
def test_clicking_plays_a_card_and_draws(page: Page) -> None:
    """A click on a card that fits plays it (score up, one card fewer); the stock draws."""
    game_id = start_game(page)
    seq = draw_until_something_fits(page)
    stock = int(stock_count(page))
    card = page.locator(PLAYABLE).first
    position = card.get_attribute("data-pos")
    name = card.get_attribute("aria-label")

    card.click()

    expect_seq(page, seq + 1)
    expect(page.locator(f'.card[data-pos="{position}"]')).to_have_class(re.compile("card--played"))
    expect(page.locator('[data-hud="score"]')).to_have_text("10")
    expect(page.locator('[data-hud="streak"]')).to_have_text("1")
    expect(page.locator('[data-hud="cards-left"]')).to_have_text("27")
    assert name is not None
    expect(page.locator(".waste")).to_have_attribute("aria-label", f"Waste: {spoken_name(name)}")

    page.locator(".stock").click()

    expect_seq(page, seq + 2)
    expect(page.locator(".stock__count")).to_have_text(str(stock - 1))
    expect(page.locator('[data-hud="streak"]')).to_have_text("0")
    # The page showed what the server recorded.
    state = engine_state(game_id, seq + 2)
    assert hud(page, "score") == str(state.score)
    screenshot(page, "play-after-moves-desktop")


@pytest.mark.usefixtures("transactional_db")
def test_a_card_that_does_not_fit_is_explained_next_to_it(page: Page) -> None:
    """Clicking a face-up card that does not fit changes nothing, sends nothing, and says why in
    words beside the card; a face-down card is said to be covered."""
    sent: list[str] = []
    page.on("websocket", lambda ws: ws.on("framesent", lambda payload: sent.append(str(payload))))
    game_id = start_game(page)
    state = engine_state(game_id)
    misfit = next(
        p for p in range(18, 28) if p not in state.playable_positions()
    )  # ten face-up cards: at most eight of them fit any one waste card
    code = state.deal.tableau[misfit].code
    before = len(sent)

    page.locator(f'.card[data-pos="{misfit}"]').click()

    tip = page.locator("[data-card-tip]")
    waste = short(state.waste_top.code)
    expect(tip).to_have_text(
        re.compile(rf"^{re.escape(short(code))} doesn't fit on {waste}: play ")
    )
    expect(tip).to_have_attribute("role", "status")
    card_box = page.locator(f'.card[data-pos="{misfit}"]').bounding_box()
    tip_box = tip.bounding_box()
    assert card_box is not None
    assert tip_box is not None
    assert abs((tip_box["y"] + tip_box["height"]) - card_box["y"]) < 20  # just above the card
    screenshot(page, "play-misfit-desktop")
    # Face down: marked unavailable (aria-disabled), yet a tap on it is answered.
    page.locator('.card[data-pos="3"]').click(force=True, position={"x": 10, "y": 6})
    expect(tip).to_have_text("That card is covered: clear the cards on top of it first.")
    page.wait_for_timeout(200)
    assert sent[before:] == []  # nothing went to the server
    expect_seq(page, 0)
    expect(page.locator(FACE_UP)).to_have_count(10)
    expect(tip).to_be_hidden(timeout=6000)  # gone after a few seconds


@pytest.mark.usefixtures("transactional_db")
def test_reloading_finds_the_same_game(page: Page) -> None:
    """After a reload the page shows the same game at the same move, score and cards."""
    start_game(page)
    seq = draw_until_something_fits(page)
    page.locator(PLAYABLE).first.click()
    expect_seq(page, seq + 1)
    url = page.url
    before = {
        "score": hud(page, "score"),
        "stock": stock_count(page),
        "labels": card_labels(page),
    }

    page.reload()

    expect_seq(page, seq + 1)
    assert page.url == url
    after = {
        "score": hud(page, "score"),
        "stock": stock_count(page),
        "labels": card_labels(page),
    }
    assert after == before


@pytest.mark.usefixtures("transactional_db")
def test_keyboard_alone_plays_the_game(page: Page) -> None:
    """Tab reaches the cards, arrow keys move among the face-up ones, Enter plays, D draws."""
    game_id = start_game(page)
    page.locator("body").focus()

    for _ in range(30):  # Tab through the page until a card has focus
        page.keyboard.press("Tab")
        if page.evaluate("document.activeElement.matches('.board__peaks .card')"):
            break
    else:
        pytest.fail("Tab never reached a card")
    first = page.evaluate("document.activeElement.dataset.pos")
    page.keyboard.press("ArrowRight")
    assert page.evaluate("document.activeElement.dataset.pos") != first
    page.keyboard.press("ArrowLeft")
    assert page.evaluate("document.activeElement.dataset.pos") == first
    focus_ring = page.evaluate("getComputedStyle(document.activeElement).outlineStyle")
    assert focus_ring == "solid"

    # D draws whenever nothing fits; then arrows find a card that fits, and Enter plays it.
    seq = 0
    while page.locator(PLAYABLE).count() == 0:
        page.keyboard.press("d")
        seq += 1
        expect_seq(page, seq)
    for _ in range(12):
        if page.evaluate("document.activeElement.classList.contains('card--playable')"):
            break
        page.keyboard.press("ArrowRight")
    else:
        pytest.fail("the arrow keys never reached a card that fits")
    page.keyboard.press("Enter")
    expect_seq(page, seq + 1)
    expect(page.locator('[data-hud="streak"]')).to_have_text("1")
    # Focus stays on the board, on a card still there, ready for the next key.
    assert page.evaluate("document.activeElement.matches('.board .card:not(.card--played)')")

    stock = int(stock_count(page))
    page.keyboard.press("D")
    expect_seq(page, seq + 2)
    expect(page.locator(".stock__count")).to_have_text(str(stock - 1))
    assert engine_state(game_id, seq + 2).stock_count == stock - 1


@pytest.mark.usefixtures("transactional_db")
def test_a_game_played_to_the_end(page: Page) -> None:
    """A whole game by clicks: the end panel breaks the score down, the replay shows the game,
    and "Play this deal again" deals the same cards."""
    page.emulate_media(reduced_motion="reduce")
    game_id = start_game(page)
    state = engine_state(game_id)
    opening = [state.deal.tableau[p].code for p in range(18, 28)]

    play_out(page, state)

    panel = page.locator("[data-game-over]")
    expect(panel).to_be_visible()
    expect(panel.get_by_role("heading", level=2)).to_have_text(
        {"won": "You won!", "lost": "No more moves"}[state.status.value]
    )
    expect(panel.get_by_role("heading", level=2)).to_be_focused()
    breakdown = state.score_breakdown()
    expect(panel.locator('[data-over="streak-points"]')).to_have_text(str(breakdown.streak_points))
    expect(panel.locator('[data-over="peak-bonus"]')).to_have_text(str(breakdown.peak_bonus))
    expect(panel.locator('[data-over="clearing-bonus"]')).to_have_text(
        str(breakdown.clearing_bonus)
    )
    expect(panel.locator('[data-over="score"]')).to_have_text(str(state.score))
    expect(panel.locator('[data-over="time"]')).to_have_text(re.compile(r"^\d+:\d\d$"))
    expect(page.locator("[data-abandon]")).to_be_hidden()
    screenshot(page, "play-over-desktop")
    page.set_viewport_size(PHONE)
    screenshot(page, "play-over-phone")
    page.set_viewport_size(DESKTOP)

    # The same address now shows the replay, with the deal revealed.
    panel.get_by_role("link", name=re.compile("replay")).click()
    expect(page.get_by_role("heading", level=1)).to_contain_text(f"{state.score} point")
    expect(page.locator(".board__peaks .card.card--down")).to_have_count(0)
    expect(page.locator(".board__peaks .card.card--revealed")).to_have_count(18)
    moves = len(state.moves)
    expect(page.locator("[data-move-list] button")).to_have_count(moves)
    page.keyboard.press("ArrowRight")
    expect(page.locator("[data-position]")).to_contain_text(f"Move 1 of {moves}")
    page.get_by_role("button", name="Last").click()
    expect(page.locator("[data-position]")).to_contain_text(f"Move {moves} of {moves}")
    expect(page.locator('[data-hud="score"]')).to_have_text(str(state.score))
    page.keyboard.press("Home")
    expect(page.locator("[data-position]")).to_have_text("The deal, before the first move.")
    expect(page.locator('[data-final="peak-bonus"]')).to_have_text(str(breakdown.peak_bonus))
    expect(page.get_by_role("link", name=re.compile("export.json"))).to_have_attribute(
        "href", f"/games/{game_id}/export.json"
    )
    screenshot(page, "replay-desktop")

    page.get_by_role("button", name="Play this deal again").click()
    expect(page).to_have_url(GAME_URL)
    assert str(game_id) not in page.url
    expect_seq(page, 0)
    bottom_row = [
        page.locator(f'.board__peaks .card[data-pos="{p}"]').get_attribute("aria-label")
        for p in range(18, 28)
    ]
    assert [spoken_name(label) for label in bottom_row if label] == [
        Card.parse(code).name for code in opening
    ]


@pytest.mark.usefixtures("transactional_db")
def test_giving_up_asks_first(page: Page) -> None:
    """Give up asks for confirmation; "Keep playing" changes nothing, confirming ends the game."""
    game_id = start_game(page)

    page.get_by_role("button", name="Give up").click()
    dialog = page.get_by_role("dialog")
    expect(dialog).to_be_visible()
    dialog.get_by_role("button", name="Keep playing").click()
    expect(dialog).to_be_hidden()
    assert Game.objects.get(id=game_id).status == "in_progress"

    page.get_by_role("button", name="Give up").click()
    dialog.get_by_role("button", name="Give up").click()

    expect(page.locator("[data-game-over]").get_by_role("heading", level=2)).to_have_text(
        "Game given up"
    )
    expect(page.locator("[data-game]")).to_have_attribute("data-status", "abandoned")
    assert Game.objects.get(id=game_id).status == "abandoned"


@pytest.mark.usefixtures("transactional_db")
def test_a_move_lost_with_the_connection_is_sent_again(page: Page) -> None:
    """A move that never reached the server is sent again once the page has reconnected."""
    page.add_init_script(SOCKET_SPY)
    game_id = start_game(page)
    seq = draw_until_something_fits(page)
    page.evaluate("window.__dropSends = true")

    page.locator(PLAYABLE).first.click()
    page.wait_for_timeout(300)
    assert Game.objects.get(id=game_id).move_count == seq  # nothing reached the server
    page.evaluate("window.__refuseConnections = true; window.__sockets.at(-1).close()")
    connection = page.locator("[data-connection]")
    expect(connection).to_have_text("Reconnecting…")
    page.wait_for_timeout(1200)  # a few attempts, further and further apart
    screenshot(page, "play-reconnecting-desktop")
    page.evaluate("window.__dropSends = false; window.__refuseConnections = false")

    expect(connection).to_have_attribute("data-state", "open", timeout=10_000)
    expect_seq(page, seq + 1)
    assert Game.objects.get(id=game_id).move_count == seq + 1
    assert page.evaluate("window.__sockets.length") >= 3


@pytest.mark.usefixtures("transactional_db")
def test_a_move_whose_answer_was_lost_is_not_made_twice(page: Page) -> None:
    """When the connection drops after a draw was sent, the page resyncs by seq on reconnecting
    and the draw is recorded once."""
    page.add_init_script(SOCKET_SPY)
    game_id = start_game(page)
    page.evaluate("window.__closeAfterSend = true")

    page.keyboard.press("d")

    expect_seq(page, 1)
    expect(page.locator("[data-connection]")).to_have_attribute("data-state", "open")
    page.wait_for_timeout(300)
    expect(page.locator(".stock__count")).to_have_text("22")
    assert Game.objects.get(id=game_id).move_count == 1


def test_the_board_fits_a_phone(page: Page) -> None:
    """At 360 × 740 the whole board shows without scrolling sideways, and a tap plays."""
    page.set_viewport_size(PHONE)
    start_game(page)

    expect_no_sideways_scroll(page)
    box = page.locator(".board").bounding_box()
    assert box is not None
    assert box["x"] >= 0
    assert box["x"] + box["width"] <= PHONE["width"]
    screenshot(page, "play-start-phone")

    seq = draw_until_something_fits(page)
    page.locator(PLAYABLE).first.click()
    expect_seq(page, seq + 1)
    expect_no_sideways_scroll(page)


def test_four_colour_deck_is_remembered(page: Page) -> None:
    """The four-colour deck setting recolours clubs and diamonds and survives a reload."""
    start_game(page)
    page.get_by_text("Settings").click()

    page.get_by_label("Four-colour deck").check()

    assert page.evaluate("document.documentElement.classList.contains('four-colour')")
    page.reload()
    expect_seq(page, 0)
    assert page.evaluate("document.documentElement.classList.contains('four-colour')")
    expect(page.get_by_label("Four-colour deck")).to_be_checked()
    screenshot(page, "play-four-colour-desktop")


def give_up(page: Page) -> None:
    page.get_by_role("button", name="Give up").click()
    page.get_by_role("dialog").get_by_role("button", name="Give up").click()
    expect(page.locator("[data-game]")).to_have_attribute("data-status", "abandoned")


def bottom_row(page: Page) -> list[str]:
    """The names of the bottom row's cards, dealt face up."""
    labels = [
        page.locator(f'.board__peaks .card[data-pos="{p}"]').get_attribute("aria-label") or ""
        for p in range(18, 28)
    ]
    return [label.removesuffix(", playable") for label in labels]


def shown_game(page: Page) -> uuid.UUID:
    """The game the page's address names."""
    match = GAME_URL.search(page.url)
    assert match is not None, page.url
    return uuid.UUID(match[1])


@pytest.mark.usefixtures("transactional_db")
def test_the_next_game_comes_over_the_same_socket(page: Page) -> None:
    """ "Play this deal again" and "New game" deal the next game on the page's one socket, without
    a reload: the board, the panel and the address follow, a reload lands on the game shown, and
    going back reaches the game before, on its own page."""
    page.add_init_script(SOCKET_SPY)
    first = start_game(page, "tripeaks-nowrap")
    opening = bottom_row(page)
    give_up(page)
    page.evaluate("window.__samePage = true")

    page.locator("[data-game-over]").get_by_role("button", name="Play this deal again").click()

    expect(page).not_to_have_url(re.compile(str(first)))
    again = shown_game(page)
    expect(page.locator("[data-game]")).to_have_attribute("data-game-id", str(again))
    expect_seq(page, 0)
    expect(page.locator("[data-game-over]")).to_be_hidden()
    expect(page.get_by_role("button", name="Give up")).to_be_visible()
    assert bottom_row(page) == opening  # the same deal, dealt again
    page.locator(".stock").click()
    expect_seq(page, 1)
    assert Game.objects.get(id=again).move_count == 1
    assert Game.objects.get(id=first).move_count == 0
    give_up(page)
    expect(page.locator("[data-game-over] [data-game-link]").first).to_have_attribute(
        "href", f"/games/{again}/"
    )

    page.locator("[data-game-over]").get_by_role("button", name="New game").click()

    expect(page).not_to_have_url(re.compile(str(again)))
    fresh = shown_game(page)
    expect_seq(page, 0)
    assert Game.objects.get(id=fresh).variant == "tripeaks-nowrap"  # the rules of the game before
    assert page.evaluate("[window.__samePage, window.__sockets.length]") == [True, 1]
    screenshot(page, "play-next-game-desktop")

    page.reload()
    expect_seq(page, 0)
    assert shown_game(page) == fresh
    page.go_back()
    expect(page).to_have_url(re.compile(f"/games/{again}/$"))
    expect(page.locator("[data-move-list] button")).to_have_count(1)  # its replay: one draw
