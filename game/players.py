"""Who is playing: a signed-in user, or a guest known by a random key kept in their session."""

import secrets
from dataclasses import dataclass
from typing import Any

from django.http import HttpRequest

GUEST_KEY_SESSION_FIELD = "guest_key"


@dataclass(frozen=True, slots=True)
class Player:
    """The person behind a request or a websocket."""

    user_id: int | None
    guest_key: str

    def owns(self, owner_id: int | None, guest_key: str) -> bool:
        """Whether a game with this owner (or, for a guest's game, this guest key) is theirs."""
        if owner_id is not None:
            return owner_id == self.user_id
        return bool(guest_key) and secrets.compare_digest(guest_key, self.guest_key)


def player_for_request(request: HttpRequest, *, create_guest_key: bool = False) -> Player:
    """The player making a request; a guest gets a key in their session when asked to."""
    guest_key = request.session.get(GUEST_KEY_SESSION_FIELD, "")
    if not guest_key and create_guest_key:
        guest_key = request.session[GUEST_KEY_SESSION_FIELD] = secrets.token_urlsafe(24)
    user_id = request.user.pk if request.user.is_authenticated else None
    return Player(user_id=user_id, guest_key=guest_key)


def player_for_scope(scope: dict[str, Any]) -> Player:
    """The player on a websocket, from the session and user that Channels' middleware loaded."""
    user = scope.get("user")
    session = scope.get("session")
    guest_key = session.get(GUEST_KEY_SESSION_FIELD, "") if session is not None else ""
    user_id = user.pk if user is not None and user.is_authenticated else None
    return Player(user_id=user_id, guest_key=guest_key)
