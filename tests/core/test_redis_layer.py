"""The site's Redis channel layer against a Redis server of the test's own, stopped and started.

Needs redis-server (installed on every machine the suite runs on; skipped without it).
"""

import asyncio
import shutil
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from prometheus_client import REGISTRY

from core.broadcast import group_send, group_send_many
from core.layers import SKIP_CHANNEL
from core.outages import CHANNEL_LAYER
from core.redis_layer import ResilientRedisChannelLayer
from deploy.servers import Redis

pytestmark = [
    pytest.mark.skipif(shutil.which("redis-server") is None, reason="needs redis-server"),
    pytest.mark.asyncio,
]

GROUP = "game-0123456789abcdef"


@pytest.fixture
def redis_server(tmp_path: Path) -> Iterator[Redis]:
    server = Redis(tmp_path)
    server.start()
    yield server
    server.stop()


@pytest.fixture
def layer(redis_server: Redis) -> ResilientRedisChannelLayer:
    return ResilientRedisChannelLayer(hosts=[redis_server.url], prefix="test")


def dropped() -> float:
    return REGISTRY.get_sample_value("tripeaks_broadcasts_dropped_total") or 0.0


def subscribed(server: Redis) -> set[str]:
    """The channels Redis itself has subscribers for."""
    return set(server.command("PUBSUB", "CHANNELS", "*").split())


async def eventually(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    """Wait until ``condition()`` holds (Redis is polled, or a reconnection awaited)."""
    deadline = asyncio.get_running_loop().time() + timeout
    while not condition():
        assert asyncio.get_running_loop().time() < deadline, "never happened"
        await asyncio.sleep(0.05)


async def test_a_group_message_reaches_its_members_and_nothing_stays_subscribed(
    layer: ResilientRedisChannelLayer, redis_server: Redis
) -> None:
    first, second = await layer.new_channel(), await layer.new_channel()
    await layer.group_add(GROUP, first)
    await layer.group_add(GROUP, second)
    await layer.group_send(GROUP, {"type": "game.update", "seq": 3})
    assert await layer.receive(first) == {"type": "game.update", "seq": 3}
    assert await layer.receive(second) == {"type": "game.update", "seq": 3}
    assert subscribed(redis_server) == {first, second, layer.group_channel(GROUP)}

    await layer.channel_discard(first)
    assert subscribed(redis_server) == {second, layer.group_channel(GROUP)}
    await layer.channel_discard(second)
    assert subscribed(redis_server) == set()
    await layer.flush()


async def test_a_group_message_leaves_out_the_member_it_names_on_every_process(
    layer: ResilientRedisChannelLayer, redis_server: Redis
) -> None:
    """The mover's own socket is not woken by its move's broadcast; the other members get it,
    here and on another process (a second layer, as a second web process would have)."""
    elsewhere = ResilientRedisChannelLayer(hosts=[redis_server.url], prefix="test")
    sender, other, remote = (
        await layer.new_channel(),
        await layer.new_channel(),
        await elsewhere.new_channel(),
    )
    for owner, channel in ((layer, sender), (layer, other), (elsewhere, remote)):
        await owner.group_add(GROUP, channel)
    await layer.group_send(GROUP, {"type": "game.update", "seq": 4, SKIP_CHANNEL: sender})
    update = {"type": "game.update", "seq": 4, SKIP_CHANNEL: sender}
    assert await asyncio.wait_for(layer.receive(other), 5) == update
    assert await asyncio.wait_for(elsewhere.receive(remote), 5) == update
    await layer.group_send(GROUP, {"type": "game.update", "seq": 5})
    assert await asyncio.wait_for(layer.receive(sender), 5) == {"type": "game.update", "seq": 5}
    await layer.flush()
    await elsewhere.flush()


async def test_messages_sent_together_arrive_in_order_or_are_all_dropped(
    layer: ResilientRedisChannelLayer, redis_server: Redis
) -> None:
    """A batch of broadcasts is one pipeline: its messages arrive in the order given, across
    groups, and while Redis is down they are all dropped and counted, none raised."""
    other_group = f"{GROUP}-other"
    member = await layer.new_channel()
    for group in (GROUP, other_group):
        await layer.group_add(group, member)
    batch = [(GROUP, {"type": "a"}), (other_group, {"type": "b"}), (GROUP, {"type": "c"})]
    await asyncio.wait_for(layer.group_send_many([]), 1)  # nothing to send: done at once
    assert await group_send_many(batch, layer=layer) is True
    arrived = [await asyncio.wait_for(layer.receive(member), 5) for _ in batch]
    assert [message["type"] for message in arrived] == ["a", "b", "c"]

    redis_server.stop()
    dropped_before = dropped()
    assert await group_send_many(batch, layer=layer) is False
    assert dropped() == dropped_before + len(batch)
    redis_server.start()
    await eventually(lambda: not CHANNEL_LAYER.down)  # the outage ends with the test
    await layer.flush()


async def test_while_redis_is_down_channels_open_and_subscribe_once_it_is_back(
    layer: ResilientRedisChannelLayer, redis_server: Redis
) -> None:
    """Nothing a socket does to open fails during an outage; once Redis is back the layer
    subscribes what is wanted, and nothing that was discarded meanwhile."""
    early = await layer.new_channel()
    await layer.group_add(GROUP, early)
    redis_server.stop()

    opened = await asyncio.wait_for(layer.new_channel(), 3)
    await asyncio.wait_for(layer.group_add(GROUP, opened), 3)
    assert await group_send(GROUP, {"type": "lost"}, layer=layer) is False  # dropped, not raised
    await layer.channel_discard(early)

    assert CHANNEL_LAYER.down
    redis_server.start()
    wanted = {opened, layer.group_channel(GROUP)}
    await eventually(lambda: subscribed(redis_server) == wanted)
    # The layer's own reconnection ends the outage once its subscriptions are sent: Redis may
    # list them before the layer's task has run on to say so.
    await eventually(lambda: not CHANNEL_LAYER.down)
    await layer.group_send(GROUP, {"type": "game.update", "seq": 9})
    assert await asyncio.wait_for(layer.receive(opened), 5) == {"type": "game.update", "seq": 9}

    await layer.channel_discard(opened)
    assert subscribed(redis_server) == set()
    await layer.flush()


async def test_a_restart_of_redis_between_messages_loses_no_subscription(
    layer: ResilientRedisChannelLayer, redis_server: Redis
) -> None:
    channel = await layer.new_channel()
    await layer.group_add(GROUP, channel)
    redis_server.stop()
    redis_server.start()
    await eventually(lambda: subscribed(redis_server) == {channel, layer.group_channel(GROUP)})
    await layer.send(channel, {"type": "direct"})
    assert await asyncio.wait_for(layer.receive(channel), 5) == {"type": "direct"}
    await layer.flush()
