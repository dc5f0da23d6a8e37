"""An outage is told to the log once as it begins and once as it ends, whatever fails meanwhile."""

import time
from typing import Any

import pytest
from django.db import OperationalError
from prometheus_client import REGISTRY
from psycopg_pool import PoolTimeout

from core.outages import Outage, pool_wait

LOGGER = "core.outages"


def failures(label: str) -> float:
    return REGISTRY.get_sample_value("tripeaks_part_failures_total", {"part": label}) or 0.0


def told(caplog: pytest.LogCaptureFixture) -> list[str]:
    return [record.getMessage() for record in caplog.records if record.name == LOGGER]


def pool_timeout() -> OperationalError:
    """What Django raises when a request waited the pool's whole timeout for a connection."""
    try:
        try:
            raise PoolTimeout("couldn't get a connection after 5.00 sec")
        except PoolTimeout as error:
            raise OperationalError(*error.args) from error
    except OperationalError as error:
        return error


def test_an_outage_is_told_as_it_begins_and_ends_with_what_failed_between(
    caplog: pytest.LogCaptureFixture,
) -> None:
    part = Outage("Part", "test-told")
    before = failures("test-told")
    part.failed(ConnectionError("refused"))
    part.failed(ConnectionError("refused"))
    part.failed(ConnectionError("refused"))
    assert part.down
    part.succeeded()
    part.succeeded()

    assert not part.down
    lines = told(caplog)
    assert len(lines) == 2, lines
    assert lines[0] == "Part unavailable: ConnectionError: refused"
    assert lines[1].startswith("Part back after ")
    assert lines[1].endswith("(3 operations failed meanwhile)")
    assert failures("test-told") - before == 3


def test_a_call_that_began_before_the_part_came_back_opens_no_new_outage(
    caplog: pytest.LogCaptureFixture,
) -> None:
    part = Outage("Part", "test-late")
    before = failures("test-late")
    part.failed(ConnectionError("refused"))
    began_during_the_outage = time.monotonic()
    part.succeeded()

    part.failed(TimeoutError("waited too long"), began_during_the_outage)

    assert not part.down
    assert len(told(caplog)) == 2
    assert failures("test-late") - before == 2  # counted all the same


def test_a_call_that_began_after_the_part_came_back_opens_a_new_outage(
    caplog: pytest.LogCaptureFixture,
) -> None:
    part = Outage("Part", "test-again")
    part.failed(ConnectionError("refused"))
    part.succeeded()
    began_after = time.monotonic()

    part.failed(ConnectionError("refused again"), began_after)
    part.failed(ConnectionError("refused again"))

    assert part.down
    lines = told(caplog)
    assert len(lines) == 3, lines
    assert lines[2] == "Part unavailable: ConnectionError: refused again"


def test_a_pool_timeout_began_a_pool_s_timeout_ago(
    caplog: pytest.LogCaptureFixture, settings: Any
) -> None:
    """Django raises the pool's timeout as its own OperationalError: it waited the pool's timeout,
    so one that ends just after the database came back began during the outage."""
    settings.DATABASE_POOL_TIMEOUT = 5.0
    assert pool_wait(pool_timeout()) == 5.0
    assert pool_wait(OperationalError("connection refused")) == 0.0

    part = Outage("PostgreSQL", "test-pool", waited=pool_wait)
    part.failed(OperationalError("connection refused"))
    part.succeeded()
    part.failed(pool_timeout())
    assert not part.down
    assert len(told(caplog)) == 2

    part.failed(OperationalError("connection refused"))  # nothing waited: a new outage
    assert part.down
    assert len(told(caplog)) == 3
