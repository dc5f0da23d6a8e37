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

from game.engine.layout import COVERS, POSITIONS, Position
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


class MoveChange(TypedDict):
    """What one move changed in the public view: enough to bring a view of the state before it
    to the state after it, naming only cards that are face up after it."""

    seq: int
    move: str
    position: int | None
    """Where on the peaks the card played lay (None for a draw)."""
    waste: str
    """The new top of the waste: the card played, or the card drawn."""
    turned: list[tuple[int, str]]
    """The cards the move turned face up, by position."""
    status: str
    score: int
    streak: int
    stock_count: int
    cards_left: int
    peaks_cleared: int
    playable: list[int]
    breakdown: dict[str, int]


def move_change(before: GameState, after: GameState) -> MoveChange:
    """The change from ``before`` to ``after``, one move later.

    >>> from game.engine.deal import Deal
    >>> from game.engine.moves import Move
    >>> from game.engine.variants import Variant
    >>> before = GameState(Deal.from_seed("1"), Variant.TRIPEAKS)
    >>> after = before.copy()
    >>> after.apply(Move.parse("draw"))
    >>> change = move_change(before, after)
    >>> change["move"], change["position"], change["turned"], change["stock_count"]
    ('draw', None, [], 22)
    """
    move = after.moves[-1]
    position = None if move.card is None else after.deal.positions[move.card.index]
    return {
        "seq": after.seq,
        "move": move.text,
        "position": position,
        "waste": after.waste_top.code,
        "turned": [] if position is None else _turned(before, after, position),
        "status": after.status.value,
        "score": after.score,
        "streak": after.streak,
        "stock_count": after.stock_count,
        "cards_left": after.cards_left,
        "peaks_cleared": after.peaks_cleared,
        "playable": after.playable_positions(),
        "breakdown": after.score_breakdown().to_json(),
    }


def _turned(before: GameState, after: GameState, played: Position) -> list[tuple[Position, str]]:
    """The cards that playing the card at ``played`` turned over, with their positions: only the
    cards it overlapped can have been uncovered by it."""
    return [
        (p, after.deal.tableau[p].code)
        for p in COVERS[played]
        if after.is_face_up(p) and not before.is_face_up(p)
    ]


def change_applied(view: PublicView, change: MoveChange) -> PublicView:
    """``view`` brought forward by ``change``: what a client does with a ``moved`` frame (the
    page's own copy of this is ``static/js/view.js``).

    >>> from game.engine.deal import Deal
    >>> from game.engine.moves import Move
    >>> from game.engine.variants import Variant
    >>> before = GameState(Deal.from_seed("1"), Variant.TRIPEAKS)
    >>> after = before.copy()
    >>> after.apply(Move.parse("draw"))
    >>> change_applied(public_view(before), move_change(before, after)) == public_view(after)
    True
    """
    tableau = list(view["tableau"])
    if change["position"] is not None:
        tableau[change["position"]] = None
    for position, code in change["turned"]:
        tableau[position] = code
    return {
        "variant": view["variant"],
        "status": change["status"],
        "seq": change["seq"],
        "score": change["score"],
        "streak": change["streak"],
        "tableau": tableau,
        "waste": change["waste"],
        "stock_count": change["stock_count"],
        "cards_left": change["cards_left"],
        "peaks_cleared": change["peaks_cleared"],
        "playable": change["playable"],
        "breakdown": change["breakdown"],
    }
