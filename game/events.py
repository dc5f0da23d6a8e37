"""What other apps hear about games: a new state after a committed move, and a finished analysis.

The game app knows nothing of races, spectators or moderation; those apps register listeners here
(in their ``AppConfig.ready``) and are called after the fact. A listener's failure is logged and
never reaches the player whose move caused it.
"""

import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from game.live import LiveGame

logger = logging.getLogger(__name__)

View = dict[str, Any]
ChangeListener = Callable[["LiveGame", View], Awaitable[None]]
AnalysedListener = Callable[[uuid.UUID], None]

_change_listeners: list[ChangeListener] = []
_analysed_listeners: list[AnalysedListener] = []


def on_game_changed(listener: ChangeListener) -> ChangeListener:
    """Call ``listener(live, view)`` on the event loop after every committed change to a game."""
    if listener not in _change_listeners:
        _change_listeners.append(listener)
    return listener


def on_game_analysed(listener: AnalysedListener) -> AnalysedListener:
    """Call ``listener(game_id)`` in the database thread once a finished game is analysed."""
    if listener not in _analysed_listeners:
        _analysed_listeners.append(listener)
    return listener


async def game_changed(live: "LiveGame", view: View) -> None:
    """Tell every listener that ``live`` now shows ``view`` (already committed and broadcast)."""
    for listener in _change_listeners:
        try:
            await listener(live, view)
        except Exception:
            logger.exception("A listener failed on a change to game %s", live.game_id)


def game_analysed(game_id: uuid.UUID) -> None:
    """Tell every listener that a finished game's analysis (and its deal's par) is stored."""
    for listener in _analysed_listeners:
        try:
            listener(game_id)
        except Exception:
            logger.exception("A listener failed on the analysis of game %s", game_id)
