"""The API itself (django-ninja): its endpoints under ``/api/v1/``, its rate limit, and how every
refusal is written: JSON ``{"error": code, "message": words}`` (:class:`api.schemas.Error`)."""

import math
from typing import Any, Final

from django.http import Http404, HttpRequest, HttpResponse
from ninja import NinjaAPI
from ninja.errors import Throttled, ValidationError

from api.endpoints import router
from api.throttling import PerAddress
from core.errors import ClientError, NotFound
from game.errors import DealHidden, GameInProgress

DESCRIPTION: Final = """\
Read-only JSON of TriPeaks Online: the leaderboards, the daily challenges, players' public
profiles and finished games, and each finished game's deal, moves and analysis once its deal may
be shown. No card of a game in play is ever in an answer.

Every endpoint answers GET (and HEAD), needs no account, and is rate-limited per address: past
the limit it answers 429 with a Retry-After header. Lists come a page of fifty at a time. Answers
may be up to a few seconds old. Every refusal is JSON with an `error` code and a `message`.
"""

public_api = NinjaAPI(
    title="TriPeaks Online API",
    version="1",
    description=DESCRIPTION,
    urls_namespace="api",
    docs_url=None,  # the docs page is the site's own (api.views.docs)
    openapi_url=None,  # served by api.views.openapi_json, made once per process
    throttle=[PerAddress()],
)
public_api.add_router("/v1/", router)

STATUS_OF: Final[dict[type[ClientError], int]] = {
    NotFound: 404,
    GameInProgress: 409,
    DealHidden: 409,
}
"""The HTTP status of each refusal of the apps below; any other is 400."""

PATH_NOT_FOUND: Final = {"kind": "There is no such board"}
"""What a path parameter that fails its type means (the other path parameters are checked by
their URL converters, which leave a wrong value unrouted: 404 too)."""


def refusal(request: HttpRequest, status: int, body: dict[str, Any]) -> HttpResponse:
    """A refusal, as JSON."""
    return public_api.create_response(request, body, status=status)


@public_api.exception_handler(ClientError)
def client_error(request: HttpRequest, error: ClientError) -> HttpResponse:
    status = next((s for kind, s in STATUS_OF.items() if isinstance(error, kind)), 400)
    return refusal(request, status, error.body())


@public_api.exception_handler(Http404)
def not_found(request: HttpRequest, error: Http404) -> HttpResponse:
    return refusal(request, 404, {"error": "not_found", "message": "Nothing is here"})


@public_api.exception_handler(ValidationError)
def bad_request(request: HttpRequest, error: ValidationError) -> HttpResponse:
    """A parameter of the wrong type or value: 404 in the path, 400 in the query string."""
    for item in error.errors:
        location = item.get("loc", ())
        if location and location[0] == "path":
            name = str(location[-1])
            message = PATH_NOT_FOUND.get(name, "Nothing is here")
            return refusal(request, 404, {"error": "not_found", "message": message})
    fields = [
        {"parameter": str(item.get("loc", ("", ""))[-1]), "message": str(item.get("msg", ""))}
        for item in error.errors
    ]
    names = ", ".join(sorted({field["parameter"] for field in fields}))
    return refusal(
        request,
        400,
        {"error": "bad_request", "message": f"Check the parameters: {names}", "errors": fields},
    )


@public_api.exception_handler(Throttled)
def rate_limited(request: HttpRequest, error: Throttled) -> HttpResponse:
    seconds = math.ceil(error.wait or 1)
    return refusal(
        request,
        429,
        {
            "error": "rate_limited",
            "message": f"Too many requests from this address: try again in {seconds} s",
            "retry_after": seconds,
        },
    )
