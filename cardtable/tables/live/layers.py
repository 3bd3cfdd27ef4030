"""This project's channel layers: Channels' own, with group messages that name their group.

Every group message carries ``"group"``: its group's name, added on sending.
A process's hub (``fanout.py``) has one channel in the groups of all the tables
it serves, so a wake arriving there must say which table it is for, whoever
sent it (another process's hub, a management command, a test).

The Redis layers are in ``layers_redis.py``, so that a process without Redis
does not load redis-py. The in-memory layer of a single process (no ``REDIS_URL``) also has a cheaper
expiry sweep. Channels' ``InMemoryChannelLayer`` walks every channel's queue
and every group membership on each ``send``, ``receive`` and ``group_send``, to
drop expired messages. Here that sweep runs at most once a second: an expired
message may then wait up to a second longer before it is dropped, which nothing
here relies on.
"""

from __future__ import annotations

import time
from typing import Any

from channels import layers


def tagged(group: str, message: dict[str, Any]) -> dict[str, Any]:
    """``message`` naming its group, as every group message here does."""
    return {**message, "group": group}


class InMemoryChannelLayer(layers.InMemoryChannelLayer):
    """Channels' in-memory layer, sweeping out expired messages at most once a second."""

    SWEEP_EVERY = 1.0  # seconds
    _swept = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept >= self.SWEEP_EVERY:
            self._swept = now
            super()._clean_expired()

    async def group_send(self, group: str, message: dict[str, Any]) -> None:
        """Send ``message`` to the group, naming the group in it."""
        await super().group_send(group, tagged(group, message))
