"""The public view of a game: everything a player may see, and nothing else.

The view is built only from what is face up: a card on the peaks is read from the deal only after
:meth:`GameState.is_face_up` says it shows its face, and the stock is given as a count. The
protocol adds the server's own fields (id, mode, timestamps) to this.

>>> from game.engine.deal import Deal
>>> from game.engine.variants import Variant
>>> view = public_view(GameState(Deal.from_seed("1"), Variant.TRIPEAKS))
>>> view["tableau"][:3], view["stock_count"], view["seq"]
(['down', 'down', 'down'], 23, 0)
"""

from typing import Final, TypedDict

from game.engine.layout import POSITIONS
from game.engine.state import GameState

FACE_DOWN: Final = "down"


class PublicView(TypedDict):
    """The engine's part of the protocol's VIEW."""

    variant: str
    status: str
    seq: int
    score: int
    streak: int
    tableau: list[str | None]
    waste: str
    stock_count: int
    cards_left: int
    peaks_cleared: int
    playable: list[int]
    breakdown: dict[str, int]


def public_tableau(state: GameState) -> list[str | None]:
    """By position: the card code when face up, ``"down"`` when face down, None when played."""
    return [
        None
        if state.is_played(p)
        else state.deal.tableau[p].code
        if state.is_face_up(p)
        else FACE_DOWN
        for p in POSITIONS
    ]


def public_view(state: GameState) -> PublicView:
    """What a player may see of ``state``: no face-down card, no stock order, no seed."""
    return {
        "variant": state.variant.value,
        "status": state.status.value,
        "seq": state.seq,
        "score": state.score,
        "streak": state.streak,
        "tableau": public_tableau(state),
        "waste": state.waste_top.code,
        "stock_count": state.stock_count,
        "cards_left": state.cards_left,
        "peaks_cleared": state.peaks_cleared,
        "playable": state.playable_positions(),
        # The score by the lines of the scoring table, so that no page has to know them.
        "breakdown": state.score_breakdown().to_json(),
    }
