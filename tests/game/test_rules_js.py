"""The page's own judgement of a click (``static/js/rules.js``) agrees with the engine: Node runs
the page's module on every position of random games of both variants, and a card it lets the
player play at once is exactly one the engine accepts; the board it predicts after a play is the
engine's, but for the cards the play turned over (unknown to the page until the server's answer).
The server still referees every move: this only checks that the page never shows a play the
server will refuse, nor refuses one the server would take."""

import json
import random
import uuid
from pathlib import Path
from typing import Any

from game.engine import Deal, GameState, Move, Variant, public_view
from tests.node import module_url, needs_node, run_in_node

pytestmark = needs_node

RUNNER = f"""
import {{ readFileSync }} from "node:fs";
import {{ predictPlay, whyNot }} from {module_url("rules.js")};
const cases = JSON.parse(readFileSync(0, "utf8"));
process.stdout.write(JSON.stringify(cases.map((view) => ({{
  why: view.tableau.map((_, position) => whyNot(view, position)),
  predicted: view.playable.map((position) => predictPlay(view, position)),
}}))));
"""


def run(tmp_path: Path, views: list[dict[str, Any]]) -> list[dict[str, Any]]:
    judged: list[dict[str, Any]] = run_in_node(tmp_path, RUNNER, views)
    return judged


def positions_of_random_games(count: int) -> list[GameState]:
    """Every position in play of ``count`` random games, half of them without the wrap."""
    chooser = random.Random(15)
    states = []
    for number in range(count):
        variant = Variant.TRIPEAKS if number % 2 else Variant.NOWRAP
        state = GameState(Deal.from_seed(f"rules-{number}"), variant)
        while not state.status.is_over:
            states.append(state.copy())
            state.apply(chooser.choice(state.legal_moves()))
    return states


def view_of(state: GameState) -> dict[str, Any]:
    return json.loads(json.dumps({"id": str(uuid.UUID(int=1)), **public_view(state)}))


def test_the_page_judges_and_predicts_plays_as_the_engine_does(tmp_path: Path) -> None:
    states = positions_of_random_games(16)
    views = [view_of(state) for state in states]
    judged = run(tmp_path, views)
    assert len(judged) == len(states) > 300
    predictions = 0
    for state, view, page in zip(states, views, judged, strict=True):
        playable = state.playable_positions()
        assert [p for p, why in enumerate(page["why"]) if why is None] == playable
        for position, predicted in zip(view["playable"], page["predicted"], strict=True):
            after = state.copy()
            after.apply(Move.parse(view["tableau"][position]))
            expected = view_of(after)
            # What the play turned over stays face down on the page until the answer.
            turned = [p for p, code in enumerate(view["tableau"]) if code == "down"]
            for p in turned:
                expected["tableau"][p] = "down"
            expected["playable"] = [p for p in expected["playable"] if p not in turned]
            if after.status.is_over:  # the end (and its clearing bonus) comes with the answer
                for field in ("status", "score", "breakdown", "playable"):
                    expected[field] = predicted[field]
            assert predicted == expected
            predictions += 1
    assert predictions > 200


def test_a_card_that_does_not_fit_is_explained_in_words(tmp_path: Path) -> None:
    down: list[str | None] = ["down"] * 18
    tableau = [*down, "Ts", "Ks", "As", "8h", "2c", None, "Qd", "Jc", "9d", "7s"]

    def view(waste: str, variant: str) -> dict[str, Any]:
        return {"variant": variant, "tableau": tableau, "waste": waste, "playable": []}

    wrap, nowrap, nine = run(
        tmp_path, [view("As", "tripeaks"), view("As", "tripeaks-nowrap"), view("9c", "tripeaks")]
    )
    assert wrap["why"][18] == "10♠ doesn't fit on A♠: play a 2 or a King."
    assert wrap["why"][19] is None  # a King on an Ace, with the wrap
    assert nowrap["why"][19] == "K♠ doesn't fit on A♠: play a 2."
    assert nine["why"][20] == "A♠ doesn't fit on 9♣: play an 8 or a 10."
    assert nine["why"][0] == "That card is covered: clear the cards on top of it first."
    assert nine["why"][23] == "That card has already been played."
