"""channels_redis' layers, with group messages that name their group (see ``layers.py``).

The pub/sub layer also waits for its messages instead of polling for them
(``_WaitingShard``).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from channels_redis import core, pubsub

from cardtable.tables.live.layers import tagged

log = logging.getLogger(__name__)


class RedisChannelLayer(core.RedisChannelLayer):
    """channels_redis' default layer (a list per process in Redis)."""

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Send ``message`` to the group, naming the group in it."""
        await super().group_send(group, tagged(group, message))


class _WaitingShard(pubsub.RedisSingleShardConnection):
    """channels_redis' connection to one Redis, whose receiver waits for the next message.

    channels_redis reads the subscription with a 0.1 s timeout, in a loop: ten
    wake-ups a second in every process, with or without anything to hear, which
    cost each process about 3 of its 5 ms of CPU a second when idle
    (docs/performance.md, "The move path"). A read that waits costs nothing
    while nothing comes. Subscribing meanwhile only writes to the connection (the
    read takes the confirmation), and a lost connection still ends the read with
    an error, after which the loop reconnects as channels_redis' does; the hub
    notices an outage by its own probe either way (``layerlink.LAYER_PROBE``).
    """

    async def _do_receiving(self) -> None:
        while True:
            try:
                if self._pubsub and self._pubsub.subscribed:
                    message = await self._pubsub.get_message(ignore_subscribe_messages=True, timeout=None)
                    self._receive_message(message)
                else:
                    await asyncio.sleep(0.1)  # nothing subscribed yet: as channels_redis
            except Exception:  # (a cancel is no Exception: it ends the loop)
                log.exception("the Redis subscription failed; reading it again in a second")
                await asyncio.sleep(1)


class RedisPubSubChannelLayer(pubsub.RedisPubSubChannelLayer):
    """channels_redis' pub/sub layer (a group send is one PUBLISH), waiting for its messages."""

    def _get_layer(self) -> pubsub.RedisPubSubLoopLayer:
        created = asyncio.get_running_loop() not in self._layers
        layer = super()._get_layer()
        if created:  # before its first use: no connection or subscription yet to carry over
            layer._shards = [_WaitingShard(shard.host, layer) for shard in layer._shards]
        return layer

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Send ``message`` to the group, naming the group in it."""
        await self._get_layer().group_send(group, tagged(group, message))
