"""Site-wide endpoints that belong to no app."""

import sys

from django.db import connection
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.template import loader
from django.utils.cache import add_never_cache_headers
from django.views import defaults
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_safe

from core.outages import database_unavailable


@never_cache
@require_safe
def health(request: HttpRequest) -> JsonResponse:
    """For the proxy's and the orchestrator's health checks: the process answers and the
    database does too."""
    try:
        with connection.cursor() as cursor:
            cursor.execute("SELECT 1")
    except Exception:
        return JsonResponse({"status": "database unavailable"}, status=503)
    return JsonResponse({"status": "ok"})


RETRY_AFTER_SECONDS = 5


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
