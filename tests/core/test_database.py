"""The database thread (core.database.DatabaseThread): a call is handed to its thread as it is
made, answers on the loop, runs ``async_to_sync`` calls on that loop, and fails fast when it does
not answer in time."""

import asyncio
import threading

import pytest
from asgiref.sync import async_to_sync

from core.database import DatabaseThread
from core.outages import DatabaseUnavailable


@pytest.fixture
def database():
    thread = DatabaseThread("test-db", timeout=0.5)
    yield thread
    thread.close()


@pytest.mark.asyncio
async def test_a_call_is_handed_to_its_thread_in_its_first_step(database) -> None:
    """Under load a turn of the loop is long: a call must reach its thread in the step that
    makes it, not in a task of its own that starts a turn later."""
    reached = threading.Event()
    call = asyncio.ensure_future(database.run(reached.set))
    await asyncio.sleep(0)  # one turn of the loop: the call's first step, then this test's
    assert reached.wait(2)  # the loop stays blocked here meanwhile
    await call


@pytest.mark.asyncio
async def test_a_call_returns_its_answer_and_raises_its_error(database) -> None:
    assert await database.run(sum, [1, 2, 3]) == 6
    with pytest.raises(ZeroDivisionError):
        await database.run(divmod, 1, 0)


@pytest.mark.asyncio
async def test_async_to_sync_in_the_thread_runs_on_the_callers_loop(database) -> None:
    """An event sent from the thread (once a transaction has committed) reaches the loop the
    thread works for, where the channel layer lives."""
    loop = asyncio.get_running_loop()

    async def where() -> asyncio.AbstractEventLoop:
        return asyncio.get_running_loop()

    assert await database.run(async_to_sync(where)) is loop


@pytest.mark.asyncio
async def test_an_unanswered_call_fails_fast_and_so_does_the_next_until_it_returns(
    database,
) -> None:
    release = threading.Event()
    with pytest.raises(DatabaseUnavailable, match=r"no answer within 0\.5 s"):
        await database.run(release.wait, 10)
    assert not database.answering
    with pytest.raises(DatabaseUnavailable, match="has not answered"):
        await database.run(sum, [1])
    release.set()
    for _ in range(100):
        if database.answering:
            break
        await asyncio.sleep(0.01)
    assert await database.run(sum, [1]) == 1
