"""The OpenAPI document: valid, served as JSON, and naming exactly the endpoints the site routes."""

import pytest
from django.test import Client
from openapi_spec_validator import validate

from tests.api.openapi import openapi, template_of
from tests.fuzz import site_routes

pytestmark = pytest.mark.django_db


def test_the_document_is_valid_openapi() -> None:
    document = openapi()

    validate(document)  # raises on any error

    assert document["openapi"].startswith("3.1")
    assert document["info"]["title"] == "TriPeaks Online API"


def test_the_document_names_every_endpoint_the_site_routes_and_no_other() -> None:
    routed = {
        template_of(str(route))
        for route in site_routes()
        if str(route).startswith("/api/v1/") and "{rest}" not in template_of(str(route))
    }

    assert set(openapi()["paths"]) == routed
    assert len(routed) == 8


def test_every_endpoint_is_get_only_and_documents_its_refusals() -> None:
    for path, operations in openapi()["paths"].items():
        assert list(operations) == ["get"], path
        answers = operations["get"]["responses"]
        assert {"200", "400", "404", "429"} <= set(answers), path
        refusal = answers["429"]["content"]["application/json"]["schema"]
        assert refusal == {"$ref": "#/components/schemas/Error"}


def test_the_index_names_the_docs_and_the_schema(client: Client) -> None:
    index = client.get("/api/").json()

    assert index["docs"] == "/api/docs/"
    assert index["openapi"] == "/api/openapi.json"
    assert index["endpoints"] == sorted(openapi()["paths"])
