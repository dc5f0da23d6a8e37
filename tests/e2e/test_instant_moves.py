"""Instant moves: a legal click shows on the waste before the server's answer, even on a slow
network, and the answer then confirms it (adding the cards it turned over) or takes it back.

The slow network is a small TCP proxy on loopback (``LatencyProxy``) between Chromium and the test
Daphne, holding every chunk 150 ms in each direction. The figures (click to feedback, click to
answer) are printed, never asserted as timings: only their order is ("shown before answered").
Run with ``-s`` to see them.
"""

import asyncio
import contextlib
import re
import statistics
import threading
from collections.abc import Iterator
from typing import Any

import pytest
from django.db import connection
from playwright.sync_api import Browser, Page, expect

from game.engine import GameState, Move
from game.models import Game
from tests.e2e.test_play import (
    DESKTOP,
    FACE_UP,
    click_move,
    engine_state,
    expect_seq,
    screenshot,
    short,
    start_game,
)
from tests.servers import wait_for_server_queries

DELAY_S = 0.15  # added to every chunk, in each direction
PROXY_LIFETIME_S = 300  # the proxy stops by itself after this, whatever happens to the test

# Times, in the page's clock (performance.now()), of every click, every change of the waste's
# accessible name, and every answer of the server to a move; and a switch to lose "moved" frames
# (as a page that has not heard of a move made elsewhere).
TIMING_SPY = """
window.__timing = { clicks: [], waste: [], answers: [] };
window.__dropMoved = false;
document.addEventListener("click", () => window.__timing.clicks.push(performance.now()), true);
const NativeWebSocket = window.WebSocket;
window.WebSocket = class extends NativeWebSocket {
  constructor(...args) {
    super(...args);
    // Registered before the page's own listener: it sees every frame first.
    this.addEventListener("message", (event) => {
      const message = JSON.parse(event.data);
      if (message.type === "moved" && window.__dropMoved) {
        event.stopImmediatePropagation();
        return;
      }
      if (message.type === "moved" || message.type === "error") {
        window.__timing.answers.push({
          type: message.type, seq: message.seq ?? null, at: performance.now(),
        });
      }
    });
  }
};
document.addEventListener("DOMContentLoaded", () => {
  new MutationObserver((records) => {
    for (const record of records) {
      if (record.target.classList.contains("waste")) {
        window.__timing.waste.push({
          at: performance.now(), label: record.target.getAttribute("aria-label"),
        });
      }
    }
  }).observe(document.body, { subtree: true, attributes: true, attributeFilter: ["aria-label"] });
});
"""

# Click a card by dispatching the event in the page, and read the waste's name in the same task,
# before any frame of the server can have been handled.
CLICK_AND_READ = """(position) => {
  const answered = window.__timing.answers.length;
  const card = document.querySelector(`.board__peaks .card[data-pos="${position}"]`);
  const at = performance.now();
  card.click();
  return {
    at,
    label: document.querySelector(".waste").getAttribute("aria-label"),
    answered: window.__timing.answers.length > answered,
  };
}"""


class LatencyProxy:
    """A TCP proxy on 127.0.0.1 to ``target_port`` that holds every chunk ``delay`` seconds in
    each direction (in order: chunks are pipelined, not serialised). It runs its own event loop in
    a thread, and stops on ``stop()`` or after PROXY_LIFETIME_S."""

    def __init__(self, target_port: int, delay: float) -> None:
        self.target_port = target_port
        self.delay = delay
        self.port = 0
        self._ready = threading.Event()
        self._loop: asyncio.AbstractEventLoop | None = None
        self._stop: asyncio.Event | None = None
        self._thread = threading.Thread(target=self._run, name="latency-proxy", daemon=True)

    def start(self) -> str:
        """Start serving; return the proxy's base URL."""
        self._thread.start()
        assert self._ready.wait(10), "the proxy did not start"
        return f"http://127.0.0.1:{self.port}"

    def stop(self) -> None:
        if self._loop is not None and self._stop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
        self._thread.join(10)

    def _run(self) -> None:
        asyncio.run(self._serve())

    async def _serve(self) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        server = await asyncio.start_server(self._connection, "127.0.0.1", 0)
        self.port = server.sockets[0].getsockname()[1]
        self._ready.set()
        async with server:
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._stop.wait(), PROXY_LIFETIME_S)

    async def _connection(
        self, client_r: asyncio.StreamReader, client_w: asyncio.StreamWriter
    ) -> None:
        """Carry one connection through, both ways; closed when either side closes (or the proxy
        stops: the connection's task is then cancelled, which is its end, not an error)."""
        writers = [client_w]
        try:
            server_r, server_w = await asyncio.open_connection("127.0.0.1", self.target_port)
            writers.append(server_w)
            await asyncio.gather(
                self._pump(client_r, server_w),
                self._pump(server_r, client_w),
                return_exceptions=True,
            )
        except (OSError, asyncio.CancelledError):
            pass
        finally:
            for writer in writers:
                writer.close()

    async def _pump(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """Copy ``reader`` to ``writer``, each chunk ``delay`` seconds after it was read."""
        loop = asyncio.get_running_loop()
        chunks: asyncio.Queue[tuple[float, bytes] | None] = asyncio.Queue()

        async def read() -> None:
            try:
                while chunk := await reader.read(65536):
                    chunks.put_nowait((loop.time() + self.delay, chunk))
            finally:
                chunks.put_nowait(None)

        reading = asyncio.ensure_future(read())
        try:
            while (item := await chunks.get()) is not None:
                due, chunk = item
                await asyncio.sleep(max(0.0, due - loop.time()))
                writer.write(chunk)
                await writer.drain()
            if writer.can_write_eof():
                writer.write_eof()
        finally:
            reading.cancel()


@pytest.fixture
def slow_page(server_url: str, browser: Browser, django_db_blocker: Any) -> Iterator[Page]:
    """A page whose every byte to and from the server takes 150 ms more, each way."""
    proxy = LatencyProxy(int(server_url.rsplit(":", 1)[1]), DELAY_S)
    context = browser.new_context(base_url=proxy.start(), viewport=DESKTOP, service_workers="block")
    try:
        yield context.new_page()
    finally:
        context.close()
        proxy.stop()
        with django_db_blocker.unblock():
            wait_for_server_queries()
            connection.close()


def route_to_a_turn(state: GameState, depth: int = 14) -> list[Move] | None:
    """Moves from ``state`` whose last is a play that turns a card over (plays tried first)."""
    if depth == 0 or state.status.is_over:
        return None
    moves = sorted(state.legal_moves(), key=lambda move: move.is_draw)
    for move in moves:
        after = state.copy()
        after.apply(move)
        if not move.is_draw and face_down(after) < face_down(state):
            return [move]
        rest = route_to_a_turn(after, depth - 1)
        if rest is not None:
            return [move, *rest]
    return None


def face_down(state: GameState) -> list[int]:
    """The positions of the cards still face down."""
    return [p for p in range(28) if not state.is_face_up(p) and not state.is_played(p)]


def position_of(state: GameState, move: Move) -> int:
    assert move.card is not None
    return state.deal.positions[move.card.index]


RANK_WORDS = dict(
    zip(
        "A23456789TJQK",
        [
            "ace",
            "two",
            "three",
            "four",
            "five",
            "six",
            "seven",
            "eight",
            "nine",
            "ten",
            "jack",
            "queen",
            "king",
        ],
        strict=True,
    )
)
SUIT_WORDS = {"c": "clubs", "d": "diamonds", "h": "hearts", "s": "spades"}


def spoken(code: str) -> str:
    """The card in words, as the page names it: "Ts" → "ten of spades"."""
    return f"{RANK_WORDS[code[0]]} of {SUIT_WORDS[code[1]]}"


@pytest.mark.usefixtures("transactional_db")
def test_a_legal_click_shows_before_the_answer_over_a_slow_network(slow_page: Page) -> None:
    """With 150 ms added each way, a card that fits is on the waste in the click's own task, the
    server's answer comes later and turns over the card it uncovered; the figures are printed."""
    page = slow_page
    page.add_init_script(TIMING_SPY)
    game_id = start_game(page)
    state = engine_state(game_id)
    route = route_to_a_turn(state)
    assert route is not None, "no play turns a card over within reach: an unusual deal"

    feedback_ms: list[float] = []
    answer_ms: list[float] = []
    for move in route[:-1]:  # by real clicks: each play measured from its click event
        if move.is_draw:
            click_move(page, state, move)
            continue
        clicks = page.evaluate("window.__timing.clicks.length")
        seq = state.seq
        click_move(page, state, move)
        timing = page.evaluate("window.__timing")
        clicked = timing["clicks"][clicks]
        shown = next(w["at"] for w in timing["waste"] if w["at"] >= clicked)
        answered = next(a["at"] for a in timing["answers"] if a["seq"] == seq + 1)
        assert shown < answered
        feedback_ms.append(shown - clicked)
        answer_ms.append(answered - clicked)

    last = route[-1]
    position = position_of(state, last)
    assert last.card is not None
    code = last.card.code
    seq = state.seq
    down_before = face_down(state)
    state.apply(last)
    turned = [p for p in down_before if p not in face_down(state)]
    assert turned

    click = page.evaluate(CLICK_AND_READ, position)
    # The waste names the card in the click's own task: no answer can have come.
    assert click["label"] == f"Waste: {spoken(code)}"
    assert not click["answered"]
    for place in turned:  # still face down: only the answer can name them
        expect(page.locator(f'.board__peaks .card[data-pos="{place}"]')).to_have_attribute(
            "aria-label", "face-down card"
        )
    screenshot(page, "instant-move-before-answer-desktop")

    expect_seq(page, seq + 1)
    for place in turned:  # the answer named them: face up now
        turned_code = state.deal.tableau[place].code
        expect(page.locator(f'.board__peaks .card[data-pos="{place}"]')).to_have_attribute(
            "aria-label", re.compile(f"^{re.escape(short(turned_code))} ")
        )
    timing = page.evaluate("window.__timing")
    shown = next(w["at"] for w in timing["waste"] if w["at"] >= click["at"])
    answered = next(a["at"] for a in timing["answers"] if a["seq"] == seq + 1)
    assert shown <= answered
    feedback_ms.append(shown - click["at"])
    answer_ms.append(answered - click["at"])
    assert Game.objects.get(id=game_id).move_count == state.seq

    print(
        f"\nclick-to-feedback with {DELAY_S * 1000:.0f} ms added each way: "
        + ", ".join(f"{ms:.1f}" for ms in feedback_ms)
        + f" ms (median {statistics.median(feedback_ms):.1f} ms)"
        f"\nclick-to-answer: "
        + ", ".join(f"{ms:.1f}" for ms in answer_ms)
        + f" ms (median {statistics.median(answer_ms):.1f} ms)"
    )


@pytest.mark.usefixtures("transactional_db")
def test_a_refused_move_is_taken_back(page: Page, server_url: str) -> None:
    """A play shown at once and then refused by the server (the game moved on in another tab, of
    which this one had not heard) is taken back: the card returns to the peaks and the page says
    why."""
    page.add_init_script(TIMING_SPY)
    game_id = start_game(page)
    state = engine_state(game_id)
    while len(state.playable_positions()) < 2:  # two cards that fit: one for each tab
        assert state.stock_count > 0, "no waste card fitted two cards: an unusual deal"
        click_move(page, state, Move.parse("draw"))
    first, second = state.playable_positions()[:2]
    seq = state.seq

    other = page.context.new_page()  # the same player's second tab
    other.goto(f"{server_url}/games/{game_id}/")
    expect_seq(other, seq)
    page.evaluate("window.__dropMoved = true")  # this tab does not hear of the other's move
    other.locator(f'.board__peaks .card[data-pos="{first}"]').click()
    expect_seq(other, seq + 1)
    page.wait_for_timeout(200)

    click = page.evaluate(CLICK_AND_READ, second)
    second_code = state.deal.tableau[second].code
    assert click["label"] == f"Waste: {spoken(second_code)}"  # shown at once, as any legal play

    # The server refuses it (the seq is taken): the board shows the game as it stands.
    expect_seq(page, seq + 1)
    first_code = state.deal.tableau[first].code
    expect(page.locator(".waste")).to_have_attribute("aria-label", f"Waste: {spoken(first_code)}")
    expect(page.locator(f'.board__peaks .card[data-pos="{second}"]')).to_have_attribute(
        "aria-label", re.compile(f"^{re.escape(short(second_code))} {spoken(second_code)}")
    )
    expect(page.locator("[data-message]")).to_have_text(
        "The game moved on elsewhere; this board now shows where it stands."
    )
    expect(page.locator(FACE_UP)).to_have_count(9)  # only the other tab's card left the ten
    logged = list(Game.objects.get(id=game_id).moves.order_by("seq").values_list("move", flat=True))
    assert logged == [*logged[:seq], first_code]
    other.close()
