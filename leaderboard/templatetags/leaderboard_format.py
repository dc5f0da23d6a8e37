"""Template helpers of the leaderboard pages."""

from django import template
from django.utils.formats import number_format

from leaderboard.boards import BOARD_DEPTH

register = template.Library()


@register.simple_tag
def board_depth() -> str:
    """How far down a board is listed and ranked exactly, as the reader's language writes
    numbers: "5,000" in English."""
    return number_format(BOARD_DEPTH, force_grouping=True)
