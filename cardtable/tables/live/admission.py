"""Admission of new websockets: the process serves the handshakes it can in time and refuses the rest at once.

When every socket of a process drops at once (a deploy, a crash, a proxy
reload) they all come back within seconds. Unchecked, each handshake starts its
database work at once (the session and the player, the table, the presence row,
the state), every handshake queues behind all the others, Daphne rejects those
not accepted within its ``websocket_connect_timeout`` (5 s) after their work
has started, and the retries keep the queue full: the process does work all the
time and finishes none of it (docs/performance.md, "A restart with everyone
connected").

So the gate sits in front of everything else a handshake does
(``cardtable/asgi.py``: after the Origin check, before the session is read):

- at most ``CONNECT_CONCURRENCY`` handshakes do their work at once; one is
  accepted as its turn comes (so Daphne's handshake timeout never cuts short
  work under way), and its turn ends when its first frame (the state) goes out;
- a few more may wait for a turn, as long as the wait the gate expects (from
  the time a turn has been taking) stays under ``CONNECT_WAIT``; a waiting
  handshake that has not had its turn by then is refused without starting any
  work;
- any other is accepted, sent ``rate_limited`` with ``retry_after`` (seconds)
  and closed with code 4503 at once, with no database or cache call. The
  ``retry_after`` values hand out the coming seconds one slot at a time, at
  the rate the process has been finishing handshakes, so that the refused
  clients come back spread over the time the process needs to serve them all.
"""

from __future__ import annotations

import asyncio
import collections
import json
import logging
import time
from collections.abc import Awaitable, Callable
from typing import Any

from django.conf import settings

log = logging.getLogger(__name__)

# "Try again later" (RFC 6455's 1013; Daphne lets a server close only with 1000 or 3000-4999).
REFUSED_CODE = 4503
MAX_RETRY_AFTER = 30.0  # never send a client away for longer than this


class Gate:
    """One process's handshakes: how many are working, which wait, and when refused ones should return."""

    def __init__(self, concurrency: int, wait: float) -> None:
        self.concurrency = concurrency
        self.wait = wait
        self.working = 0
        self.waiting: collections.deque[asyncio.Future[None]] = collections.deque()
        # A turn's duration, smoothed: 50 ms until the first turns are timed.
        self.turn = 0.05
        self.next_slot = 0.0  # the monotonic time handed to the next refused client
        self.counts: collections.Counter[str] = collections.Counter()
        self.reported = 0.0

    def rate(self) -> float:
        """Handshakes a second the process has lately been finishing with every turn taken."""
        return self.concurrency / self.turn

    def expected_wait(self) -> float:
        """How long a handshake arriving now would wait for its turn, by the recent turns' time."""
        return (len(self.waiting) + 1) / self.rate() if self.working >= self.concurrency else 0.0

    def retry_after(self, now: float) -> float:
        """The next free slot for a refused client, in seconds from now (slots ``1 / rate()`` apart)."""
        start = now + self.expected_wait() + 1.0 / self.rate()
        slot = max(self.next_slot, start)
        self.next_slot = slot + 1.0 / self.rate()
        return min(MAX_RETRY_AFTER, slot - now)

    async def enter(self, arrived: float) -> float | None:
        """Wait for a turn; ``None`` once it is this handshake's, else the seconds it should retry after."""
        now = time.monotonic()
        if self.working < self.concurrency and not self.waiting:
            self.working += 1
            return None
        if self.expected_wait() + (now - arrived) > self.wait:
            self.counts["refused"] += 1
            self.report(now)
            return self.retry_after(now)
        turn = asyncio.get_running_loop().create_future()
        self.waiting.append(turn)
        try:
            await asyncio.wait_for(asyncio.shield(turn), self.wait - (now - arrived))
        except TimeoutError:
            if turn.done():  # the turn came just as the wait ran out: take it
                return None
            turn.cancel()
            self.counts["expired"] += 1  # its wait ran out before any work started
            return self.retry_after(time.monotonic())
        except BaseException:  # cancelled while waiting (Daphne gave up on the client)
            if turn.done() and not turn.cancelled():
                self.leave(time.monotonic(), False)  # the turn it was just given passes on
            else:
                turn.cancel()
            raise
        return None

    def report(self, now: float) -> None:
        """Log the gate's figures, at most once a second while it refuses handshakes."""
        if now - self.reported >= 1.0:
            self.reported = now
            log.warning(
                "connect storm: %d handshakes working, %d waiting, a turn takes %.0f ms (%.0f/s); "
                "so far %d served, %d refused, %d expired waiting",
                self.working,
                len(self.waiting),
                1000 * self.turn,
                self.rate(),
                self.counts["served"],
                self.counts["refused"],
                self.counts["expired"],
            )

    def leave(self, started: float, timed: bool) -> None:
        """End a turn (``timed``: it reached its first frame) and hand it to the next waiting handshake."""
        if timed:
            self.turn = 0.8 * self.turn + 0.2 * max(0.001, time.monotonic() - started)
            self.counts["served"] += 1
        while self.waiting:
            turn = self.waiting.popleft()
            if not turn.done():
                turn.set_result(None)  # the turn passes on: ``working`` stays as it is
                return
        self.working -= 1


_gates: dict[asyncio.AbstractEventLoop, Gate] = {}


def gate() -> Gate:
    """This event loop's gate (one per process under Daphne; one per test loop in the tests)."""
    loop = asyncio.get_running_loop()
    found = _gates.get(loop)
    if found is None:
        for old in [old for old in _gates if old.is_closed()]:
            del _gates[old]
        found = _gates[loop] = Gate(settings.CONNECT_CONCURRENCY, settings.CONNECT_WAIT)
    return found


Receive = Callable[[], Awaitable[dict]]
Send = Callable[[dict], Awaitable[None]]


async def refuse(receive: Receive, send: Send, retry_after: float) -> None:
    """Accept the handshake, say when to come back, close with 4503: no database, no cache."""
    message = await receive()
    if message.get("type") != "websocket.connect":
        return  # the client has gone already
    seconds = round(retry_after, 1)
    error = {
        "type": "error",
        "code": "rate_limited",
        "message": f"the server is busy; connecting again in {seconds:g} s",
        "retry_after": seconds,
    }
    await send({"type": "websocket.accept"})
    await send({"type": "websocket.send", "text": json.dumps(error)})
    await send({"type": "websocket.close", "code": REFUSED_CODE})


class Admission:
    """ASGI middleware for websockets: each handshake passes the process's ``Gate`` first."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict, receive: Receive, send: Send) -> Any:
        """Refuse the handshake at once, or wait for its turn and hold it until its first frame goes out."""
        if scope["type"] != "websocket":
            return await self.application(scope, receive, send)
        arrived = time.monotonic()
        door = gate()
        retry = await door.enter(arrived)
        if retry is not None:
            await refuse(receive, send, retry)
            return None
        started = time.monotonic()
        done = False

        def finish(timed: bool) -> None:
            nonlocal done
            if not done:
                done = True
                door.leave(started, timed)

        try:
            return await self._admitted(scope, receive, send, finish)
        finally:
            finish(False)

    async def _admitted(
        self, scope: dict, receive: Receive, send: Send, finish: Callable[[bool], None]
    ) -> Any:
        # The handshake completes now, so Daphne's handshake timeout can no longer throw
        # its work away however long the work takes; the consumer's own accept is dropped.
        connect = await receive()
        if connect.get("type") != "websocket.connect":
            return None  # the client has gone already
        await send({"type": "websocket.accept"})
        replayed = False

        async def replay() -> dict:
            nonlocal replayed
            if not replayed:
                replayed = True
                return connect
            return await receive()

        async def watched(message: dict) -> None:
            if message["type"] == "websocket.accept":
                return  # accepted above
            if message["type"] in ("websocket.send", "websocket.close"):
                # The first frame: the connect's work is done (a close: it ended without).
                finish(message["type"] == "websocket.send")
            await send(message)

        return await self.application(scope, replay, watched)
