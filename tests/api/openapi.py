"""The API's OpenAPI document, and checks of answers against it."""

import json
import re
from functools import cache
from typing import Any

from django.test import Client
from openapi_schema_validator import OAS31Validator

SLOT = re.compile(r"<(?:[^>:]+:)?([^>]+)>")


@cache
def openapi() -> dict[str, Any]:
    """The document the API serves."""
    response = Client().get("/api/openapi.json")
    assert response.status_code == 200
    return dict(json.loads(response.content))


def template_of(route: str) -> str:
    """An OpenAPI path from a Django route: ``/api/v1/players/<str:username>`` →
    ``/api/v1/players/{username}``."""
    return SLOT.sub(r"{\1}", route)


def documented_schema(path: str, method: str, status: int) -> dict[str, Any] | None:
    """The schema the document gives for one answer, or None if it documents no such answer."""
    operation = openapi()["paths"].get(path, {}).get(method.lower())
    if operation is None:
        return None
    answer = operation["responses"].get(str(status))
    if answer is None:
        return None
    return dict(answer["content"]["application/json"]["schema"])


def conformance_errors(path: str, method: str, status: int, body: Any) -> list[str]:
    """What is wrong with an answer by the document: its status undocumented, or its body not of
    the documented schema."""
    schema = documented_schema(path, method, status)
    if schema is None:
        return [f"{method} {path} answered {status}, which is not documented"]
    validator = OAS31Validator({**schema, "components": openapi()["components"]})
    return [error.message for error in validator.iter_errors(body)]
