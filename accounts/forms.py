"""The accounts' forms. They validate; the views hand what they cleaned to a service."""

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django.contrib.auth.models import AbstractBaseUser, User

from accounts.models import PlayerSettings


class SignUpForm(UserCreationForm):
    """A username, an optional email address, and a password checked by Django's validators."""

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        model = User
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields[
            "email"
        ].help_text = "Optional. Only ever used to send you a link to reset your password."
        self.fields["email"].widget.attrs["autocomplete"] = "email"
        self.fields["username"].widget.attrs["autocomplete"] = "username"


class SettingsForm(forms.ModelForm):
    """The board settings a signed-in player keeps with their account."""

    class Meta:
        model = PlayerSettings
        fields = ("four_colour_deck", "animations", "confirm_draw_when_play_fits", "allow_watching")


class AccountDeleteForm(forms.Form):
    """Deleting an account asks for its password once more."""

    password = forms.CharField(
        label="Your password",
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, user: AbstractBaseUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError("That is not your password.", code="password_incorrect")
        return password
