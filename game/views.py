"""Pages of the game app. Views stay thin: they render, the engine and services decide."""

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.views.decorators.http import require_safe


@require_safe
def home(request: HttpRequest) -> HttpResponse:
    """The front page: what the site is, and where to start."""
    return render(request, "game/home.html")


@require_safe
def rules(request: HttpRequest) -> HttpResponse:
    """The rules of TriPeaks in the project's own words."""
    return render(request, "game/rules.html")
