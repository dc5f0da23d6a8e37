"""A player's board settings, and which account each signed-in session belongs to."""

from django.conf import settings
from django.contrib.sessions.models import Session
from django.db import models
from django.utils.translation import gettext_lazy as _

from accounts.looks import CardBack, Felt, Theme


class PlayerSettings(models.Model):
    """How a signed-in player likes the board; a player without a row has the defaults."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL,
        primary_key=True,
        on_delete=models.CASCADE,
        related_name="player_settings",
    )
    four_colour_deck = models.BooleanField(
        _("four-colour deck"),
        default=False,
        help_text=_("Clubs green and diamonds blue, so that no two suits share a colour."),
    )
    animations = models.BooleanField(
        default=True,
        help_text=_("Cards slide and flip. Always off when your system asks for reduced motion."),
    )
    confirm_draw_when_play_fits = models.BooleanField(
        _("confirm before drawing while a play fits"),
        default=False,
        help_text=_("Ask before drawing from the stock while a card on the peaks could be played."),
    )
    theme = models.CharField(
        _("colour scheme"),
        max_length=8,
        choices=Theme,
        default=Theme.SYSTEM,
        help_text=_("Light or dark pages, or whichever your system asks for."),
    )
    felt = models.CharField(
        _("table felt"),
        max_length=8,
        choices=Felt,
        default=Felt.GREEN,
        help_text=_("The colour of the card table."),
    )
    card_back = models.CharField(
        _("card backs"),
        max_length=8,
        choices=CardBack,
        default=CardBack.BLUE,
        help_text=_("The colour of face-down cards and the stock."),
    )
    allow_watching = models.BooleanField(
        _("allow others to watch my games"),
        default=True,
        help_text=_("Let other players watch your games in progress, where the site offers it."),
    )

    class Meta:
        verbose_name = "player settings"
        verbose_name_plural = "player settings"

    def __str__(self) -> str:
        return f"Settings of user {self.user_id}"


class SessionOwner(models.Model):
    """The account a stored session is signed in to, so that deleting it can end that session.

    Written by :mod:`accounts.sessions` whenever a signed-in session is saved; it goes with the
    session when the session is deleted (sign-out, a new session key, ``clearsessions``).
    """

    session = models.OneToOneField(
        Session, primary_key=True, on_delete=models.CASCADE, related_name="owner"
    )
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="session_owners"
    )

    def __str__(self) -> str:
        return f"Session of user {self.user_id}"
