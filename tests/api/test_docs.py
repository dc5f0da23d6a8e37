"""The docs page at /api/docs/: made from the schema, and loading nothing from elsewhere."""

import re
from html.parser import HTMLParser

import pytest
from django.test import Client

from tests.api.openapi import openapi

pytestmark = pytest.mark.django_db


class Outline(HTMLParser):
    """The tags of a page, with their attributes, and the bodies of its scripts."""

    def __init__(self) -> None:
        super().__init__()
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if attributes.get("id"):
            self.ids.add(str(attributes["id"]))


def outline(client: Client) -> tuple[Outline, str]:
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    page = Outline()
    page.feed(html)
    return page, html


def outline_of(client: Client, url: str) -> Outline:
    page = Outline()
    page.feed(client.get(url).content.decode())
    return page


def test_the_page_loads_nothing_from_another_site(client: Client) -> None:
    """Every stylesheet, script, image and icon comes from the site itself (no CDN): the
    layout's own, and nothing of the page's (no script, no inline style or handler)."""
    page, html = outline(client)
    layout = outline_of(client, "/rules/")

    loaded = [
        attributes.get("src") or attributes.get("href")
        for tag, attributes in page.tags
        if tag in ("script", "link", "img", "iframe", "source")
    ]
    assert loaded
    assert all(str(url).startswith("/") and not str(url).startswith("//") for url in loaded)
    scripts = [a for tag, a in page.tags if tag == "script"]
    assert scripts == [a for tag, a in layout.tags if tag == "script"]  # the layout's only
    assert not re.search(r"<script[^>]*>[^<\s]", html), "an inline script"
    assert not [tag for tag, _attributes in page.tags if tag in ("style", "iframe")]
    assert not [name for _tag, a in page.tags for name in a if name.startswith("on")]
    assert not [tag for tag, a in page.tags if "style" in a]


def test_the_page_documents_every_endpoint_parameter_and_schema(client: Client) -> None:
    page, html = outline(client)
    document = openapi()

    for path, operations in document["paths"].items():
        operation = operations["get"]
        assert f"GET {path}" in html
        assert operation["operationId"] in page.ids
        for parameter in operation.get("parameters", []):
            assert f"<code>{parameter['name']}</code>" in html
    for name in document["components"]["schemas"]:
        assert f"schema-{name}" in page.ids
    # Every link within the page leads to a heading on it.
    anchors = {
        str(a["href"])[1:]
        for tag, a in page.tags
        if tag == "a" and str(a.get("href", "")).startswith("#")
    }
    assert anchors <= page.ids


def test_the_page_links_the_schema_and_examples_that_answer(client: Client) -> None:
    _page, html = outline(client)

    assert 'href="/api/openapi.json"' in html
    examples = re.findall(r'Try it: <a href="([^"]+)"', html)
    assert "/api/v1/leaderboards" in examples
    for example in examples:
        assert client.get(example).status_code == 200, example
