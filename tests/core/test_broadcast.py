"""Broadcasts in the background (``core.broadcast``), through the site's channel layer: Redis's
when REDIS_URL is set, the in-process layer otherwise."""

import asyncio
import gc
import logging
import uuid
import weakref
from typing import Any

import pytest
from channels.layers import get_channel_layer

from core.broadcast import GroupMessage, broadcast_soon, broadcasts_sent


async def member_of(*groups: str) -> str:
    """A new channel, in each of ``groups``."""
    layer = get_channel_layer()
    channel = await layer.new_channel()
    for group in groups:
        await layer.group_add(group, channel)
    return channel


async def received(channel: str, count: int) -> list[dict[str, Any]]:
    layer = get_channel_layer()
    return [await asyncio.wait_for(layer.receive(channel), 5) for _ in range(count)]


def a_group() -> str:
    return f"broadcast-test-{uuid.uuid4().hex}"


@pytest.mark.asyncio
async def test_broadcasts_made_in_one_turn_go_out_together_and_in_order(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A committed batch of moves is broadcast in one turn of the loop: the layer is called once
    for all of them, and each member gets its groups' messages in the order they were made."""
    layer = get_channel_layer()
    calls: list[list[GroupMessage]] = []
    send_many = layer.group_send_many

    async def counted(messages: list[GroupMessage]) -> None:
        calls.append(list(messages))
        await send_many(messages)

    monkeypatch.setattr(layer, "group_send_many", counted)
    table, other = a_group(), a_group()
    watcher = await member_of(table, other)

    for n in range(3):
        broadcast_soon(table if n != 1 else other, {"type": "game.update", "n": n})
    await broadcasts_sent()
    broadcast_soon(table, {"type": "game.update", "n": 3})
    await broadcasts_sent()

    assert [len(messages) for messages in calls] == [3, 1]
    assert [message["n"] for message in await received(watcher, 4)] == [0, 1, 2, 3]
    await layer.channel_discard(watcher)


@pytest.mark.asyncio
async def test_what_is_told_after_a_broadcast_follows_it_and_one_failure_stops_nothing(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """The listeners of a change (``then``) hear of it once its broadcast is sent, in the order of
    the broadcasts; one that fails is logged, and the next broadcasts and listeners go on."""
    table = a_group()
    watcher = await member_of(table)
    told: list[str] = []

    async def tell(name: str) -> None:
        told.append(name)

    async def fail() -> None:
        told.append("failing")
        raise RuntimeError("a listener's bug")

    broadcast_soon(table, {"type": "game.update", "n": 0}, then=lambda: tell("first"))
    broadcast_soon(table, {"type": "game.update", "n": 1}, then=fail)
    await asyncio.sleep(0)  # the first two are on their way: the third goes in the next batch
    broadcast_soon(table, {"type": "game.update", "n": 2}, then=lambda: tell("third"))
    with caplog.at_level(logging.ERROR, logger="core.broadcast"):
        await broadcasts_sent()

    assert told == ["first", "failing", "third"]
    assert [message["n"] for message in await received(watcher, 3)] == [0, 1, 2]
    assert [record.getMessage() for record in caplog.records] == [
        "Telling of a broadcast change failed"
    ]
    await get_channel_layer().channel_discard(watcher)


def test_a_loop_that_has_ended_is_not_kept_for_its_broadcasts() -> None:
    """Each event loop has its own broadcasts; once they are sent, nothing holds the loop (tests
    run a loop each, and a process's loops come and go with ``async_to_sync``)."""

    async def broadcast() -> weakref.ref[asyncio.AbstractEventLoop]:
        broadcast_soon(a_group(), {"type": "game.update", "n": 0})
        await broadcasts_sent()
        return weakref.ref(asyncio.get_running_loop())

    loop = asyncio.run(broadcast())
    gc.collect()
    assert loop() is None
