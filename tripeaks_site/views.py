"""Site-wide endpoints that belong to no app: health, readiness, metrics, the error pages."""

import asyncio
import sys
from collections.abc import Awaitable, Callable
from typing import Final

from channels.layers import get_channel_layer
from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils.cache import add_never_cache_headers
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe
from prometheus_client import CONTENT_TYPE_LATEST, generate_latest

from core.metrics import ANALYSIS_BACKLOG
from core.outages import database_unavailable
from game.live import live_games
from game.selectors import analysis_backlog

READY_TIMEOUT: Final = 1.0
"""Seconds each part has to answer the readiness check."""
RETRY_AFTER_SECONDS: Final = 5


@never_cache
@require_safe
def health(request: HttpRequest) -> JsonResponse:
    """Liveness, for the orchestrator: the process answers (whatever the parts it needs do)."""
    return JsonResponse({"status": "ok"})


@never_cache
@require_safe
async def ready(request: HttpRequest) -> JsonResponse:
    """Readiness, for the proxy and the orchestrator: the database and the channel layer answer
    within :data:`READY_TIMEOUT`, and this process's move writer is not stuck. 503 naming what is
    wrong, else 200; each check runs at once beside the others."""
    names = ("database", "channel_layer", "move_writer")
    problems = await asyncio.gather(
        _within(_database_answers), _within(_channel_layer_answers), _within(_writer_answers)
    )
    checks = {name: problem or "ok" for name, problem in zip(names, problems, strict=True)}
    ready = not any(problems)
    return JsonResponse(
        {"status": "ok" if ready else "unavailable", "checks": checks}, status=200 if ready else 503
    )


async def _within(check: Callable[[], Awaitable[None]]) -> str | None:
    """What is wrong with a part, or None when it answers in time."""
    try:
        await asyncio.wait_for(check(), READY_TIMEOUT)
    except TimeoutError:
        return f"no answer within {READY_TIMEOUT:g} s"
    except Exception as error:
        return f"{type(error).__name__}: {error}"
    return None


async def _database_answers() -> None:
    # In a thread of its own, which gives its connection back: a database that does not answer
    # holds up that thread alone, never one that anything else needs.
    await asyncio.to_thread(_select_one)


def _select_one() -> None:
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    finally:
        connection.close()


async def _channel_layer_answers() -> None:
    layer = get_channel_layer()
    ping = getattr(layer, "ping", None)
    if ping is not None:  # the in-process layer has nothing to ask
        await ping()


async def _writer_answers() -> None:
    if not live_games().answering:
        raise RuntimeError("a query of the game's database threads has not been answered")


@never_cache
@require_safe
def metrics(request: HttpRequest) -> HttpResponse:
    """This process's Prometheus metrics (nginx keeps them from the public)."""
    try:
        ANALYSIS_BACKLOG.set(analysis_backlog())
    except Exception as error:
        if not database_unavailable(error):
            raise
    return HttpResponse(generate_latest(), content_type=CONTENT_TYPE_LATEST)


def server_error(request: HttpRequest) -> HttpResponse:
    """The site's 500 handler. A request that failed because the database cannot be reached
    gets a 503 that says so and asks the browser to come back (``Retry-After``), rendered
    without anything that would need the database."""
    error = sys.exc_info()[1]
    if error is None or not database_unavailable(error):
        return defaults.server_error(request)
    page = loader.get_template("503.html").render({"retry_after": RETRY_AFTER_SECONDS})
    response = HttpResponse(page, status=503)
    response["Retry-After"] = str(RETRY_AFTER_SECONDS)
    add_never_cache_headers(response)
    return response
