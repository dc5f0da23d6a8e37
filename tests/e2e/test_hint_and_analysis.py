"""Hints, the post-game analysis and winnable deals, in a real browser.

The browser owns its game (started from the home page, as a guest). Where a test needs the hidden
cards it reads the seed from the database and asks the engine; what the page shows of the analysis
is checked against the row the worker process stored. Screenshots go to SCREENSHOT_DIR.
"""

import re
import uuid
from typing import Any

import pytest
from playwright.sync_api import Locator, Page, Response, expect

from game.engine import Deal, GameState, Variant, solve
from game.models import Game, GameAnalysis
from tests.e2e.layout import expect_no_sideways_scroll
from tests.e2e.test_play import (
    DESKTOP,
    GAME_URL,
    PHONE,
    SOCKET_SPY,
    click_move,
    engine_state,
    expect_seq,
    screenshot,
    start_game,
)

ANALYSIS_TIMEOUT = 60_000  # ms: the solver runs in a worker process once the game is over
SUGGESTED = ".card--suggested, .stock--suggested"

# Keeps every message the server sends (window.__received); with window.__dropAnalysis set, the
# page never sees an "analysis" message, as if it had been pushed while the socket was down.
MESSAGE_SPY = """
window.__received = [];
window.__dropAnalysis = false;
const SpiedWebSocket = window.WebSocket;
window.WebSocket = class extends SpiedWebSocket {
  addEventListener(type, listener, ...rest) {
    if (type !== "message") return super.addEventListener(type, listener, ...rest);
    return super.addEventListener(type, (event) => {
      let message = null;
      try { message = JSON.parse(event.data); } catch {}
      if (message) window.__received.push(message);
      if (window.__dropAnalysis && message && message.type === "analysis") return;
      listener.call(this, event);
    }, ...rest);
  }
};
"""


def received(page: Page, kind: str) -> list[dict[str, Any]]:
    """The messages of type ``kind`` the page has received so far."""
    messages: list[dict[str, Any]] = page.evaluate(
        "(kind) => window.__received.filter((m) => m.type === kind)", kind
    )
    return messages


def wait_for_hint(page: Page, count: int) -> dict[str, Any]:
    """Wait for the ``count``-th hint answer; return it."""
    page.wait_for_function(
        "(n) => window.__received.filter((m) => m.type === 'hint').length >= n", arg=count
    )
    return received(page, "hint")[count - 1]


def suggested_node(page: Page, hint: dict[str, Any]) -> Locator:
    if hint["move"] == "draw":
        return page.locator(".stock")
    return page.locator(f'.board__peaks .card[data-pos="{hint["position"]}"]')


def check_hint_shown(page: Page, game_id: uuid.UUID, hint: dict[str, Any]) -> None:
    """The page marks the move the server named, and the engine agrees that it can be made."""
    state = engine_state(game_id, hint["game"]["seq"])
    expect(page.locator(SUGGESTED)).to_have_count(1)
    node = suggested_node(page, hint)
    if hint["move"] == "draw":
        assert hint["position"] is None
        assert state.playable_positions() == []  # a hint never draws while a card fits
        expect(node).to_have_class(re.compile(r"\bstock--suggested\b"))
        expect(node).to_have_attribute("aria-label", re.compile(r"suggested by the hint$"))
    else:
        assert hint["position"] in state.playable_positions()
        assert state.deal.tableau[hint["position"]].code == hint["move"]
        expect(node).to_have_class(re.compile(r"\bcard--suggested\b"))
        expect(node).to_have_class(re.compile(r"\bcard--playable\b"))
        expect(node).to_have_attribute("aria-label", re.compile(r", suggested by the hint$"))
    # A blue ring of its own, not the gold outline of a card that fits.
    ring = node.evaluate("(el) => getComputedStyle(el, '::before').borderTopColor")
    assert ring == "rgb(92, 200, 255)"
    expect(page.locator("[data-message]")).to_have_text(hint["reason"])
    expect(page.locator("[data-announcer]")).to_have_text(re.compile(re.escape(hint["reason"])))


@pytest.mark.usefixtures("transactional_db")
def test_a_hint_shows_the_move_and_marks_the_game_assisted(page: Page) -> None:
    """The Hint button warns once, then rings the move the server named (a card that fits, or
    the stock) until the next move; the game is marked assisted, on the page and in the DB."""
    page.add_init_script(MESSAGE_SPY)
    page.emulate_media(reduced_motion="reduce")
    game_id = start_game(page)
    badge = page.locator("[data-hud-assisted]")
    expect(badge).to_be_hidden()

    page.get_by_role("button", name="Hint").click()
    dialog = page.get_by_role("dialog", name="Use a hint?")
    expect(dialog).to_contain_text("assisted")
    dialog.get_by_role("button", name="Show me a hint").click()

    hint = wait_for_hint(page, 1)
    assert hint["game"]["assisted"] is True
    check_hint_shown(page, game_id, hint)
    expect(badge).to_be_visible()
    expect(badge).to_have_text("Assisted")
    assert Game.objects.get(id=game_id).assisted is True
    screenshot(page, "hint-desktop")
    page.set_viewport_size(PHONE)
    expect_no_sideways_scroll(page)
    screenshot(page, "hint-phone")
    page.set_viewport_size(DESKTOP)

    # Taking the advice is the next move: the ring goes.
    suggested_node(page, hint).click()
    expect_seq(page, 1)
    expect(page.locator(SUGGESTED)).to_have_count(0)
    expect(badge).to_be_visible()

    # The mark stays with the game: a reload shows it at once.
    page.reload()
    expect_seq(page, 1)
    expect(badge).to_be_visible()


@pytest.mark.usefixtures("transactional_db")
def test_h_asks_for_a_hint_from_the_keyboard(page: Page) -> None:
    """H opens the warning (Not now changes nothing); confirmed, it shows a hint; once the game
    is assisted, H shows the next hint without asking again."""
    page.add_init_script(MESSAGE_SPY)
    game_id = start_game(page)
    page.locator("body").focus()

    page.keyboard.press("h")
    dialog = page.get_by_role("dialog", name="Use a hint?")
    expect(dialog).to_be_visible()
    expect(dialog.get_by_role("button", name="Not now")).to_be_focused()
    page.keyboard.press("Enter")
    expect(dialog).to_be_hidden()
    page.wait_for_timeout(200)
    assert received(page, "hint") == []
    assert Game.objects.get(id=game_id).assisted is False

    page.keyboard.press("H")
    expect(dialog).to_be_visible()
    page.keyboard.press("Tab")
    expect(dialog.get_by_role("button", name="Show me a hint")).to_be_focused()
    page.keyboard.press("Enter")
    first = wait_for_hint(page, 1)
    check_hint_shown(page, game_id, first)
    expect(page.locator("[data-hud-assisted]")).to_be_visible()
    assert Game.objects.get(id=game_id).assisted is True

    page.keyboard.press("d")  # a draw, whatever the hint said: the ring goes with the move
    expect_seq(page, 1)
    expect(page.locator(SUGGESTED)).to_have_count(0)

    page.keyboard.press("h")
    second = wait_for_hint(page, 2)
    expect(dialog).to_be_hidden()
    assert second["game"]["seq"] == 1
    check_hint_shown(page, game_id, second)


def play_to_the_end(page: Page, game_id: uuid.UUID) -> tuple[GameState, int]:
    """Play the game by clicks: plays before draws, except one draw while a card fits (for the
    analysis to point out). Return the final state and that draw's move number."""
    state = engine_state(game_id)
    draw_while_fitting = 0
    while not state.status.is_over:
        plays = state.playable_positions()
        if plays and (draw_while_fitting or state.stock_count == 0):
            click_move(page, state, state.legal_moves()[0])
        else:
            if plays:
                draw_while_fitting = state.seq + 1
            click_move(page, state, state.legal_moves()[-1])
    return state, draw_while_fitting


def expect_analysis(section: Locator, analysis: GameAnalysis, draw_move: int) -> None:
    """The section shows the stored analysis: par, the share of it, the verdict, the draws."""
    report = analysis.report
    expect(section).to_have_attribute("data-state", "ready", timeout=ANALYSIS_TIMEOUT)
    expect(section.locator("[data-analysis-par]")).to_have_text(str(analysis.par))
    if not report["par_exact"]:
        expect(section).to_contain_text("Par: at least")
    if report["share"] is not None:
        expect(section.locator("[data-analysis-share]")).to_have_text(re.compile(r"^\d{1,3}%$"))
        shown = int(section.locator("[data-analysis-share]").inner_text().removesuffix("%"))
        assert abs(shown - report["share"] * 100) <= 1
    verdict = section.locator("[data-analysis-verdict]")
    if report["winnable"] is False:
        expect(verdict).to_have_text("This deal could not be won: no line clears all 28 cards.")
    elif report["lost_at"] is not None:
        expect(verdict).to_have_text(f"The deal could still be won until move {report['lost_at']}.")
    if draw_move:
        expect(section.locator("[data-analysis-draws]")).to_contain_text(
            f"Move {draw_move}: you drew while"
        )
    expect(section.locator("[data-analysis-longest]")).to_contain_text("Longest: ")


@pytest.mark.usefixtures("transactional_db")
def test_the_analysis_follows_the_end_of_the_game(page: Page) -> None:
    """The game-over panel shows at once, says par is being worked out, and fills in the analysis
    when the worker pushes it; the finished game's page shows it too, and its move numbers step
    the replay there."""
    page.add_init_script(MESSAGE_SPY)
    page.emulate_media(reduced_motion="reduce")
    game_id = start_game(page)
    state, draw_move = play_to_the_end(page, game_id)

    panel = page.locator("[data-game-over]")
    expect(panel).to_be_visible()
    section = panel.locator("[data-analysis]")
    expect(section.get_by_role("heading", name="Analysis")).to_be_visible()
    if section.get_attribute("data-state") == "pending":
        expect(section).to_contain_text("Working out par…")

    expect(section).to_have_attribute("data-state", "ready", timeout=ANALYSIS_TIMEOUT)
    assert len(received(page, "analysis")) == 1  # it came over the socket
    analysis = GameAnalysis.objects.get(game_id=game_id)
    assert analysis.report["score"] == state.score
    expect_analysis(section, analysis, draw_move)
    expect(page.locator("[data-announcer]")).to_have_text(re.compile(f"par .*{analysis.par}"))
    screenshot(page, "analysis-over-desktop")
    page.set_viewport_size(PHONE)
    expect_no_sideways_scroll(page)
    section.scroll_into_view_if_needed()
    screenshot(page, "analysis-over-phone")
    page.set_viewport_size(DESKTOP)

    # The finished game's page: the same analysis, fetched; a move number steps the replay.
    page.reload()
    replay_section = page.locator("[data-analysis]")
    expect_analysis(replay_section, analysis, draw_move)
    moves = len(state.moves)
    jump = replay_section.locator(f'[data-analysis-draws] button[data-jump="{draw_move}"]')
    jump.click()
    expect(page.locator("[data-position]")).to_contain_text(f"Move {draw_move} of {moves}")
    expect(page.locator(f'[data-move-list] button[data-frame="{draw_move}"]')).to_have_attribute(
        "aria-current", "step"
    )
    lost_at = analysis.report["lost_at"]
    if lost_at is not None:
        replay_section.locator("[data-analysis-verdict] button").click()
        expect(page.locator("[data-position]")).to_contain_text(f"Move {lost_at} of {moves}")
    replay_section.scroll_into_view_if_needed()
    screenshot(page, "analysis-replay-desktop")
    page.set_viewport_size(PHONE)
    expect_no_sideways_scroll(page)
    replay_section.scroll_into_view_if_needed()
    screenshot(page, "analysis-replay-phone")


@pytest.mark.usefixtures("transactional_db")
def test_the_analysis_is_fetched_when_the_socket_cannot_bring_it(page: Page) -> None:
    """With the socket gone once the game is over (and the push lost), the panel asks
    GET analysis.json until the analysis is there."""
    page.add_init_script(SOCKET_SPY)
    page.add_init_script(MESSAGE_SPY)
    game_id = start_game(page)
    page.evaluate("window.__dropAnalysis = true")
    answers: list[int] = []

    def record(response: Response) -> None:
        if response.url.endswith(f"/games/{game_id}/analysis.json"):
            answers.append(response.status)

    page.on("response", record)

    page.get_by_role("button", name="Give up").click()
    page.get_by_role("dialog").get_by_role("button", name="Give up").click()
    expect(page.locator("[data-game]")).to_have_attribute("data-status", "abandoned")
    page.evaluate("window.__refuseConnections = true; window.__sockets.at(-1).close()")
    expect(page.locator("[data-connection]")).not_to_have_attribute("data-state", "open")

    section = page.locator("[data-game-over] [data-analysis]")
    expect(section).to_have_attribute("data-state", "ready", timeout=ANALYSIS_TIMEOUT)
    analysis = GameAnalysis.objects.get(game_id=game_id)
    expect(section.locator("[data-analysis-par]")).to_have_text(str(analysis.par))
    assert answers[-1] == 200
    assert set(answers) <= {200, 202}


@pytest.mark.usefixtures("transactional_db")
def test_winnable_deals_only(page: Page) -> None:
    """ "Winnable deals only" on the home page deals what the solver proves winnable; the game-over
    panel offers the same, keeping the variant played."""
    page.goto("/")
    option = page.get_by_label("Winnable deals only")
    expect(option).not_to_be_checked()
    page.locator('input[name="variant"][value="tripeaks-nowrap"]').check()
    option.check()
    page.get_by_role("button", name="Play", exact=True).click()
    expect(page).to_have_url(GAME_URL)
    expect_seq(page, 0)
    first = Game.objects.get(id=game_id_of(page))
    assert first.variant == "tripeaks-nowrap"
    assert solve(Deal.from_seed(first.seed), Variant(first.variant)).winnable is True

    page.get_by_role("button", name="Give up").click()
    page.get_by_role("dialog").get_by_role("button", name="Give up").click()
    panel = page.locator("[data-game-over]")
    expect(panel).to_be_visible()
    panel.get_by_label("Winnable deals only").check()
    panel.get_by_role("button", name="New game").click()
    # Dealt over the page's socket: the address moves on to the new game, without a reload.
    expect(page).not_to_have_url(re.compile(str(first.id)))
    expect(page).to_have_url(GAME_URL)
    expect(page.locator("[data-game]")).to_have_attribute("data-status", "in_progress")
    expect_seq(page, 0)
    second = Game.objects.get(id=game_id_of(page))
    assert second.variant == "tripeaks-nowrap"
    assert second.seed != first.seed
    assert solve(Deal.from_seed(second.seed), Variant(second.variant)).winnable is True
    # Still an ordinary seeded deal: replaying its seed deals the same cards.
    deal = Deal.from_seed(second.seed)
    bottom_row = [
        page.locator(f'.board__peaks .card[data-pos="{p}"]').get_attribute("aria-label")
        for p in range(18, 28)
    ]
    assert [label.split(" ", 1)[1].removesuffix(", playable") for label in bottom_row if label] == [
        deal.tableau[p].name for p in range(18, 28)
    ]


def game_id_of(page: Page) -> uuid.UUID:
    match = GAME_URL.search(page.url)
    assert match is not None
    return uuid.UUID(match[1])
