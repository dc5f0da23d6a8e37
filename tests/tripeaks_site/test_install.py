"""The web app manifest, the service worker and the offline page."""

import json
import os
import re

import pytest
from django.contrib.staticfiles import finders
from django.test import Client

pytestmark = pytest.mark.django_db


def test_the_manifest_names_the_site_and_icons_that_exist(client: Client) -> None:
    response = client.get("/manifest.webmanifest")
    assert response["Content-Type"] == "application/manifest+json"
    manifest = json.loads(response.content)
    assert manifest["display"] == "standalone"
    assert manifest["start_url"].startswith("/")
    sizes = {(icon["sizes"], icon["purpose"]) for icon in manifest["icons"]}
    assert sizes == {
        ("192x192", "any"),
        ("512x512", "any"),
        ("192x192", "maskable"),
        ("512x512", "maskable"),
    }
    for icon in manifest["icons"]:
        assert finders.find(icon["src"].removeprefix("/static/")), icon["src"]


@pytest.mark.parametrize(
    ("accepted", "lang", "description"),
    [("en-GB,en", "en", "Play TriPeaks solitaire"), ("fr-FR,fr;q=0.9", "fr", "Jouez au solitaire")],
)
def test_the_manifest_speaks_the_reader_s_language(
    client: Client, accepted: str, lang: str, description: str
) -> None:
    """What the phone shows when installing: the description in the reader's language (the name
    is the same in all), and a cache that keeps one per language."""
    response = client.get("/manifest.webmanifest", headers={"Accept-Language": accepted})
    manifest = json.loads(response.content)
    assert (manifest["lang"], manifest["name"]) == (lang, "TriPeaks Online")
    assert manifest["description"].startswith(description)
    assert "Accept-Language" in response["Vary"]


def test_the_service_worker_stores_static_files_and_the_two_offline_pages_only(
    client: Client,
) -> None:
    response = client.get("/sw.js")
    assert response["Content-Type"].startswith("text/javascript")
    assert response["Service-Worker-Allowed"] == "/"
    assert "no-cache" in response["Cache-Control"]
    found = re.search(r"const FILES = (\[.*?\]);", response.content.decode())
    assert found
    files = json.loads(found.group(1))
    pages = [path for path in files if not path.startswith("/static/")]
    assert pages == ["/offline/", "/tutorial/"]
    assert "/static/js/game.js" in files
    assert "/static/css/site.css" in files


def test_every_page_links_the_manifest(client: Client) -> None:
    html = client.get("/").content.decode()
    assert '<link rel="manifest" href="/manifest.webmanifest">' in html
    assert client.get("/offline/").status_code == 200


def test_a_changed_static_file_installs_a_new_worker(client: Client) -> None:
    """In development the names stay as they are: the worker's version follows the files'
    modification times, so that an edited stylesheet is not served from an old cache."""

    def version() -> str:
        found = re.search(
            r'const CACHE = "tripeaks-([0-9a-f]+)";', client.get("/sw.js").content.decode()
        )
        assert found
        return found.group(1)

    path = finders.find("css/site.css")
    assert isinstance(path, str)
    before = os.stat(path)
    first = version()
    assert version() == first
    try:
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns + 1_000_000_000))
        assert version() != first
    finally:
        os.utime(path, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert version() == first
