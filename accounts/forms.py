"""The accounts' forms. They validate; the views hand what they cleaned to a service."""

import json
from typing import Any

from django import forms
from django.contrib.admin.forms import AdminAuthenticationForm
from django.contrib.auth.forms import AuthenticationForm, UserCreationForm
from django.contrib.auth.models import AbstractBaseUser, User
from django.core.validators import MaxLengthValidator
from django.utils.translation import gettext_lazy as _

from accounts.looks import FIELDS as LOOKS
from accounts.looks import CardBack, Felt, Theme
from accounts.models import PlayerSettings
from accounts.selectors import BOARD_PREFERENCES


class SignUpForm(UserCreationForm):
    """A username, an optional email address, and a password checked by Django's validators."""

    class Meta(UserCreationForm.Meta):  # type: ignore[name-defined]
        model = User
        fields = ("username", "email")

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["email"].help_text = _(
            "Optional. Only ever used to send you a link to reset your password."
        )
        self.fields["email"].widget.attrs["autocomplete"] = "email"
        self.fields["username"].widget.attrs["autocomplete"] = "username"


def username_length_check(form: AuthenticationForm) -> None:
    """Make a sign-in form refuse a username longer than the user model's field.

    Django's sign-in form sets the field's ``max_length`` after the field is made, so its length
    is never checked: a longer name went on to ``authenticate()``, where django-axes failed to
    store the failed attempt (a 500 on PostgreSQL, whose ``varchar`` refuses it). No account has
    such a name, so it is refused as the form's other errors are, before any query.
    """
    field = form.fields["username"]
    assert isinstance(field, forms.CharField)
    assert field.max_length is not None
    field.validators.append(MaxLengthValidator(field.max_length))


class SignInForm(AuthenticationForm):
    """The site's sign-in form: Django's, with the username's length checked."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        username_length_check(self)


class AdminSignInForm(AdminAuthenticationForm):
    """The admin's sign-in form: Django's, with the username's length checked."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        username_length_check(self)


class SettingsForm(forms.ModelForm):
    """The board settings a signed-in player keeps with their account."""

    class Meta:
        model = PlayerSettings
        fields = (
            "four_colour_deck",
            "animations",
            "confirm_draw_when_play_fits",
            "theme",
            "felt",
            "card_back",
            "allow_watching",
        )
        widgets = dict.fromkeys(LOOKS, forms.RadioSelect)

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # The model's field has no name of its own to translate: its label is its field's name.
        self.fields["animations"].label = _("animations")
        for name in LOOKS:  # a form without them (an older page) keeps them as they are
            self.fields[name].required = False

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for name in LOOKS:
            cleaned[name] = cleaned.get(name) or getattr(self.instance, name)
        return cleaned


class LooksForm(forms.Form):
    """A guest's looks, kept in their session (a player's are in :class:`SettingsForm`)."""

    theme = forms.ChoiceField(label=_("Colour scheme"), choices=Theme, widget=forms.RadioSelect)
    felt = forms.ChoiceField(label=_("Table felt"), choices=Felt, widget=forms.RadioSelect)
    card_back = forms.ChoiceField(label=_("Card backs"), choices=CardBack, widget=forms.RadioSelect)


def board_settings_changes(body: bytes) -> dict[str, bool]:
    """The changes a JSON body asks for: an object naming board settings, each with a boolean
    (the settings the board's own panel changes, one at a time or together).

    Raises ``ValueError`` for anything else: not UTF-8 JSON, not an object, an empty object, a
    field named twice, a field that is not a board setting, a value that is not ``true`` or
    ``false``.

    >>> board_settings_changes(b'{"animations": false}')
    {'animations': False}
    >>> board_settings_changes(b'{"animations": 0}')
    Traceback (most recent call last):
    ...
    ValueError: animations must be true or false
    >>> board_settings_changes(b"[" * 100_000)
    Traceback (most recent call last):
    ...
    ValueError: the body is not JSON
    """

    def pairs_once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
        names = [name for name, _ in pairs]
        if len(set(names)) != len(names):
            raise ValueError("a field is named twice")
        return dict(pairs)

    try:
        data = json.loads(body.decode("utf-8"), object_pairs_hook=pairs_once)
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError) as error:
        raise ValueError("the body is not JSON") from error
    if not isinstance(data, dict) or not data:
        raise ValueError("the body must be an object naming at least one setting")
    for name, value in data.items():
        if name not in BOARD_PREFERENCES:
            raise ValueError(f"{name} is not a board setting")
        if not isinstance(value, bool):
            raise ValueError(f"{name} must be true or false")
    return data


class AccountDeleteForm(forms.Form):
    """Deleting an account asks for its password once more."""

    password = forms.CharField(
        label=_("Your password"),
        strip=False,
        widget=forms.PasswordInput(attrs={"autocomplete": "current-password"}),
    )

    def __init__(self, *args: Any, user: AbstractBaseUser, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.user = user

    def clean_password(self) -> str:
        password: str = self.cleaned_data["password"]
        if not self.user.check_password(password):
            raise forms.ValidationError(_("That is not your password."), code="password_incorrect")
        return password
