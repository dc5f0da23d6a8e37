"""Page numbers (``?page=N``): every paged list reads them with ``page_number``, which keeps them
between 1 and PAGE_MAX, so that no offset overflows the database's integers."""

import pytest
from django.test import Client

from core.formats import PAGE_MAX, page_number

# Each request commits on its own, as on the site: on PostgreSQL an out-of-range offset would
# otherwise abort the test's transaction instead of showing as a 500.
pytestmark = pytest.mark.django_db(transaction=True)

HUGE = [str(2**63), str(2**64), "9" * 4000, str(PAGE_MAX + 1)]


@pytest.mark.parametrize("raw", HUGE)
def test_a_page_past_the_last_there_can_be_is_the_last(raw: str) -> None:
    assert page_number(raw) == PAGE_MAX


@pytest.mark.parametrize("raw", ["1e309", "0x10", "9" * 5000, "", "-1", "0", "nan"])
def test_anything_else_that_is_no_page_number_is_page_1(raw: str) -> None:
    assert page_number(raw) == 1


def test_real_page_numbers_stay() -> None:
    assert [page_number(str(n)) for n in (1, 2, 100, PAGE_MAX)] == [1, 2, 100, PAGE_MAX]


@pytest.mark.parametrize(
    "path", ["/daily/archive/", "/daily/", "/leaderboards/best/", "/races/ratings/"]
)
@pytest.mark.parametrize("raw", [str(2**63), str(2**64)])
def test_a_huge_page_number_is_an_empty_page(path: str, raw: str) -> None:
    response = Client(raise_request_exception=False).get(path, {"page": raw})

    assert response.status_code == 200
