"""Filters for a race's pages: a racer's status, as the protocol names it, in the reader's words.

The codes (``races.selectors.RacerStatus``, and a game's won or lost) are the protocol's and never
change; a page shows them through the catalog, at the last moment (docs/translations.md). English
pages show the code itself, as they always have; the room's script then writes its own words.
"""

from typing import Final

from django import template
from django.utils.functional import Promise
from django.utils.translation import pgettext_lazy

from races.selectors import RacerStatus

register = template.Library()

# Translators: a racer's status in a race room or a challenge, written as the protocol's code
# (English pages show the code as it is); translate it as the status it names.
STATUS_WORDS: Final[dict[str, Promise]] = {
    "waiting": pgettext_lazy("racer status", "waiting"),
    RacerStatus.READY: pgettext_lazy("racer status", "ready"),
    RacerStatus.PLAYING: pgettext_lazy("racer status", "playing"),
    RacerStatus.WON: pgettext_lazy("racer status", "won"),
    RacerStatus.LOST: pgettext_lazy("racer status", "lost"),
    RacerStatus.GAVE_UP: pgettext_lazy("racer status", "gave_up"),
    RacerStatus.LEFT: pgettext_lazy("racer status", "left"),
    RacerStatus.OUT_OF_TIME: pgettext_lazy("racer status", "out_of_time"),
}


@register.filter
def racer_status(code: str) -> str:
    """A racer's status code in the page's language (an unknown code as it is).

    >>> racer_status("gave_up"), racer_status("something_new")
    ('gave_up', 'something_new')
    """
    return str(STATUS_WORDS.get(code, code))
