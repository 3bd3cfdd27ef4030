"""The process's presence heartbeat: one UPDATE for all its open websockets.

Every ``CONNECTION_HEARTBEAT`` seconds the process refreshes the ``seen`` of
all its connections at once (``presence.heartbeat_many``) instead of each
socket committing its own write: with 1,000 sockets that is one statement
instead of 67 commits a second. Expiry is unchanged (``CONNECTION_TTL``).

Only sockets that are really open are refreshed (``sockets.open_channels``):
a socket whose consumer crashed or was cancelled is released first, so its
row goes instead of being kept alive by the beat (docs/security.md S2).
"""

from __future__ import annotations

import asyncio
import logging

from django.conf import settings

from cardtable.tables import presence, sockets
from cardtable.tables.dbthreads import db_call

log = logging.getLogger(__name__)

_task: asyncio.Task[None] | None = None


def start() -> None:
    """Make sure the beat runs on this event loop (the first socket starts it)."""
    global _task
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_beat())


async def beat_once() -> None:
    """Release the sockets whose consumer has ended, refresh the rows of the open ones, and
    start the grace of players whose rows expired unnoticed (``presence.sweep``).
    """
    from cardtable.tables.bots import driver  # the driver imports the services; import late

    sockets.reap()
    channels = sockets.open_channels()
    if channels:
        await db_call(presence.heartbeat_many)(channels)
    for table_id, index, grace in await db_call(presence.sweep)():
        driver.schedule_grace(table_id, index, grace)


async def _beat() -> None:
    while True:
        await asyncio.sleep(settings.CONNECTION_HEARTBEAT)
        try:
            await beat_once()
        except Exception:  # a missed beat only ages the rows; the next one may succeed
            log.exception("presence heartbeat failed")
