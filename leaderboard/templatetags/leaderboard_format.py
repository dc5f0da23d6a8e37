"""Template helpers of the leaderboard pages."""

from django import template

from leaderboard.boards import BOARD_DEPTH

register = template.Library()


@register.simple_tag
def board_depth() -> str:
    """How far down a board is listed and ranked exactly, e.g. "5,000"."""
    return f"{BOARD_DEPTH:,}"
