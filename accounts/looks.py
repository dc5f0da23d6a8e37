"""How the site looks to a player: the colour scheme, the felt of the card table, the card backs.

Kept with a signed-in player's settings; a guest's choice stays in their session (its cookie, in
their browser). Every page's ``<html>`` carries the three as ``data-`` attributes
(``accounts.context_processors.looks``) and the stylesheet does the rest (``static/css/site.css``,
"Looks", where each felt and card back has its colours), so a page is drawn in its colours from
the first frame. tests/accounts/test_looks.py holds every felt and card back to the contrast rules.
"""

from __future__ import annotations

from typing import Any, Final

from django.db import models
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _


class Theme(models.TextChoices):
    SYSTEM = "system", _("As my system")
    LIGHT = "light", _("Light")
    DARK = "dark", _("Dark")


class Felt(models.TextChoices):
    GREEN = "green", _("Green")
    BLUE = "blue", _("Blue")
    RED = "red", _("Burgundy")
    SLATE = "slate", _("Slate")


class CardBack(models.TextChoices):
    BLUE = "blue", _("Blue")
    RED = "red", _("Red")
    GREEN = "green", _("Green")
    BLACK = "black", _("Black")


FIELDS: Final = ("theme", "felt", "card_back")
SESSION_KEY: Final = "looks"
DEFAULTS: Final = {
    "theme": Theme.SYSTEM.value,
    "felt": Felt.GREEN.value,
    "card_back": CardBack.BLUE.value,
}


def looks_of(request: HttpRequest) -> dict[str, str]:
    """The visitor's looks: their account's, a guest's session's, or the defaults."""
    user = request.user
    if user.is_authenticated:
        settings = getattr(user, "player_settings", None)
        if settings is not None:
            return {name: getattr(settings, name) for name in FIELDS}
        return dict(DEFAULTS)
    return {**DEFAULTS, **valid_looks(request.session.get(SESSION_KEY))}


def valid_looks(data: Any) -> dict[str, str]:
    """The known fields of ``data`` with known values (a session could hold anything older).

    >>> valid_looks({"theme": "dark", "felt": "purple", "extra": 1})
    {'theme': 'dark'}
    >>> valid_looks(None)
    {}
    """
    if not isinstance(data, dict):
        return {}
    choices = {"theme": Theme.values, "felt": Felt.values, "card_back": CardBack.values}
    return {name: data[name] for name in FIELDS if data.get(name) in choices[name]}
