"""``{% report_form game %}``: the "report this score" form on a finished game's page."""

from typing import Any

from django import template

from game.models import Game
from moderation.forms import ReportForm
from moderation.selectors import has_reported

register = template.Library()


@register.inclusion_tag("moderation/_report_form.html", takes_context=True)
def report_form(context: template.Context, game: Game) -> dict[str, Any]:
    """The form for a signed-in player looking at someone else's finished game; a note when
    they already reported it; nothing for its own player. Guests are asked to sign in."""
    request = context.get("request")
    user = getattr(request, "user", None)
    user_id = user.pk if user is not None and user.is_authenticated else None
    return {
        "request": request,
        "csrf_token": context.get("csrf_token"),
        "game": game,
        "signed_in": user_id is not None,
        "shown": game.is_over and game.owner_id != user_id,
        "reported": user_id is not None and has_reported(user_id, game.id),
        "form": ReportForm(auto_id="report-%s"),
    }
