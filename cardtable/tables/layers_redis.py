"""channels_redis' layers, with group messages that name their group (see ``layers.py``)."""

from __future__ import annotations

from typing import Any

from channels_redis import core, pubsub

from cardtable.tables.layers import tagged


class RedisChannelLayer(core.RedisChannelLayer):
    """channels_redis' default layer (a list per process in Redis)."""

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Send ``message`` to the group, naming the group in it."""
        await super().group_send(group, tagged(group, message))


class RedisPubSubChannelLayer(pubsub.RedisPubSubChannelLayer):
    """channels_redis' pub/sub layer (a group send is one PUBLISH)."""

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Send ``message`` to the group, naming the group in it."""
        await self._get_layer().group_send(group, tagged(group, message))
