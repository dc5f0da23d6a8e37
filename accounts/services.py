"""Every write to accounts: sign up, change settings, lift a sign-in lock-out, delete an account.

Signing in is Django's; what a guest played before signing up or in follows them as they sign in
(``game.signals``).
"""

from collections.abc import Mapping

from axes.models import AccessAttempt, AccessFailureLog, AccessLog
from axes.utils import reset
from django.contrib.admin.models import LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.models import AbstractBaseUser, User
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.backends.base import SessionBase
from django.contrib.sessions.models import Session
from django.db import transaction

from accounts.looks import SESSION_KEY, CardBack, Felt, Theme, valid_looks
from accounts.models import PlayerSettings
from accounts.selectors import BOARD_PREFERENCES


@transaction.atomic
def account_sign_up(*, username: str, email: str, password: str) -> User:
    """Open an account (the caller has validated the fields).

    Raises ``IntegrityError`` when the username was taken meanwhile.
    """
    user = get_user_model().objects.create_user(username=username, email=email, password=password)
    PlayerSettings.objects.create(user=user)
    return user


@transaction.atomic
def settings_update(
    *,
    user: AbstractBaseUser,
    four_colour_deck: bool,
    animations: bool,
    confirm_draw_when_play_fits: bool,
    allow_watching: bool,
    theme: str = Theme.SYSTEM,
    felt: str = Felt.GREEN,
    card_back: str = CardBack.BLUE,
) -> PlayerSettings:
    """Save a player's board settings and looks."""
    player_settings, _ = PlayerSettings.objects.update_or_create(
        user_id=user.pk,
        defaults={
            "four_colour_deck": four_colour_deck,
            "animations": animations,
            "confirm_draw_when_play_fits": confirm_draw_when_play_fits,
            "allow_watching": allow_watching,
            "theme": theme,
            "felt": felt,
            "card_back": card_back,
        },
    )
    return player_settings


@transaction.atomic
def board_setting_update(*, user: AbstractBaseUser, changes: Mapping[str, bool]) -> PlayerSettings:
    """Change some of a player's board settings (the caller has validated them); leave the rest.

    A player without a settings row gets one, with the defaults for what ``changes`` leaves out.
    """
    unknown = set(changes) - set(BOARD_PREFERENCES)
    if unknown or not all(isinstance(value, bool) for value in changes.values()):
        raise ValueError(f"Not board settings: {dict(changes)!r}")
    player_settings, _ = PlayerSettings.objects.update_or_create(
        user_id=user.pk, defaults=dict(changes)
    )
    return player_settings


@transaction.atomic
def account_delete(*, user: AbstractBaseUser) -> None:
    """Delete an account and everything about its player.

    Their games and moves go (and with them every score table built on games), so do their
    settings, the sessions they are signed in on, sign-in failures recorded under their username,
    and the admin's history of their account. The caller signs the current request out.
    """
    username = user.get_username()
    user_id = user.pk
    Session.objects.filter(owner__user_id=user_id).delete()
    for access in (AccessAttempt, AccessFailureLog, AccessLog):
        access.objects.filter(username=username).delete()
    about_them = ContentType.objects.get_for_models(get_user_model(), PlayerSettings).values()
    LogEntry.objects.filter(content_type__in=about_them, object_id=str(user_id)).delete()
    user.delete()  # cascades to games, moves, settings, session owners and admin entries by them


def sign_in_failures_clear(*, username: str) -> None:
    """Forget the failed sign-ins recorded for ``username``, which lifts any lock-out on it.

    Called once the player has proved they own the account another way (a password reset).
    """
    reset(username=username)


def guest_looks_save(session: SessionBase, looks: dict[str, str]) -> None:
    """Keep a guest's looks in their session (a signed-in player's are in their settings)."""
    session[SESSION_KEY] = valid_looks(looks)
