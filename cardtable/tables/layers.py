"""The in-memory channel layer of a single process (no ``REDIS_URL``), with a cheaper expiry sweep.

Channels' ``InMemoryChannelLayer`` walks every channel's queue and every group
membership on each ``send``, ``receive`` and ``group_send``, to drop expired
messages. A waiting connection keeps a queue there, so with 1,000 sockets one
four-seat move walked about 10,000 entries (a group send and four receives).
Here that sweep runs at most once a second: an expired message may then wait
up to a second longer before it is dropped, which nothing here relies on.
"""

from __future__ import annotations

import time

from channels import layers


class InMemoryChannelLayer(layers.InMemoryChannelLayer):
    """Channels' in-memory layer, sweeping out expired messages at most once a second."""

    SWEEP_EVERY = 1.0  # seconds
    _swept = float("-inf")

    def _clean_expired(self) -> None:
        now = time.monotonic()
        if now - self._swept >= self.SWEEP_EVERY:
            self._swept = now
            super()._clean_expired()
