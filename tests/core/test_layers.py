"""The single-process channel layer: the in-memory layer, sweeping expired entries less often."""

import asyncio

from core.layers import CLEAN_INTERVAL, SKIP_CHANNEL, InProcessChannelLayer


def test_group_messages_reach_every_member_once() -> None:
    layer = InProcessChannelLayer()

    async def run() -> list[dict[str, object]]:
        channels = [await layer.new_channel() for _ in range(3)]
        for channel in channels:
            await layer.group_add("table", channel)
        await layer.group_send("table", {"type": "game.update", "n": 1})
        return [await asyncio.wait_for(layer.receive(c), 1) for c in channels]

    assert asyncio.run(run()) == [{"type": "game.update", "n": 1}] * 3


def test_expired_messages_are_swept_at_most_once_an_interval() -> None:
    """A message past its expiry is dropped by the next sweep, and sweeps are an interval apart."""
    layer = InProcessChannelLayer(expiry=-1)  # every message is already expired when sent

    async def run() -> tuple[bool, bool, bool]:
        await layer.send("first.x", {"type": "a"})
        await layer.group_send("nobody", {"type": "b"})  # the first call sweeps
        swept_first = "first.x" not in layer.channels
        await layer.send("second.x", {"type": "a"})
        await layer.group_send("nobody", {"type": "b"})  # too soon: no sweep
        kept_second = "second.x" in layer.channels
        await asyncio.sleep(CLEAN_INTERVAL + 0.05)
        await layer.group_send("nobody", {"type": "b"})
        return swept_first, kept_second, "second.x" not in layer.channels

    assert asyncio.run(run()) == (True, True, True)


def test_a_fresh_message_survives_a_sweep() -> None:
    layer = InProcessChannelLayer(expiry=60)

    async def run() -> dict[str, object]:
        await layer.send("keep.x", {"type": "a"})
        await asyncio.sleep(CLEAN_INTERVAL + 0.05)
        await layer.group_send("nobody", {"type": "b"})
        return await asyncio.wait_for(layer.receive("keep.x"), 1)

    assert asyncio.run(run()) == {"type": "a"}


def test_a_group_message_can_leave_out_the_member_it_names() -> None:
    layer = InProcessChannelLayer()

    async def run() -> tuple[dict[str, object], bool]:
        sender, other = await layer.new_channel(), await layer.new_channel()
        for channel in (sender, other):
            await layer.group_add("table", channel)
        await layer.group_send("table", {"type": "game.update", SKIP_CHANNEL: sender})
        received = await asyncio.wait_for(layer.receive(other), 1)
        return received, sender in layer.channels

    received, sender_has_mail = asyncio.run(run())
    assert received["type"] == "game.update"
    assert not sender_has_mail
