"""What other apps add to the game's pages, without the game app knowing them.

The game page shows the player's board settings (kept by their account) and a finished daily
attempt's share text (kept by the daily challenge); the home page shows today's daily challenge.
Those apps register a provider here in their ``AppConfig.ready``; the game's views merge what every
provider gives into their context.
"""

from collections.abc import Callable
from typing import Any

from django.http import HttpRequest

from game.models import Game

ContextProvider = Callable[[HttpRequest, Game], dict[str, Any]]
HomeProvider = Callable[[HttpRequest], dict[str, Any]]

_providers: list[ContextProvider] = []
_home_providers: list[HomeProvider] = []


def on_game_page(provider: ContextProvider) -> ContextProvider:
    """Call ``provider(request, game)`` for the context of every game page (in play or over)."""
    if provider not in _providers:
        _providers.append(provider)
    return provider


def game_page_context(request: HttpRequest, game: Game) -> dict[str, Any]:
    """Every provider's context for this game's page, merged."""
    context: dict[str, Any] = {}
    for provider in _providers:
        context.update(provider(request, game))
    return context


def on_home_page(provider: HomeProvider) -> HomeProvider:
    """Call ``provider(request)`` for the context of the home page."""
    if provider not in _home_providers:
        _home_providers.append(provider)
    return provider


def home_page_context(request: HttpRequest) -> dict[str, Any]:
    """Every home-page provider's context, merged."""
    context: dict[str, Any] = {}
    for provider in _home_providers:
        context.update(provider(request))
    return context
