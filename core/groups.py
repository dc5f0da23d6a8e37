"""The names of the channel-layer groups, in one place: who hears what.

- a game's group: every socket showing the game (its player's tabs, spectators);
- a player's group: every socket a signed-in player has open (a ban closes them all);
- a race room's group: every page on the room;
- a day's group: everyone watching that day's board.
"""

import uuid


def game_group(game_id: uuid.UUID) -> str:
    """A game's group, named by its id in hex.

    >>> game_group(uuid.UUID(int=1))
    'game-00000000000000000000000000000001'
    """
    return f"game-{game_id.hex}"


def player_group(user_id: int) -> str:
    return f"player-{user_id}"


def room_group(code: str) -> str:
    return f"race-{code}"


def daily_group(day: str) -> str:
    """The group of a day's board, ``day`` in ISO form (``2026-12-01``)."""
    return f"daily-{day}"
