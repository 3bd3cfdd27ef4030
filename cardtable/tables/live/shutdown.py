"""A graceful stop: on SIGTERM the process finishes the moves in flight, then closes every socket.

Daphne's own SIGTERM handling cancels every consumer at once, so a move being
applied loses its answer and its socket drops without a close code. Under
Daphne this module takes SIGTERM instead (``install``) and drains:

1. new messages are no longer handled (their sockets close in a moment);
2. the requests already being handled finish (``SHUTDOWN_GRACE`` seconds at
   most), and the bot driver stops after the moves it is making;
3. every socket is closed with code 4012 ("server restarting"), which the page
   treats as "reconnecting";
4. the reactor stops, as Daphne would have.

A move is applied at most once whatever happens (the table's row lock and its
version), and one acknowledged is committed: a restart loses nothing.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import signal
import weakref
from collections.abc import Iterator
from typing import Any

from django.conf import settings

from cardtable.tables.events import ServerStopping, emit_and_wait

log = logging.getLogger(__name__)

# "Server restarting": the page reconnects at once. (RFC 6455's 1012 says the same, but
# Autobahn, under Daphne, lets a server close only with 1000 or 3000-4999.)
RESTART_CODE = 4012

draining = False
_consumers: weakref.WeakSet[Any] = weakref.WeakSet()
_in_flight = 0
_idle: asyncio.Event | None = None


def register(consumer: Any) -> None:
    """Remember an open socket's consumer, to close it on a stop."""
    _consumers.add(consumer)


def unregister(consumer: Any) -> None:
    """Forget a consumer whose socket has closed."""
    _consumers.discard(consumer)


@contextlib.contextmanager
def handling() -> Iterator[None]:
    """Count one request being handled: a stop waits for it to finish."""
    global _in_flight
    _in_flight += 1
    try:
        yield
    finally:
        _in_flight -= 1
        if _in_flight == 0 and _idle is not None:
            _idle.set()


async def drain(timeout: float | None = None) -> int:
    """Stop taking requests, let those in flight finish, stop the bots, close every socket (4012).

    Returns how many sockets it closed.
    """
    global draining, _idle
    draining = True
    timeout = settings.SHUTDOWN_GRACE if timeout is None else timeout
    _idle = asyncio.Event()
    if _in_flight:
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(_idle.wait(), timeout)
    await emit_and_wait(ServerStopping(timeout))
    consumers = list(_consumers)
    for consumer in consumers:
        with contextlib.suppress(Exception):
            await consumer.close(code=RESTART_CODE)
    # Wait for each socket's release (its presence row, its wakes): work left running when the
    # reactor stops could wait forever on the stopped event loop and keep the process alive.
    loop = asyncio.get_running_loop()
    until = loop.time() + timeout
    while _consumers and loop.time() < until:
        await asyncio.sleep(0.05)
    log.warning("stopping: %d sockets closed with %d after the moves in flight", len(consumers), RESTART_CODE)
    return len(consumers)


def install() -> None:
    """Under Daphne: take SIGTERM (after Twisted installed its own handlers) to drain, then stop."""
    from twisted.internet import reactor

    def stop_gently(signum: int, frame: object) -> None:
        reactor.callFromThread(_begin)

    def _begin() -> None:
        if draining:
            return
        task = asyncio.get_event_loop().create_task(drain())
        task.add_done_callback(lambda _: reactor.callLater(0.3, reactor.stop))  # let close frames go out

    signal.signal(signal.SIGTERM, stop_gently)
