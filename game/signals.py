"""What the game app does when Django says something happened: a guest who signs in (or up)
keeps the games they played as a guest."""

from typing import Any

from django.contrib import messages
from django.contrib.auth.models import AbstractBaseUser
from django.http import HttpRequest
from django.utils.translation import gettext, ngettext

from game.players import GUEST_KEY_SESSION_FIELD
from game.services import games_claim


def guest_games_claim(sender: Any, request: HttpRequest, user: AbstractBaseUser, **_: Any) -> None:
    """On ``user_logged_in``: the session's guest games become the account's, however the player
    signed in (the sign-in page, signing up, the admin's sign-in). Signing in keeps the
    session's data under a new key, the guest key with it."""
    session = getattr(request, "session", None)
    guest_key = session.get(GUEST_KEY_SESSION_FIELD, "") if session is not None else ""
    count = games_claim(guest_key=guest_key, user_id=user.pk)
    if count == 1:
        messages.success(
            request, gettext("The game you played as a guest is now yours."), fail_silently=True
        )
    elif count:
        message = ngettext(
            "The %(count)d game you played as a guest is now yours.",
            "The %(count)d games you played as a guest are now yours.",
            count,
        ) % {"count": count}
        messages.success(request, message, fail_silently=True)
