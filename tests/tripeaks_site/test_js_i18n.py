"""The scripts' words in two languages (docs/translations.md, "Scripts: the JavaScript catalog"):
the djangojs catalog is whole and compiled, gathers every word static/js wraps and no other, no
script writes English words outside gettext(), and the catalog a French page loads turns the
scripts French (run in Node) while an English page loads none and keeps the English.
"""

import json
import re
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest
from django.conf import settings
from django.test import Client
from django.urls import reverse
from django.utils import translation

from core.script_catalog import catalog_url, catalog_version
from tests.node import NODE, STATIC_JS, module_url, needs_node
from tests.tripeaks_site.test_i18n import (
    assert_compiled_from,
    entries,
    french_client,
    untranslated_messages,
)

LOCALE = Path(settings.BASE_DIR) / "locale"
SCRIPTS_PO = LOCALE / "fr" / "LC_MESSAGES" / "djangojs.po"
SCRIPTS_MO = LOCALE / "fr" / "LC_MESSAGES" / "djangojs.mo"
PLACEHOLDER = re.compile(r"%\((\w+)\)s")
CALLS = {"gettext", "ngettext", "pgettext"}


@pytest.fixture(autouse=True)
def english_afterwards() -> Iterator[None]:
    yield
    translation.deactivate()


# ---- Reading the scripts -----------------------------------------------------------------------


def literals(source: str) -> list[tuple[str, str | None, int]]:
    """Each string literal of a script (a template literal's text without its ``${…}``), with the
    name of the call it is an argument of (None outside any) and where it starts. Comments and
    regular expressions are skipped. Enough of JavaScript for the site's own modules."""
    found: list[tuple[str, str | None, int]] = []
    calls: list[str | None] = []
    i, end = 0, len(source)
    while i < end:
        char = source[i]
        if source.startswith("//", i):
            newline = source.find("\n", i)
            i = end if newline < 0 else newline
            continue
        if source.startswith("/*", i):
            i = source.index("*/", i) + 2
            continue
        if char == "(":
            name = re.search(r"([A-Za-z_$][\w$]*)\s*$", source[:i])
            calls.append(name[1] if name else None)
        elif char == ")" and calls:
            calls.pop()
        elif char in "\"'`":
            j, parts, start = i + 1, [], i + 1
            while source[j] != char:
                if source[j] == "\\":
                    j += 2
                    continue
                if char == "`" and source.startswith("${", j):
                    parts.append(source[start:j])
                    depth, j = 1, j + 2
                    while depth:
                        depth += {"{": 1, "}": -1}.get(source[j], 0)
                        j += 1
                    start = j
                    continue
                j += 1
            parts.append(source[start:j])
            found.append((" ".join(parts), calls[-1] if calls else None, i))
            i = j + 1
            continue
        elif char == "/" and re.search(r"[=(,:!&|?;{}\[]\s*$", source[max(0, i - 20) : i]):
            j = i + 1  # a regular expression: its quotes are no strings
            while source[j] != "/":
                if source[j] == "\\":
                    j += 1
                elif source[j] == "[":
                    j = source.index("]", j)
                j += 1
            i = j + 1
            continue
        i += 1
    return found


CODE_TOKEN = re.compile(r"--|__|[\[\]().=/#:<>]")
WORD = re.compile(r"[A-Za-z’']+[.,!?…:;]?")
# Words that are no text for people: the keys a handler compares event.key with, and a rejection's
# message that only a catch reads.
NOT_FOR_PEOPLE = {"Home", "End", "Escape", "timed out"}


def looks_like_words(text: str) -> bool:
    """Whether a literal reads as words for people ("No more moves", "Copied", "Go!"), rather than
    code: a class list ("card card--down"), a selector, a key, an event or protocol name
    ("keydown", "in_progress"), a CSS value."""
    text = PLACEHOLDER.sub("", text).strip()
    tokens = text.split()
    if not re.search(r"[A-Za-z]{2,}", text) or text in NOT_FOR_PEOPLE:
        return False
    if any(CODE_TOKEN.search(token) for token in tokens if not WORD.fullmatch(token)):
        return False
    if len(tokens) >= 2:
        return True
    return bool(re.fullmatch(r"[A-Z][a-z]+[.!?…]?|[A-Za-z]+[.!?…]|\(\w+\)", text))


# A literal written straight where people read it: an element's text, an accessible name, the
# live region, a line of the page.
SINK = re.compile(
    r"(?:\.(?:textContent|innerText|title|placeholder|alt)\s*=\s*(?:[^;=]*?[?:]\s*)?"
    r"|setAttribute\(\s*\"(?:aria-label|title|alt|placeholder)\",\s*"
    r"|\b(?:say|showMessage|unavailable|pending)\(\s*)$"
)


def untranslated(source: str) -> list[str]:
    """The literals of a script that people would read in English whatever the page's language:
    words outside gettext(), ngettext() and pgettext(), or any lettered literal put straight into
    a place people read."""
    found = []
    for text, call, start in literals(source):
        if call in CALLS:
            continue
        statement = re.split(r"[;{}]", source[max(0, start - 200) : start])[-1]
        lettered = re.search(r"[A-Za-z]{2,}", PLACEHOLDER.sub("", text)) is not None
        if looks_like_words(text) or (lettered and SINK.search(statement)):
            found.append(text)
    return found


def scripts() -> list[Path]:
    return sorted(STATIC_JS.glob("*.js"))


def wrapped_messages(source: str) -> set[tuple[str | None, str]]:
    """The (context, msgid) of each gettext(), ngettext() and pgettext() call of a script, its
    arguments read as literals (a call with anything else would gather nothing)."""
    found = set()
    source = re.sub(r"/\*.*?\*/", "", source, flags=re.S)
    source = re.sub(r"^\s*//.*$", "", source, flags=re.M)
    # A call, not a definition (``function gettext(msgid)``) nor the catalog's own (``.gettext(``).
    for match in re.finditer(r"(?<![.\w])(?<!function )(gettext|ngettext|pgettext)\(\s*", source):
        args = []
        rest = source[match.end() :]
        while literal := re.match(r"\"((?:[^\"\\]|\\.)*)\"\s*,?\s*", rest):
            args.append(json.loads(f'"{literal[1]}"'))
            rest = rest[literal.end() :]
        assert args, f"{match[1]}() with no literal: {rest[:60]!r}"
        if match[1] == "pgettext":
            found.add((args[0], args[1]))
        else:
            found.add((None, args[0]))
            if match[1] == "ngettext":
                found.add((None, args[1]))
    return found


# ---- The catalog -------------------------------------------------------------------------------


def test_every_script_message_is_translated() -> None:
    found = entries(SCRIPTS_PO.read_text(encoding="utf-8"))

    assert len(found) > 200
    assert untranslated_messages(found) == []
    assert "fuzzy" not in SCRIPTS_PO.read_text(encoding="utf-8")


def test_the_shipped_script_catalog_matches_its_source() -> None:
    assert_compiled_from(SCRIPTS_PO, SCRIPTS_MO)


def test_script_placeholders_survive_translation() -> None:
    """A French message names only the %(...)s values of its English one, every one of them but
    for a plural's singular form (which may leave the count out); %% stays %%."""
    for _flags, msgid, plural, msgstr, _context in entries(SCRIPTS_PO.read_text(encoding="utf-8")):
        english = set(PLACEHOLDER.findall(msgid)) | set(PLACEHOLDER.findall(plural or ""))
        for text in msgstr.values():
            assert set(PLACEHOLDER.findall(text)) <= english, msgid
        last = msgstr[max(msgstr)]
        assert set(PLACEHOLDER.findall(last)) == english, msgid
        assert ("%%" in msgid) == all("%%" in text for text in msgstr.values()), msgid
        assert not re.search(r"%(?!\(\w+\)s|%)", re.sub(r"%%", "", last)), msgid


def test_the_catalog_holds_the_scripts_words_and_no_others() -> None:
    """What makemessages gathered is exactly what static/js wraps today: nothing missing (a word
    added since), nothing stale, and nothing from anywhere else."""
    po = SCRIPTS_PO.read_text(encoding="utf-8")
    catalog = set()
    for _flags, msgid, plural, _msgstr, context in entries(po):
        catalog.add((context, msgid))
        if plural is not None:
            catalog.add((context, plural))
    wrapped = set().union(*(wrapped_messages(path.read_text()) for path in scripts()))

    assert wrapped == catalog
    references = re.findall(r"^#: (.+)$", po, flags=re.M)
    files = {ref.rsplit(":", 1)[0] for line in references for ref in line.split()}
    assert files
    assert all(name.startswith("static/js/") for name in files)


# ---- The scripts -------------------------------------------------------------------------------


@pytest.mark.parametrize("path", scripts(), ids=lambda path: path.name)
def test_no_script_writes_english_outside_gettext(path: Path) -> None:
    assert untranslated(path.read_text()) == []


@pytest.mark.parametrize(
    "source",
    [
        'label.textContent = "Stock";',
        'node.setAttribute("aria-label", "face-down card");',
        "announcer.say(`Played the ${name}. Score ${score}.`);",
        'const STATUS = { lost: "no more moves", won: "won" };',
        'button.textContent = open ? "hide" : "show";',
        'return count === 1 ? "A card fits." : `${count} cards fit.`;',
    ],
)
def test_the_scan_finds_english_left_in_a_script(source: str) -> None:
    """The check above can fail: English written the old way is found."""
    assert untranslated(source) != []


def test_the_scan_leaves_code_and_wrapped_words_alone() -> None:
    source = """
      const node = element("span", "card card--down stock", { "aria-hidden": "true" });
      node.textContent = gettext("Stock");
      node.setAttribute("aria-label", format(gettext("Waste: %(card)s"), { card }));
      if (event.key === "Escape") return;
      root.querySelector("[data-over-fold-text]").dataset.state = "in_progress";
      say(ngettext("%(count)s card left.", "%(count)s cards left.", count));
      const re = /^(INPUT|TEXTAREA) "x"$/;
    """
    assert untranslated(source) == []


# ---- Serving the catalog -----------------------------------------------------------------------


@pytest.mark.django_db
def test_an_english_page_loads_no_catalog_and_a_french_one_does() -> None:
    english = Client().get(reverse("game:rules")).content.decode()
    french = french_client().get(reverse("game:rules")).content.decode()

    assert reverse("javascript_catalog") not in english
    with translation.override("fr"):
        url = catalog_url("fr")
    assert f'<script defer src="{url.replace("&", "&amp;")}"></script>' in french
    # Before the page's modules, which find its words when they run.
    assert french.index(reverse("javascript_catalog")) < french.index('type="module"')


def test_a_versioned_catalog_is_kept_for_good_and_says_french() -> None:
    response = Client().get(
        reverse("javascript_catalog"), {"language": "fr", "v": catalog_version()}
    )

    assert response.status_code == 200
    assert response.headers["Content-Type"].startswith("text/javascript")
    assert "immutable" in response.headers["Cache-Control"]
    assert "max-age=31536000" in response.headers["Cache-Control"]
    script = response.content.decode()
    assert json.dumps("Cette carte a déjà été jouée.") in script  # written as JSON, \u-escaped
    assert "(n > 1)" in script  # French plurals: 0 and 1 are singular
    assert "Today" not in script  # the admin's own words stay on its pages


def test_an_unversioned_or_stale_catalog_is_checked_again() -> None:
    client = french_client()
    stale = client.get(reverse("javascript_catalog"), {"language": "fr", "v": "old"})
    plain = client.get(reverse("javascript_catalog"))

    for response in (stale, plain):
        assert "no-cache" in response.headers["Cache-Control"]
        assert json.dumps("Cette carte a déjà été jouée.") in response.content.decode()
    again = client.get(reverse("javascript_catalog"), HTTP_IF_NONE_MATCH=plain.headers["ETag"])
    assert again.status_code == 304


def test_a_language_the_site_does_not_have_gets_the_request_s() -> None:
    response = Client().get(reverse("javascript_catalog"), {"language": "xx"})

    assert "no-cache" in response.headers["Cache-Control"]
    assert json.dumps("Cette carte a déjà été jouée.") not in response.content.decode()


# ---- The scripts in French, in Node ------------------------------------------------------------

RUNNER = f"""
import {{ readFileSync }} from "node:fs";
import vm from "node:vm";
const [catalog] = JSON.parse(readFileSync(0, "utf8"));
if (catalog) vm.runInThisContext(catalog); // as the page's classic script: sets globalThis.django
const {{ whyNot }} = await import({module_url("rules.js")});
const {{ describeChange, endSentence }} = await import({module_url("announce.js")});
const {{ cardLabel }} = await import({module_url("cards.js")});
const {{ breakdownDetails }} = await import({module_url("score.js")});
const {{ timeLeft }} = await import({module_url("countdown.js")});
const view = {{
  seq: 0, status: "in_progress", waste: "As", variant: "tripeaks", stock_count: 23,
  cards_left: 28, playable: [20], streak: 0, score: 0, peaks_cleared: 0,
  tableau: [...Array(18).fill("down"), "Ts", "9c", "2h", "Qd", "4c", "5c", "6c", "7c", "8c", "Kc"],
}};
const lost = {{ ...view, status: "lost", score: 1, cards_left: 0 }};
process.stdout.write(JSON.stringify([
  whyNot(view, 18), whyNot(view, 0), describeChange(null, view), endSentence(lost),
  cardLabel("Qh"), breakdownDetails({{ peaks_cleared: 2, stock_count: 0, status: "won" }}),
  timeLeft(3723000),
]));
"""


def run_scripts(tmp_path: Path, catalog: str | None) -> list[object]:
    script = tmp_path / "runner.mjs"
    script.write_text(RUNNER)
    result = subprocess.run(
        [str(NODE), str(script)],
        input=json.dumps([catalog]),
        capture_output=True,
        text=True,
        check=True,
        timeout=60,
    )
    answer: list[object] = json.loads(result.stdout)
    return answer


@needs_node
def test_the_scripts_speak_french_with_the_french_catalog(tmp_path: Path) -> None:
    catalog = Client().get(reverse("javascript_catalog"), {"language": "fr"}).content.decode()

    misfit, covered, first, end, label, details, left = run_scripts(tmp_path, catalog)

    nbsp = "\u00a0"
    assert misfit == f"10♠ ne va pas sur A♠{nbsp}: jouez un 2 ou un Roi."
    assert covered == f"Cette carte est recouverte{nbsp}: dégagez d’abord les cartes posées dessus."
    assert first == (
        "La défausse montre l’as de pique. 28 cartes sur les sommets, 23 dans la pioche,"
        " 1 carte va."
    )
    assert end == f"Plus de coups possibles{nbsp}: la partie est terminée, avec 1 point."
    assert label == "Q♥ dame de cœur"  # the printed card stays as it is
    assert details == {
        "peaks": "2 sur 3 sommets",
        "clearing": "0 carte restante dans la pioche",  # French: nought is singular
    }
    assert left == f"1{nbsp}h 02{nbsp}min 03{nbsp}s"


@needs_node
def test_the_scripts_keep_their_english_without_a_catalog(tmp_path: Path) -> None:
    english = Client().get(reverse("javascript_catalog"), {"language": "en"}).content.decode()

    for catalog in (None, english):
        misfit, covered, first, end, label, details, left = run_scripts(tmp_path, catalog)

        assert misfit == "10♠ doesn't fit on A♠: play a 2 or a King."
        assert covered == "That card is covered: clear the cards on top of it first."
        assert first == (
            "The waste shows the ace of spades. 28 cards on the peaks, 23 in the stock,"
            " 1 card fits."
        )
        assert end == "No more moves: the game is over, with 1 point."
        assert label == "Q♥ queen of hearts"
        assert details == {"peaks": "2 of 3 peaks", "clearing": "0 cards left in the stock"}
        assert left == "1 h 02 min 03 s"
