"""Every URL of the API asked with real and bad values, every method, bad queries, cookies and
headers (the cases of ``tests/fuzz.py``): no answer is a 5xx, every answer of an endpoint is JSON
of the schema the OpenAPI document gives for its status, and no answer holds a secret deal (the
seed, stock or tableau of a game in play or of a daily game before its day is over, today's and
tomorrow's challenge seeds)."""

import json
from typing import Any

import pytest
from django.http import HttpResponse
from django.test import Client

from tests.api.conftest import World
from tests.api.openapi import conformance_errors, openapi, template_of
from tests.fuzz import (
    NUL,
    QUERY_KEYS,
    Fill,
    Request,
    Route,
    Target,
    Values,
    bad_inputs,
    methods_to_ask,
    site_routes,
    targets,
)

# Each request commits on its own, as on the site.
pytestmark = pytest.mark.django_db(transaction=True)


def api_routes() -> list[Route]:
    return [route for route in site_routes() if str(route).startswith("/api/")]


def parameter_names() -> list[str]:
    """Every query parameter the API reads, and the site's usual ones."""
    names = {
        parameter["name"]
        for operations in openapi()["paths"].values()
        for operation in operations.values()
        for parameter in operation.get("parameters", [])
        if parameter["in"] == "query"
    }
    return sorted({*names, *QUERY_KEYS})


def ask(client: Client, target: Target, request: Request) -> HttpResponse:
    url = f"{target.path}?{request.query}" if request.query else target.path
    call = getattr(client, request.method.lower())
    headers: dict[str, Any] = {} if request.headers is None else {"headers": request.headers}
    if request.body is None:
        return call(url, **headers)
    if request.content_type is None:
        return call(url, request.body, **headers)
    return call(url, request.body, content_type=request.content_type, **headers)


def carries_nul(target: Target, request: Request) -> bool:
    parts = [target.path, request.query, *(request.headers or {}).values()]
    return any(NUL[1] in part or "%00" in part for part in parts)


def faults(world: World, target: Target, request: Request, response: HttpResponse) -> list[str]:
    """What is wrong with one answer."""
    if response.status_code >= 500:
        exc_info = getattr(response, "exc_info", None)
        error = exc_info[1] if exc_info else None
        return [f"{response.status_code} {error!r}"]
    text = response.content.decode(errors="replace")
    found = [f"holds the secret {secret[:20]!r}" for secret in world.secrets if secret in text]
    if response.status_code == 400 and carries_nul(target, request):
        return found  # the site refuses NUL bytes before any app reads the request
    path = template_of(str(target.route))
    if not path.startswith("/api/v1/") or request.method == "HEAD":
        return found
    if not response["Content-Type"].startswith("application/json"):
        return [*found, f"answered {response['Content-Type']}"]
    body = json.loads(text)
    if request.method != "GET":
        return [*found, *conformance_errors("/api/v1/dailies", "get", 404, body)]
    documented = path if path in openapi()["paths"] else "/api/v1/dailies"
    return [*found, *conformance_errors(documented, "get", response.status_code, body)]


def test_no_answer_is_a_5xx_a_leak_or_off_its_schema(world: World) -> None:
    values = Values(world.path_values, ("x", "1"))
    keys = parameter_names()
    client = Client(raise_request_exception=False)
    failures: list[str] = []
    asked = 0

    def check(target: Target, request: Request) -> HttpResponse:
        nonlocal asked
        asked += 1
        response = ask(client, target, request)
        for fault in faults(world, target, request, response):
            failures.append(f"{target.route} as {target.path[:70]!r}, {request}: {fault}")
        return response

    routes = api_routes()
    assert len(routes) >= 11
    for route in routes:
        for target in targets(route, values):
            for method in methods_to_ask(target, reached=True):
                response = check(target, Request(method))
                if response.status_code == 405:
                    continue
                for request in bad_inputs(method, keys, full=target.fill == Fill.FIRST):
                    check(target, request)

    assert failures == []
    assert asked > 500
