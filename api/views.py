"""The API's own pages around the endpoints: its index, its OpenAPI schema, its docs page, and
the JSON answers for what the endpoints do not route (an unknown path, a method other than GET)."""

from collections.abc import Callable
from functools import cache, wraps
from typing import Any

from django.conf import settings
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import render
from django.urls import reverse
from django.utils.cache import patch_cache_control
from django.views.decorators.http import require_safe

from api.application import public_api
from api.docs import docs_page


@cache
def openapi_schema() -> dict[str, Any]:
    """The API's OpenAPI document, made once per process (it changes only with the code)."""
    return dict(public_api.get_openapi_schema())


@require_safe
def index(request: HttpRequest) -> HttpResponse:
    """Where the API's docs, schema and endpoints are."""
    return JsonResponse(
        {
            "docs": reverse("api_docs"),
            "openapi": reverse("api_openapi"),
            "endpoints": sorted(openapi_schema()["paths"]),
        }
    )


@require_safe
def openapi_json(request: HttpRequest) -> HttpResponse:
    return JsonResponse(openapi_schema(), json_dumps_params={"indent": 1})


@require_safe
def docs(request: HttpRequest) -> HttpResponse:
    """The API's docs, made from its OpenAPI schema: every endpoint, parameter and answer."""
    return render(request, "api/docs.html", docs_page(openapi_schema()))


def not_found(request: HttpRequest, rest: str = "") -> HttpResponse:
    return JsonResponse(
        {"error": "not_found", "message": "No endpoint of the API is at this address"},
        status=404,
    )


def method_refused() -> HttpResponse:
    response = JsonResponse(
        {"error": "method_not_allowed", "message": "The API is read-only: use GET"},
        status=405,
    )
    response["Allow"] = "GET, HEAD"
    return response


View = Callable[..., HttpResponse]


def endpoint(view: View) -> View:
    """An endpoint as the site serves it: HEAD answered as GET (the server sends no body), any
    other method refused in JSON, and a 200 answer kept by clients as long as by the cache."""

    @wraps(view)
    def answer(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
        if request.method not in ("GET", "HEAD"):
            return method_refused()
        asked = request.method
        request.method = "GET"  # the endpoint's operation is found by it
        try:
            response = view(request, *args, **kwargs)
        finally:
            request.method = asked
        if response.status_code == 200 and settings.API_CACHE_SECONDS > 0:
            patch_cache_control(response, public=True, max_age=settings.API_CACHE_SECONDS)
        return response

    return answer
