"""The process's presence heartbeat: one UPDATE for all its open websockets.

Every ``CONNECTION_HEARTBEAT`` seconds the process refreshes the ``seen`` of
all its connections at once (``presence.heartbeat_many``) instead of each
socket committing its own write: with 1,000 sockets that is one statement
instead of 67 commits a second. Expiry is unchanged (``CONNECTION_TTL``).
"""

from __future__ import annotations

import asyncio
import logging

from django.conf import settings

from cardtable.tables import presence
from cardtable.tables.dbthreads import db_call

log = logging.getLogger(__name__)

_channels: set[str] = set()
_task: asyncio.Task[None] | None = None


def add(channel: str) -> None:
    """Keep a connection's presence row fresh from now on (starts the beat on this event loop)."""
    global _task
    _channels.add(channel)
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_beat())


def discard(channel: str) -> None:
    """Stop refreshing a connection that has closed."""
    _channels.discard(channel)


async def _beat() -> None:
    while True:
        await asyncio.sleep(settings.CONNECTION_HEARTBEAT)
        channels = list(_channels)
        if not channels:
            continue
        try:
            await db_call(presence.heartbeat_many)(channels)
        except Exception:  # a missed beat only ages the rows; the next one may succeed
            log.exception("presence heartbeat failed for %d connections", len(channels))
