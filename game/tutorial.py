"""The interactive tutorial: a short run played out, step by step, on a fixed teaching deal.

The teaching deal is made up for the lesson and is never played as a game, so the tutorial page may
know every card of it. The engine plays the lesson's moves, and each frame of the tutorial is the
public view of the board at that point (what a player would see), the words to go with it, and
the move the player is asked to make to go on.

>>> frames = tutorial_frames()
>>> [frame["move"] for frame in frames][:6]
[None, '8d', '7h', '6c', 'draw', 'Ah']
>>> frames[-1]["view"]["peaks_cleared"], frames[-1]["view"]["score"]
(1, 440)
"""

from typing import Any, Final

from django.utils.translation import gettext, gettext_noop

from game.engine import FULL_DECK, Card, Deal, GameState, Move, Variant, public_view

# The cards the lesson uses, by position; the rest of the deck fills the other places in order.
_LESSON_CARDS: Final = {
    0: "7d",  # the top of the first peak
    3: "5h",
    4: "6h",
    9: "6c",
    10: "3d",
    11: "4c",
    18: "8d",
    19: "7h",
    20: "Ah",
    21: "2s",
    22: "9s",
    23: "6s",
    24: "Jc",
    25: "8c",
    26: "6d",
    27: "Th",
}
_WASTE: Final = "7c"
_FIRST_DRAW: Final = "Ks"


def teaching_deal() -> Deal:
    """The tutorial's fixed deal: the lesson's cards where it needs them, the rest in deck order."""
    placed = {*_LESSON_CARDS.values(), _WASTE, _FIRST_DRAW}
    filler = iter(card for card in FULL_DECK if card.code not in placed)
    tableau = [
        Card.parse(_LESSON_CARDS[p]) if p in _LESSON_CARDS else next(filler) for p in range(28)
    ]
    stock = [Card.parse(_FIRST_DRAW), *filler]
    return Deal.from_cards("tutorial", (*tableau, Card.parse(_WASTE), *stock))


# (step number, title, words, the move asked for or None for a step read with "Next"). The words
# are English, marked for the catalog: tutorial_frames gives them in the active language.
_SCRIPT: Final[tuple[tuple[int, str, str, str | None], ...]] = (
    (
        1,
        gettext_noop("Opening position"),
        gettext_noop(
            "The waste shows the 7♣. The ten bottom cards are available, as nothing overlaps them,"
            " and four fit on the 7, one rank up or down: 8♦, 6♠, 8♣ and 6♦, outlined in gold."
        ),
        None,
    ),
    (
        2,
        gettext_noop("Playing up"),
        gettext_noop("Play the 8♦ onto the 7♣: it is one rank higher. Click or tap it."),
        "8d",
    ),
    (
        3,
        gettext_noop("Playing down"),
        gettext_noop(
            "The 8♦ is now the card to play onto. Runs can turn round, so go back down:"
            " play the 7♥."
        ),
        "7h",
    ),
    (
        4,
        gettext_noop("A streak"),
        gettext_noop(
            "Both cards covering the card above them are gone, so it turned over: the 6♣. Two cards"
            " in a row scored 10 + 20; the third card of a streak scores 30. Play the 6♣."
        ),
        "6c",
    ),
    (
        5,
        gettext_noop("Drawing when stuck"),
        gettext_noop(
            "Nothing fits the 6♣: no 5 or 7 is available. Click the stock to turn its top card onto"
            " the waste. Drawing ends the streak: the next card scores 10 again."
        ),
        "draw",
    ),
    (
        6,
        gettext_noop("The King–Ace wrap"),
        gettext_noop(
            "A King. The ranks go round in a circle, so an Ace fits on a King, and a King on an"
            " Ace. Play the A♥."
        ),
        "Ah",
    ),
    (7, gettext_noop("A long streak"), gettext_noop("Climb from the Ace: play the 2♠."), "2s"),
    (
        7,
        gettext_noop("A long streak"),
        gettext_noop("The 3♦ turned over. Play it: the streak is worth 30 now."),
        "3d",
    ),
    (7, gettext_noop("A long streak"), gettext_noop("Then the 4♣, for 40."), "4c"),
    (7, gettext_noop("A long streak"), gettext_noop("And the 5♥, for 50."), "5h"),
    (
        8,
        gettext_noop("Clearing a peak"),
        gettext_noop(
            "Three sixes fit on the 5♥. Pick the one that opens something: the 6♥ is the last card"
            " covering the first peak's top."
        ),
        "6h",
    ),
    (
        8,
        gettext_noop("Clearing a peak"),
        gettext_noop(
            "The peak's top card turned over: the 7♦. Play it for 70 streak points plus the"
            " 100-point peak bonus."
        ),
        "7d",
    ),
)
STEPS: Final = max(step for step, *_ in _SCRIPT)

_DONE_TITLE: Final = gettext_noop("Peak cleared")
_DONE_TEXT: Final = gettext_noop(
    "That is the game: play up or down, wrap from King to Ace, draw when stuck, keep streaks"
    " long. Clear all three peaks to win; each card still in the stock then scores 10 more."
)


def tutorial_frames() -> list[dict[str, Any]]:
    """The tutorial, frame by frame: step number, title, words, the board and the move asked for.
    The words are in the active language (the request's, when a page calls it).

    A frame's ``view`` is the engine's public view before its move; the last frame shows the
    board after the lesson, with no move.
    """
    state = GameState(teaching_deal(), Variant.TRIPEAKS)
    frames = []
    for step, title, text, move in _SCRIPT:
        frames.append(
            {
                "step": step,
                "title": gettext(title),
                "text": gettext(text),
                "move": move,
                "view": public_view(state),
            }
        )
        if move is not None:
            state.apply(Move.parse(move))
    frames.append(
        {
            "step": STEPS,
            "title": gettext(_DONE_TITLE),
            "text": gettext(_DONE_TEXT),
            "move": None,
            "view": public_view(state),
        }
    )
    return frames
