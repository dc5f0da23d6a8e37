"""The site in two languages (docs/translations.md): English by default, French when the language
cookie or the browser asks for it; the switcher, the scripts' catalog, and the shipped catalogs.
"""

import ast
import gettext
import json
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

# The templates translated: every visible word in them goes through the catalog (all of the
# apps' templates, the game page and the race room included).
TRANSLATED_TEMPLATES = [
    "templates/base.html",
    "templates/offline.html",
    "templates/503.html",
    *(str(path.relative_to(settings.BASE_DIR)) for app in (
        "game", "accounts", "leaderboard", "moderation", "spectate", "api", "races",
    ) for path in sorted((Path(settings.BASE_DIR) / app / "templates").rglob("*.html"))),
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


def untranslated_messages(found: list[Entry]) -> list[str]:
    """The messages of a catalog's entries with no French, or a fuzzy one, or a plural short of
    its two forms."""
    return [
        msgid
        for flags, msgid, plural, msgstr, _context in found
        if "fuzzy" in flags or not msgstr or not all(msgstr.values())
        or (plural is not None and len(msgstr) != 2)
    ]  # fmt: skip


def assert_compiled_from(po: Path, mo: Path) -> None:
    """Each message the .po translates translates so with the .mo the site loads."""
    with mo.open("rb") as compiled:
        catalog = gettext.GNUTranslations(compiled)

    assert catalog.info()["language"] == "fr"
    for _flags, msgid, plural, msgstr, context in entries(po.read_text(encoding="utf-8")):
        if context is not None:
            assert catalog.pgettext(context, msgid) == msgstr[0], msgid
        elif plural is None:
            assert catalog.gettext(msgid) == msgstr[0], msgid
        else:
            assert catalog.ngettext(msgid, plural, 1) == msgstr[0], msgid
            assert catalog.ngettext(msgid, plural, 2) == msgstr[1], msgid


def test_every_french_message_is_translated() -> None:
    found = entries(FRENCH_PO.read_text(encoding="utf-8"))

    assert len(found) > 500
    assert untranslated_messages(found) == []


def test_the_shipped_catalog_matches_its_source() -> None:
    """The .mo is compiled from the .po (manage.py compilemessages): each message the .po
    translates translates so with the .mo the site loads."""
    assert_compiled_from(FRENCH_PO, FRENCH_MO)


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


def data_attributes(html: str) -> list[str]:
    """The page's data-* attribute names, in order (the scripts and browser tests find the page's
    parts by them: a translation must keep every one)."""
    return re.findall(r"\s(data-[\w-]+)", html)


@pytest.mark.django_db
def test_the_game_page_is_french_and_keeps_its_hooks() -> None:
    client = french_client()
    started = client.post(reverse("game:new"), {"variant": "tripeaks"})
    assert started.status_code == 303
    html = client.get(started["Location"]).content.decode()
    client.cookies[settings.LANGUAGE_COOKIE_NAME] = "en"
    english_html = client.get(started["Location"]).content.decode()

    assert '<html lang="fr"' in html
    for words in [
        "Votre partie · TriPeaks Online",
        "Connexion…",
        '<span class="hud__long">Cartes </span>en jeu',
        "Abandonner cette partie\u00a0?",
        "Utiliser un indice\u00a0?",
        "Piocher alors qu’une carte peut être jouée\u00a0?",
        "Jeu à quatre couleurs",
        "<kbd>Entrée</kbd> ou <kbd>Espace</kbd>",
        "Voir la relecture, avec toute la donne révélée</a>",
    ]:
        assert words in html, words
    for words in ["Your board", "Give up", "Keep playing", "Settings", "Connecting"]:
        assert words not in html, words
    assert "Give up this game?" in english_html
    assert data_attributes(html) == data_attributes(english_html)
    assert html.count("data-game-link>") == 2


@pytest.mark.django_db
def test_the_race_room_is_french_for_a_french_browser() -> None:
    from game.engine import Variant
    from races import services

    ada, bea = make_player("ada"), make_player("bea", email="bea@example.com")
    room = services.room_open(user=ada, variant=Variant.TRIPEAKS, public=True, time_limit_s=180)
    services.room_join(code=room.code, user=bea)
    services.race_start(code=room.code, user=ada)
    french = {"Accept-Language": "fr-FR,fr;q=0.9"}
    racer = signed_in(bea)

    refused = racer.post(reverse("races:start", args=[room.code]), headers=french)  # not the host
    html = racer.get(room.get_absolute_url(), headers=french).content.decode()
    guest_html = Client().get(room.get_absolute_url(), headers=french).content.decode()
    english_html = signed_in(bea).get(room.get_absolute_url()).content.decode()

    assert refused.status_code == 303
    assert "Seul l’hôte peut lancer la course" in html  # the service's refusal, as a flash
    for words in [
        f"Salle de course {room.code} · TriPeaks Online",
        "La salle de course de ada",
        "limite de temps 3 min · salle publique",
        "Invitez d’autres joueurs avec ce lien\u00a0:",
        "Votre plateau",
        "Revanche\u00a0: une nouvelle donne",
        'ada<span class="racer__note"> (hôte)</span>',
    ]:
        assert words in html, words
    assert "pour courir dans cette salle\u00a0; en attendant, vous pouvez regarder." in guest_html
    assert "race room" not in html
    assert "ada's race room" in english_html
    assert data_attributes(html) == data_attributes(english_html)


def test_a_racer_s_status_is_shown_in_the_reader_s_words() -> None:
    from races.templatetags.race_format import racer_status

    with translation.override("fr"):
        assert [racer_status(code) for code in ("waiting", "playing", "gave_up", "new")] == [
            "en attente",
            "en jeu",
            "abandonné",
            "new",
        ]
    with translation.override("en"):
        assert racer_status("gave_up") == "gave_up"  # the English page shows the protocol's code


def test_a_service_s_refusal_is_english_for_the_protocol_and_french_for_a_page() -> None:
    from races.services import MAX_RACERS, RoomFull

    refusal = RoomFull("The room is full: %(most)s racers at most", values={"most": MAX_RACERS})

    with translation.override("fr"):
        assert refusal.in_words() == f"La salle est pleine\u00a0: {MAX_RACERS} coureurs au plus"
        assert refusal.message == f"The room is full: {MAX_RACERS} racers at most"
        assert refusal.frame()["message"] == refusal.message
        assert refusal.code == "room_full"


@pytest.mark.django_db
def test_the_tutorial_s_steps_come_in_the_page_s_language() -> None:
    from game.tutorial import tutorial_frames

    html = french_client().get(reverse("game:tutorial")).content.decode()
    found = re.search(r'<script id="tutorial-frames" type="application/json">(.*?)</script>', html)
    assert found is not None
    shown = json.loads(found.group(1))

    assert [frame["title"] for frame in shown][:2] == ["La position de départ", "Monter"]
    assert 'data-t="title" tabindex="-1">La position de départ</h2>' in html
    with translation.override("fr"):
        french = tutorial_frames()
    with translation.override("en"):
        english = tutorial_frames()
    assert french[-1]["title"] == "Sommet dégagé"
    assert english[-1]["title"] == "Peak cleared"
    assert all(f["text"] != e["text"] for f, e in zip(french, english, strict=True))
    assert [f["move"] for f in french] == [e["move"] for e in english]


@pytest.mark.django_db
def test_a_flag_s_label_is_french_but_the_log_stays_english() -> None:
    from django.utils import timezone

    from game.models import Game
    from moderation import services
    from moderation.models import Action, Flag, FlagKind, FlagStatus, LogEntry
    from tests.accounts.helpers import play_out
    from tests.moderation.conftest import make_moderator

    with translation.override("fr"):
        assert (str(FlagKind.REPORTED.label), str(FlagStatus.DISMISSED.label)) == (
            "Signalée par des joueurs",
            "Classée",
        )
        assert str(Action.DISMISS_FLAG.label) == "A classé une alerte"
    ada, bea = make_player("ada"), make_player("bea", email="bea@example.com")
    game = Game.objects.create(seed="7", owner=ada, started_at=timezone.now())
    play_out(game)
    services.report_submit(reporter=bea, game_id=game.id, reason="too good")
    moderator = signed_in(make_moderator("mona"))
    moderator.cookies[settings.LANGUAGE_COOKIE_NAME] = "fr"

    queue = moderator.get(reverse("moderation:queue")).content.decode()
    flag = Flag.objects.get()
    closed = moderator.post(
        reverse("moderation:flag_close", args=[flag.id]),
        {"outcome": "dismiss", "reason": "fine"},
        follow=True,
    ).content.decode()
    again = moderator.post(
        reverse("moderation:flag_close", args=[flag.id]), {"outcome": "dismiss", "reason": "x"}
    )

    assert "<td>Signalée par des joueurs" in queue
    target = f"reported by players on game {game.id} of ada"
    assert LogEntry.objects.get().target == target  # the log's words, whatever the moderator's
    assert f"A classé une alerte\u00a0: {target}. Inscrit au journal." in closed
    assert "Cette alerte est déjà close." in again.content.decode()
