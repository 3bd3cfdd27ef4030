"""The process's presence heartbeat: a few batched UPDATEs for all its open websockets.

Every ``CONNECTION_HEARTBEAT`` seconds each of the process's connections has
its ``seen`` refreshed, in batches (``presence.heartbeat_many``) instead of each
socket committing its own write. The beat is spread over the period: every
second (``SLICES`` per period) it refreshes the slice of connections whose turn
it is, because one UPDATE of all 1,000 rows at once held PostgreSQL for up to
250 ms on two cores and every move made meanwhile waited (docs/performance.md, "The move path").
Expiry is unchanged (``CONNECTION_TTL``): each row is still refreshed once a period.

Only sockets that are really open are refreshed (``sockets.open_channels``):
a socket whose consumer crashed or was cancelled is released first, so its
row goes instead of being kept alive by the beat (docs/security.md S2).
"""

from __future__ import annotations

import asyncio
import logging
import zlib

from django.conf import settings

from cardtable.tables.authority import presence
from cardtable.tables.dbthreads import db_call
from cardtable.tables.events import SeatAway, emit
from cardtable.tables.live import sockets

log = logging.getLogger(__name__)

_task: asyncio.Task[None] | None = None


def start() -> None:
    """Make sure the beat runs on this event loop (the first socket starts it)."""
    global _task
    loop = asyncio.get_running_loop()
    if _task is None or _task.done() or _task.get_loop() is not loop:
        _task = loop.create_task(_beat())


def slices() -> int:
    """How many parts one period's refresh is spread over: about one a second."""
    return max(1, round(settings.CONNECTION_HEARTBEAT))


async def beat_once(part: int = 0, parts: int = 1) -> None:
    """Release the sockets whose consumer has ended and refresh the rows of the open ones in slice
    ``part`` of ``parts``; with the last slice, start the grace of players whose rows expired
    unnoticed (``presence.sweep``). ``beat_once()`` refreshes every open socket at once.
    """
    sockets.reap()
    channels = [c for c in sockets.open_channels() if parts == 1 or _slice_of(c, parts) == part]
    if channels:
        await db_call(presence.heartbeat_many)(channels)
    if part == parts - 1:
        for table_id, index, grace in await db_call(presence.sweep)():
            emit(SeatAway(table_id, index, grace))


def _slice_of(channel: str, parts: int) -> int:
    """A connection's slice: fixed for its life, so each row is refreshed once a period."""
    return zlib.crc32(channel.encode()) % parts


async def _beat() -> None:
    part = 0
    while True:
        parts = slices()
        await asyncio.sleep(settings.CONNECTION_HEARTBEAT / parts)
        part = (part + 1) % parts
        try:
            await beat_once(part, parts)
        except Exception:  # a missed beat only ages the rows; the next one may succeed
            log.exception("presence heartbeat failed")
