"""The public pages, home and rules: rendered by the test client, read the way a browser would."""

from html.parser import HTMLParser

import pytest
from django.templatetags.static import static
from django.test import Client
from django.urls import reverse

# The home page reads the visitor's game in play and today's challenge.
pytestmark = pytest.mark.django_db

HOME = reverse("game:home")
RULES = reverse("game:rules")
PAGES = [HOME, RULES]

# Elements whose text the outline collects.
CAPTURED = {"h1", "h2", "h3", "caption", "th", "td", "summary", "script", "title", "a"}


def squash(text: str) -> str:
    return " ".join(text.split())


class Outline(HTMLParser):
    """What the tests look at in a page: headings, links, ids, tables, questions, scripts."""

    def __init__(self, html: str) -> None:
        super().__init__()
        self.root_attrs: dict[str, str | None] = {}
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.headings: list[tuple[str, str | None, str]] = []
        self.links: list[tuple[str, str]] = []
        self.ids: set[str] = set()
        self.tables: dict[str, list[list[str]]] = {}
        self.summaries: list[str] = []
        self.scripts: list[tuple[dict[str, str | None], str]] = []
        self.title = ""
        self._text: list[str] = []
        self._open: list[tuple[str, dict[str, str | None], list[str]]] = []
        self._caption = ""
        self._rows: list[list[str]] = []
        self.feed(html)
        self.close()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        attributes = dict(attrs)
        self.tags.append((tag, attributes))
        if tag == "html":
            self.root_attrs = attributes
        if attributes.get("id"):
            self.ids.add(str(attributes["id"]))
        if tag == "table":
            self._caption, self._rows = "", []
        elif tag == "tr":
            self._rows.append([])
        if tag in CAPTURED:
            self._open.append((tag, attributes, []))

    def handle_data(self, data: str) -> None:
        self._text.append(data)
        for _tag, _attributes, parts in self._open:
            parts.append(data)

    def handle_endtag(self, tag: str) -> None:
        if tag == "table":
            self.tables[self._caption] = self._rows
        if not self._open or self._open[-1][0] != tag:
            return
        _tag, attributes, parts = self._open.pop()
        text = squash("".join(parts))
        if tag in {"h1", "h2", "h3"}:
            self.headings.append((tag, attributes.get("id"), text))
        elif tag == "a":
            self.links.append((str(attributes.get("href")), text))
        elif tag == "caption":
            self._caption = text
        elif tag in {"th", "td"}:
            self._rows[-1].append(text)
        elif tag == "summary":
            self.summaries.append(text)
        elif tag == "script":
            self.scripts.append((attributes, "".join(parts)))
        elif tag == "title":
            self.title = text

    @property
    def text(self) -> str:
        """All the page's text, whitespace squashed, as a reader would see it with tags removed."""
        return squash(" ".join(self._text))

    def heading_texts(self, tag: str) -> list[str]:
        return [text for level, _id, text in self.headings if level == tag]

    def hrefs(self) -> list[str]:
        return [href for href, _text in self.links]


def outline(client: Client, url: str) -> Outline:
    response = client.get(url)
    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    return Outline(response.content.decode())


# ---- Both pages ----------------------------------------------------------------------------------


@pytest.mark.parametrize("url", PAGES)
def test_page_uses_the_base_layout(client: Client, url: str) -> None:
    """A page is English, fits phones, loads the site's stylesheet and has the site's landmarks."""
    page = outline(client, url)
    tags = {tag for tag, _attributes in page.tags}

    assert page.root_attrs.get("lang") == "en"
    assert ("meta", {"name": "viewport", "content": "width=device-width, initial-scale=1"}) in (
        page.tags
    )
    assert ("link", {"rel": "stylesheet", "href": static("css/site.css")}) in page.tags
    assert {"header", "nav", "main", "footer"} <= tags
    assert "TriPeaks Online" in page.title
    assert len(page.heading_texts("h1")) == 1


@pytest.mark.parametrize("url", PAGES)
def test_skip_link_leads_to_the_main_content(client: Client, url: str) -> None:
    """The first link skips to <main>, whose id it names."""
    page = outline(client, url)
    main_attributes = next(attributes for tag, attributes in page.tags if tag == "main")

    assert page.links[0] == ("#main", "Skip to content")
    assert main_attributes["id"] == "main"


@pytest.mark.parametrize("url", PAGES)
def test_header_links_home_and_to_existing_pages_only(client: Client, url: str) -> None:
    """The site name links home; the nav has Home and Rules and no placeholder links."""
    page = outline(client, url)

    assert (HOME, "TriPeaks Online") in page.links
    assert (HOME, "Home") in page.links
    assert (RULES, "Rules") in page.links
    assert "#" not in page.hrefs()
    assert all(href.startswith(("/", "#")) for href in page.hrefs())


@pytest.mark.parametrize(("url", "current"), [(HOME, "Home"), (RULES, "Rules")])
def test_nav_marks_the_current_page(client: Client, url: str, current: str) -> None:
    """Exactly one nav link carries aria-current="page": the page being shown."""
    page = outline(client, url)
    current_links = [
        attributes for tag, attributes in page.tags if attributes.get("aria-current") == "page"
    ]

    assert len(current_links) == 1
    assert (current_links[0]["href"], current) in page.links


@pytest.mark.parametrize("url", PAGES)
def test_page_has_no_inline_script_or_style(client: Client, url: str) -> None:
    """Nothing a strict Content-Security-Policy would block: no inline scripts, handlers, styles."""
    page = outline(client, url)

    for attributes, body in page.scripts:
        assert attributes.get("src")
        assert body.strip() == ""
    for _tag, attributes in page.tags:
        assert not [name for name in attributes if name.startswith("on")]
        assert "style" not in attributes
    assert not any(tag == "style" for tag, _attributes in page.tags)


@pytest.mark.parametrize("url", PAGES)
def test_head_returns_headers_without_a_body(client: Client, url: str) -> None:
    """HEAD answers like GET, without the body."""
    response = client.head(url)

    assert response.status_code == 200
    assert response["Content-Type"] == "text/html; charset=utf-8"
    assert response.content == b""


@pytest.mark.parametrize("url", PAGES)
def test_post_is_refused(client: Client, url: str) -> None:
    """The pages are read-only: POST gets 405 and the allowed methods."""
    response = client.post(url)

    assert response.status_code == 405
    assert response["Allow"] == "GET, HEAD"


# ---- Home --------------------------------------------------------------------------------------


def test_home_says_what_the_site_is(client: Client) -> None:
    """The home page introduces TriPeaks in the browser and the server as referee."""
    page = outline(client, HOME)
    text = outline(client, HOME).text

    assert page.heading_texts("h1") == ["TriPeaks solitaire, in your browser"]
    assert "The server is the referee" in page.heading_texts("h3")
    assert "You never see a card before it turns face up" in text
    assert (RULES, "Learn the rules") in page.links


# ---- Rules -------------------------------------------------------------------------------------


RULES_SECTIONS = {
    "layout": "The three peaks",
    "stock-and-waste": "The stock and the waste",
    "playing": "Playing a card",
    "drawing": "Drawing, and when the game ends",
    "scoring": "Scoring",
    "no-wrap": "The no-wrap variant",
    "tips": "Tips for longer streaks",
    "faq": "Questions and answers",
}


def test_rules_sections_have_linkable_headings(client: Client) -> None:
    """Each section of the rules has an h2 with an id, listed in order in the table of contents."""
    page = outline(client, RULES)
    sections = {
        heading_id: text
        for level, heading_id, text in page.headings
        if level == "h2" and heading_id != "toc-title"
    }

    assert page.heading_texts("h1") == ["How to play TriPeaks"]
    assert sections == RULES_SECTIONS
    section_links = [(href, text) for href, text in page.links if href[1:] in RULES_SECTIONS]
    toc = section_links[: len(RULES_SECTIONS)]
    assert toc == [(f"#{heading_id}", text) for heading_id, text in RULES_SECTIONS.items()]


def test_rules_in_page_links_have_targets(client: Client) -> None:
    """Every #fragment link on the rules page points at an element on it."""
    page = outline(client, RULES)
    fragments = [href[1:] for href in page.hrefs() if href.startswith("#")]

    assert fragments
    assert set(fragments) <= page.ids


def test_rules_describe_the_deal(client: Client) -> None:
    """The layout, the face-up bottom row, and the stock and waste counts are all stated."""
    text = outline(client, RULES).text

    assert "3 + 6 + 9 + 10 = 28" in text
    assert "The ten cards of the bottom row are dealt face up" in text
    assert "The other 24 cards" in text
    assert "which leaves 23 cards in the stock" in text
    assert "no redeals" in text


def test_rules_diagram_draws_the_28_positions(client: Client) -> None:
    """The layout drawing has positions 0-27: eighteen face down, the bottom row 18-27 face up."""
    page = outline(client, RULES)
    cards = {
        int(str(attributes["data-pos"])): str(attributes["class"]).split()
        for _tag, attributes in page.tags
        if "data-pos" in attributes
    }
    face_down = {position for position, classes in cards.items() if "mini-card--down" in classes}

    assert sorted(cards) == list(range(28))
    assert face_down == set(range(18))


def test_rules_wrap_table(client: Client) -> None:
    """A captioned table shows what fits on the waste, including the King-Ace wrap."""
    page = outline(client, RULES)

    assert page.tables["Which cards fit on the waste: some examples"] == [
        ["Top of the waste", "You may play"],
        ["6", "5 or 7"],
        ["Queen", "Jack or King"],
        ["King", "Queen or Ace"],
        ["Ace", "2 or King"],
    ]


def test_rules_scoring_table(client: Client) -> None:
    """The scoring table lists streak points, the peak bonus, the clearing bonus and drawing."""
    page = outline(client, RULES)

    assert page.tables["How points are earned"] == [
        ["When", "Points"],
        ["The Nth card of a streak", "10 \N{MULTIPLICATION SIGN} N"],
        ["Playing the top card of a peak", "+100, on top of its streak points"],
        ["Clearing the whole board", "+10 for every card still in the stock"],
        ["Drawing from the stock", "No points; the streak ends"],
    ]


def test_rules_worked_scoring_example(client: Client) -> None:
    """A streak of four adds up to 100, shown card by card."""
    page = outline(client, RULES)

    assert page.tables["A streak of four"] == [
        ["Card", "Points", "Streak total"],
        ["1st", "10", "10"],
        ["2nd", "20", "30"],
        ["3rd", "30", "60"],
        ["4th", "40", "100"],
    ]
    assert "10 + 20 + 30 + 40 = 100" in outline(client, RULES).text


def test_rules_describe_the_no_wrap_variant(client: Client) -> None:
    """The no-wrap variant is named and its difference stated."""
    text = outline(client, RULES).text

    assert "tripeaks-nowrap" in text
    assert "King and Ace are not neighbours" in text


def test_rules_answer_the_common_questions(client: Client) -> None:
    """The FAQ asks the five questions players ask, each in a <details> element."""
    page = outline(client, RULES)

    assert page.summaries == [
        "Does the game wrap from King to Ace?",
        "Can I play a card of the same rank as the waste card?",
        "Can I go back to cards further down the waste?",
        "What counts as a peak?",
        "Is there a time limit?",
    ]
    assert sum(tag == "details" for tag, _attributes in page.tags) == 5


def test_rules_link_home(client: Client) -> None:
    """The rules page leads back to the home page."""
    assert HOME in outline(client, RULES).hrefs()
