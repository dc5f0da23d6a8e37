"""Games ended outside the move path: a race's time limit or a racer leaving, a day's end for a
ranked daily attempt. Each is given up as it stands, its score so far standing, and entered into
the score tables in the same transaction; its players' boards hear of it once committed.
"""

import uuid
from collections.abc import Mapping
from datetime import datetime

from core.broadcast import after_commit, group_send_soon
from game import events
from game.live import load_live_game
from game.models import Game, Status, duration_ms
from game.protocol import update_event
from game.selectors import GameSnapshot


def games_abandon(ends: Mapping[uuid.UUID, datetime]) -> list[uuid.UUID]:
    """End each game of ``ends`` still in play as abandoned at its moment, enter them in the
    score tables, and push their new state once committed; return those ended.

    Run within a transaction. The rows are locked first: a move committing meanwhile either
    lands before (and the game is abandoned after it) or finds the game over and is refused.
    """
    in_play = Game.objects.select_for_update().filter(id__in=ends, status=Status.IN_PROGRESS)
    ended = []
    for game_id, started_at in in_play.values_list("id", "started_at"):
        finished_at = ends[game_id]
        Game.objects.filter(id=game_id).update(
            status=Status.ABANDONED,
            finished_at=finished_at,
            duration_ms=duration_ms(started_at, finished_at),
        )
        ended.append(game_id)
    if ended:
        events.games_finished(ended)
        after_commit(games_announce, ended)
    return ended


def games_announce(game_ids: list[uuid.UUID]) -> None:
    """Push the new state of games ended here to their players' boards (once committed).

    A process's cached copy of such a game learns of it at its next move, when the database
    refuses the move and the game is read again.
    """
    for game_id in game_ids:
        live = load_live_game(game_id)
        snapshot = GameSnapshot.of(live)
        group_send_soon(
            live.group_name, update_event(snapshot.game_id, snapshot.key, view=snapshot.view())
        )
