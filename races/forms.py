from django import forms

from game.models import Variant

MAX_TIME_LIMIT_MIN = 60


class OpenRoomForm(forms.Form):
    """Open a race room."""

    variant = forms.ChoiceField(choices=Variant.choices, initial=Variant.TRIPEAKS)
    visibility = forms.ChoiceField(
        choices=[
            ("public", "Public: listed in the lobby"),
            ("private", "Private: only people with the link can find it"),
        ],
        initial="public",
        widget=forms.RadioSelect,
    )
    time_limit_min = forms.IntegerField(
        label="Time limit in minutes (optional)",
        required=False,
        min_value=1,
        max_value=MAX_TIME_LIMIT_MIN,
        help_text="When it runs out, games still in play end with the score they have.",
    )

    def time_limit_s(self) -> int | None:
        minutes = self.cleaned_data["time_limit_min"]
        return None if minutes is None else minutes * 60
