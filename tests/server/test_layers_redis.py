"""The pub/sub layer waits for its messages: no polling while idle, and it hears again after Redis returns."""

from __future__ import annotations

import asyncio
import contextlib
import uuid
from collections.abc import AsyncIterator
from typing import Any

import pytest

from cardtable.tables.live.layers_redis import RedisPubSubChannelLayer
from tests.conftest import REDIS_URL
from tests.ops.conftest import require_binary
from tests.ops.harness import RedisServer

pytestmark = pytest.mark.redis


def _layers(url: str) -> tuple[RedisPubSubChannelLayer, RedisPubSubChannelLayer]:
    """A listener and a sender on one Redis, sharing a prefix of their own."""
    prefix = f"test{uuid.uuid4().hex[:8]}"
    return (
        RedisPubSubChannelLayer(hosts=[url], prefix=prefix),
        RedisPubSubChannelLayer(hosts=[url], prefix=prefix),
    )


@pytest.fixture
async def pair() -> AsyncIterator[tuple[RedisPubSubChannelLayer, RedisPubSubChannelLayer]]:
    listener, sender = _layers(REDIS_URL)
    yield listener, sender
    await listener.flush()
    await sender.flush()


def _count_reads(listener: RedisPubSubChannelLayer) -> list[int]:
    """Count the subscription's reads from now on (one list item per read started)."""
    (shard,) = listener._get_layer()._shards
    reads: list[int] = []
    read = shard._pubsub.get_message

    async def counted(*args: Any, **kwargs: Any) -> Any:
        reads.append(1)
        return await read(*args, **kwargs)

    shard._pubsub.get_message = counted
    return reads


async def test_an_idle_subscription_is_read_once_not_polled(
    pair: tuple[RedisPubSubChannelLayer, RedisPubSubChannelLayer],
) -> None:
    listener, sender = pair
    channel = await listener.new_channel()
    await listener.group_add("table", channel)
    await asyncio.sleep(0.3)  # the subscriptions' confirmations have been read
    reads = _count_reads(listener)
    await asyncio.sleep(1.0)
    assert reads == []  # channels_redis' own loop reads ten times a second

    await sender.group_send("table", {"type": "wake", "version": 3})
    message = await asyncio.wait_for(listener.receive(channel), 2)
    assert message == {"type": "wake", "version": 3, "group": "table"}
    await asyncio.sleep(0.3)
    assert len(reads) == 1  # the read that is waiting for the next one


async def test_the_subscription_is_heard_again_after_redis_restarts() -> None:
    require_binary("redis-server")
    redis = RedisServer()
    redis.start()
    try:
        listener, sender = _layers(redis.url)
        channel = await listener.new_channel()
        await listener.group_add("table", channel)
        await sender.group_send("table", {"type": "wake", "version": 1})
        assert (await asyncio.wait_for(listener.receive(channel), 2))["version"] == 1

        redis.stop()  # SIGKILL: the waiting read ends with an error
        await asyncio.sleep(0.5)
        redis.start()  # the same port, no state: the subscription must be made again

        async def send_until_heard() -> None:
            while True:
                with contextlib.suppress(Exception):  # the sender's own connection comes back too
                    await sender.group_send("table", {"type": "wake", "version": 2})
                await asyncio.sleep(0.2)

        sending = asyncio.ensure_future(send_until_heard())
        try:
            message = await asyncio.wait_for(listener.receive(channel), 10)
        finally:
            sending.cancel()
        assert message["version"] == 2
        await listener.flush()
        await sender.flush()
    finally:
        redis.stop()
