"""The site in two languages (docs/translations.md): English by default, French when the language
cookie or the browser asks for it; the switcher, the scripts' catalog, and the shipped catalogs.
"""

import ast
import gettext
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from tests.accounts.helpers import make_player, signed_in

LOCALE = Path(settings.BASE_DIR) / "locale"
FRENCH_PO = LOCALE / "fr" / "LC_MESSAGES" / "django.po"
FRENCH_MO = LOCALE / "fr" / "LC_MESSAGES" / "django.mo"

# The templates translated so far: every visible word in them goes through the catalog.
TRANSLATED_TEMPLATES = [
    "templates/base.html",
    "templates/offline.html",
    "templates/503.html",
    *(f"game/templates/game/{name}.html" for name in (
        "home", "rules", "tutorial", "finished", "finished_hidden", "forbidden",
        "_new_game_form", "_layout_diagram", "_analysis",
    )),
    *(str(path.relative_to(settings.BASE_DIR)) for app in (
        "accounts", "leaderboard", "moderation", "spectate", "api",
    ) for path in sorted((Path(settings.BASE_DIR) / app / "templates").rglob("*.html"))),
    "races/templates/races/lobby.html",
    "races/templates/races/ratings.html",
    "races/templates/races/challenge.html",
]  # fmt: skip


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    """The test client runs a request in the test's own thread, where the locale middleware leaves
    the request's language active: a French request must not make the next test French."""
    yield
    translation.deactivate()


def french_client() -> Client:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"
    return client


Entry = tuple[set[str], str, str | None, dict[int, str], str | None]


def entries(po: str) -> list[Entry]:
    """A .po file's entries: (flags, msgid, msgid_plural, msgstr by index, msgctxt), the header
    left out. Enough of the format for the files makemessages writes."""

    def text(line: str) -> str:
        return str(ast.literal_eval(line))

    found = []
    for block in re.split(r"\n\s*\n", po.strip()):
        flags: set[str] = set()
        context: str | None = None
        msgid: str | None = None
        plural: str | None = None
        msgstr: dict[int, str] = {}
        field: tuple[str, int] = ("", 0)
        for line in block.splitlines():
            if line.startswith("#,"):
                flags |= {flag.strip() for flag in line[2:].split(",")}
            elif line.startswith("#") or not line.strip():
                continue
            elif line.startswith("msgctxt "):
                field, context = ("msgctxt", 0), text(line.removeprefix("msgctxt "))
            elif line.startswith("msgid_plural "):
                field, plural = ("plural", 0), text(line.removeprefix("msgid_plural "))
            elif line.startswith("msgid "):
                field, msgid = ("msgid", 0), text(line.removeprefix("msgid "))
            elif line.startswith("msgstr["):
                index = int(line[7 : line.index("]")])
                field, msgstr[index] = ("msgstr", index), text(line[line.index("]") + 2 :])
            elif line.startswith("msgstr "):
                field, msgstr[0] = ("msgstr", 0), text(line.removeprefix("msgstr "))
            elif field[0] == "msgctxt":
                context = (context or "") + text(line)
            elif field[0] == "msgid":
                msgid = (msgid or "") + text(line)
            elif field[0] == "plural":
                plural = (plural or "") + text(line)
            else:
                msgstr[field[1]] += text(line)
        if msgid:
            found.append((flags, msgid, plural, msgstr, context))
    return found


@pytest.mark.django_db
def test_pages_are_english_without_a_language_asked_for() -> None:
    html = Client().get(reverse("game:home")).content.decode()

    assert '<html lang="en"' in html
    assert "TriPeaks solitaire, in your browser" in html
    assert "Sign in" in html


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("url", "words"),
    [
        ("game:home", ["Le solitaire TriPeaks, dans votre navigateur", "Jouer", "Classements"]),
        ("game:rules", ["Comment jouer à TriPeaks", "La pioche et la défausse", "Les points"]),
        ("leaderboard:leaderboards", ["Meilleur score", "Plus de victoires", "Ce qui compte"]),
        ("leaderboard:daily", ["Défi du jour", "Le classement du jour"]),
        ("accounts:login", ["Se connecter", "Mot de passe oublié", "Créer un compte"]),
        ("races:lobby", ["Courses", "Défiez vos amis"]),
        ("spectate:live", ["En direct"]),
    ],
)
def test_a_page_is_french_when_the_language_cookie_says_so(url: str, words: list[str]) -> None:
    html = french_client().get(reverse(url)).content.decode()

    assert '<html lang="fr"' in html
    for word in words:
        assert word in html
    assert "Skip to content" not in html


@pytest.mark.django_db
def test_the_browser_language_picks_french_too() -> None:
    response = Client().get(reverse("game:rules"), HTTP_ACCEPT_LANGUAGE="fr-FR,fr;q=0.9,en;q=0.5")

    assert response.headers["Content-Language"] == "fr"
    assert "Comment jouer à TriPeaks" in response.content.decode()


@pytest.mark.django_db
def test_a_language_the_site_does_not_have_falls_back_to_english() -> None:
    response = Client().get(reverse("game:home"), HTTP_ACCEPT_LANGUAGE="de-DE,de;q=0.9")

    assert response.headers["Content-Language"] == "en"


@pytest.mark.django_db
def test_french_numbers_dates_and_plurals_on_a_signed_in_page() -> None:
    client = signed_in(make_player("ada"))
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"

    html = client.get(reverse("accounts:profile")).content.decode()

    assert "Votre profil" in html
    assert "0 jour" in html  # the daily streak, in French's singular for nought
    assert "Connecté en tant que <strong>ada</strong>" in html


@pytest.mark.django_db
def test_the_switcher_posts_to_set_language_and_keeps_the_page() -> None:
    client = Client()
    html = client.get(reverse("game:rules")).content.decode()
    assert f'action="{reverse("set_language")}"' in html
    assert '<label for="language-select">Language</label>' in html
    assert '<option value="fr" lang="fr">Français</option>' in html

    choice = {"language": "fr", "next": reverse("game:rules")}
    response = client.post(reverse("set_language"), choice)

    assert response.status_code == 302
    assert response.headers["Location"] == reverse("game:rules")
    assert response.cookies[settings.LANGUAGE_COOKIE_NAME].value == "fr"
    html = client.get(reverse("game:rules")).content.decode()
    assert "Comment jouer à TriPeaks" in html
    assert '<option value="fr" lang="fr" selected>Français</option>' in html


def test_the_switcher_refuses_a_language_the_site_does_not_have() -> None:
    response = Client().post(reverse("set_language"), {"language": "xx", "next": "/"})

    assert settings.LANGUAGE_COOKIE_NAME not in response.cookies


@pytest.mark.parametrize("language", ["en", "fr"])
def test_the_javascript_catalog_answers(language: str) -> None:
    client = Client()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = language

    response = client.get(reverse("javascript_catalog"))

    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/javascript")
    assert "django.gettext" in response.content.decode()


def test_every_french_message_is_translated() -> None:
    found = entries(FRENCH_PO.read_text(encoding="utf-8"))

    assert len(found) > 500
    untranslated = [
        msgid
        for flags, msgid, plural, msgstr, _context in found
        if "fuzzy" in flags or not msgstr or not all(msgstr.values())
        or (plural is not None and len(msgstr) != 2)
    ]  # fmt: skip
    assert untranslated == []


def test_the_shipped_catalog_matches_its_source() -> None:
    """The .mo is compiled from the .po (manage.py compilemessages): each message the .po
    translates translates so with the .mo the site loads."""
    with FRENCH_MO.open("rb") as compiled:
        catalog = gettext.GNUTranslations(compiled)

    for _flags, msgid, plural, msgstr, context in entries(FRENCH_PO.read_text(encoding="utf-8")):
        if context is not None:
            assert catalog.pgettext(context, msgid) == msgstr[0], msgid
        elif plural is None:
            assert catalog.gettext(msgid) == msgstr[0], msgid
        else:
            assert catalog.ngettext(msgid, plural, 1) == msgstr[0], msgid
            assert catalog.ngettext(msgid, plural, 2) == msgstr[1], msgid


def test_placeholders_survive_translation() -> None:
    """A French message names the same %(...)s values as its English one: a missing or misspelt
    name would fail the page."""
    placeholder = re.compile(r"%\((\w+)\)[sd]")
    for _flags, msgid, plural, msgstr, _context in entries(FRENCH_PO.read_text(encoding="utf-8")):
        english = set(placeholder.findall(msgid)) | set(placeholder.findall(plural or ""))
        for text in msgstr.values():
            assert set(placeholder.findall(text)) <= english, msgid
        if plural is None:
            assert set(placeholder.findall(msgstr[0])) == english, msgid
        assert ("%%" in msgid) == all("%%" in text for text in msgstr.values()), msgid


@pytest.mark.parametrize("path", TRANSLATED_TEMPLATES)
def test_no_visible_text_is_left_untranslated(path: str) -> None:
    """Every run of words between tags, and every label or title attribute, is in a translate
    tag (names that are the same in every language, as TriPeaks Online, aside)."""
    source = (Path(settings.BASE_DIR) / path).read_text(encoding="utf-8")
    source = re.sub(r"{%\s*comment\s*%}.*?{%\s*endcomment\s*%}", "", source, flags=re.S)
    source = re.sub(r"<(script|style)\b.*?</\1>", "", source, flags=re.S)
    source = re.sub(r"{%\s*blocktranslate\b.*?{%\s*endblocktranslate\s*%}", " ", source, flags=re.S)
    source = re.sub(r"{%.*?%}|{{.*?}}|{#.*?#}", " ", source, flags=re.S)
    same_everywhere = {"TriPeaks Online", "API"}
    words = [
        text.strip()
        for text in re.findall(r">([^<>]*)<", source)
        + re.findall(r'\b(?:aria-label|title|placeholder|alt)="([^"]*)"', source)
        if re.search(r"[A-Za-z]{2,}", text) and text.strip() not in same_everywhere
    ]
    # A command line shown as code, the same in every language.
    words = [text for text in words if not text.startswith("python -m game.engine")]

    assert words == []


def test_model_labels_follow_the_language() -> None:
    from game.models import Status

    with translation.override("fr"):
        assert str(Status.WON.label) == "Gagnée"
    with translation.override("en"):
        assert str(Status.WON.label) == "Won"


def test_figures_are_written_the_reader_s_way() -> None:
    from accounts.templatetags.accounts_format import counts_on, percent
    from game.models import Game
    from leaderboard.templatetags.leaderboard_format import board_depth

    race = Game(mode="race", deal_source="race", ranked=False)
    with translation.override("en"):
        assert (percent(0.4567), board_depth(), counts_on(race)) == (
            "46%",
            "5,000",
            "Unranked: a race",
        )
    with translation.override("fr"):
        assert percent(0.4567) == "46\u00a0%"
        assert board_depth() in {"5\u202f000", "5\u00a0000", "5 000"}
        assert counts_on(race) == "Non classée\u00a0: une course"


def test_the_api_keeps_its_english_whatever_the_language() -> None:
    from accounts.templatetags.accounts_format import board_of
    from game.models import Game

    with translation.override("fr"):
        assert board_of(Game(mode="race", deal_source="race", ranked=False)) == "Unranked: a race"
