"""What other apps hear about games: finished games to count, a new state after a committed move,
and a finished analysis.

The game app knows nothing of the score tables, races, spectators or moderation; those apps
register listeners here (in their ``AppConfig.ready``). Finished games are told *inside* the
transaction that finished them, so that what a listener derives from them (the score tables)
commits with them or not at all: its failure fails that transaction. The other events come after
the fact; a listener's failure is logged and never reaches the player whose move caused it.
"""

import logging
import uuid
from collections.abc import Awaitable, Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from game.selectors import GameSnapshot

logger = logging.getLogger(__name__)

FinishedListener = Callable[[list[uuid.UUID]], None]
ChangeListener = Callable[["GameSnapshot"], Awaitable[None]]
AnalysedListener = Callable[[uuid.UUID], None]

_finished_listeners: list[FinishedListener] = []
_change_listeners: list[ChangeListener] = []
_analysed_listeners: list[AnalysedListener] = []


def on_games_finished(listener: FinishedListener) -> FinishedListener:
    """Call ``listener(game_ids)`` inside each transaction that finishes an account's games or
    hands finished games over to an account (a guest who signs up). A guest's game may end
    untold, since nothing counts it until it is handed over."""
    if listener not in _finished_listeners:
        _finished_listeners.append(listener)
    return listener


def games_finished(game_ids: list[uuid.UUID]) -> None:
    """Tell every listener, within the current transaction, that these games now count as
    finished (just ended, or handed to an account). Nothing is told of an empty list."""
    if not game_ids:
        return
    for listener in _finished_listeners:
        listener(game_ids)


def on_game_changed(listener: ChangeListener) -> ChangeListener:
    """Call ``listener(snapshot)`` on the event loop after every committed change to a game, with
    the game's new state (whose VIEW a listener makes only if it needs it), once the change's
    broadcast has gone out. Listeners run in the task that sends the process's broadcasts
    (``core.broadcast.broadcast_soon``): one that waits holds back every broadcast after it, so
    what must wait (the database, Redis) goes in a task of its own, or is sent with
    ``broadcast_soon``."""
    if listener not in _change_listeners:
        _change_listeners.append(listener)
    return listener


def on_game_analysed(listener: AnalysedListener) -> AnalysedListener:
    """Call ``listener(game_id)`` in the database thread once a finished game is analysed."""
    if listener not in _analysed_listeners:
        _analysed_listeners.append(listener)
    return listener


async def game_changed(snapshot: "GameSnapshot") -> None:
    """Tell every listener that a game is now in the state ``snapshot`` (already committed and
    broadcast)."""
    for listener in _change_listeners:
        try:
            await listener(snapshot)
        except Exception:
            logger.exception("A listener failed on a change to game %s", snapshot.game_id)


def game_analysed(game_id: uuid.UUID) -> None:
    """Tell every listener that a finished game's analysis (and its deal's par) is stored."""
    for listener in _analysed_listeners:
        try:
            listener(game_id)
        except Exception:
            logger.exception("A listener failed on the analysis of game %s", game_id)
