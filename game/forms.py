from django import forms
from django.utils.translation import gettext_lazy as _

from game.models import Variant


class NewGameForm(forms.Form):
    """Start a casual game."""

    variant = forms.ChoiceField(choices=Variant.choices, required=False)
    winnable_only = forms.BooleanField(
        required=False, label=_("Winnable deals only (checked by the solver)")
    )

    def clean_variant(self) -> str:
        return self.cleaned_data["variant"] or Variant.TRIPEAKS
