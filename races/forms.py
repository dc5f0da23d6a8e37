from typing import Any

from django import forms
from django.utils.translation import gettext_lazy as _

from game.models import Variant
from races.models import MAX_RACERS, MIN_CHALLENGERS

MAX_TIME_LIMIT_MIN = 60
MAX_CHALLENGE_DAYS = 30
"""The longest a friend challenge may stay open (``races.services.MAX_CHALLENGE_DAYS``)."""


class OpenRoomForm(forms.Form):
    """Open a race room."""

    variant = forms.ChoiceField(choices=Variant.choices, initial=Variant.TRIPEAKS)
    visibility = forms.ChoiceField(
        choices=[
            ("public", _("Public: listed in the lobby")),
            ("private", _("Private: only people with the link can find it")),
        ],
        initial="public",
        widget=forms.RadioSelect,
    )
    time_limit_min = forms.IntegerField(
        label=_("Time limit in minutes (optional)"),
        required=False,
        min_value=1,
        max_value=MAX_TIME_LIMIT_MIN,
        help_text=_("When it runs out, games still in play end with the score they have."),
    )

    def time_limit_s(self) -> int | None:
        minutes = self.cleaned_data["time_limit_min"]
        return None if minutes is None else minutes * 60


class ChallengeForm(forms.Form):
    """Make a friend challenge (its fields' ids differ from the race room form's on one page)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("auto_id", "challenge_%s")
        super().__init__(*args, **kwargs)

    variant = forms.ChoiceField(choices=Variant.choices, initial=Variant.TRIPEAKS)
    players = forms.IntegerField(
        label=_("Players, you included"),
        min_value=MIN_CHALLENGERS,
        max_value=MAX_RACERS,
        initial=2,
        help_text=_("The challenge ends, and shows every game, once this many have played."),
    )
    open_days = forms.IntegerField(
        label=_("Open for (days)"),
        min_value=1,
        max_value=MAX_CHALLENGE_DAYS,
        initial=7,
        help_text=_("Then it closes, even if not everyone has played."),
    )
    time_limit_min = forms.IntegerField(
        label=_("Time limit per game in minutes (optional)"),
        required=False,
        min_value=1,
        max_value=MAX_TIME_LIMIT_MIN,
        help_text=_("From when each player starts; a game still in play then ends with its score."),
    )

    def time_limit_s(self) -> int | None:
        minutes = self.cleaned_data["time_limit_min"]
        return None if minutes is None else minutes * 60
