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

- every handshake is accepted at once, so Daphne's handshake timeout never
  throws away a handshake that waits or works;
- at most ``CONNECT_CONCURRENCY`` of them do their work at once, and a turn
  ends when its first frame (the state) goes out;
- others are held for a turn, first come first served, as long as the wait
  the gate expects (from the time a turn has been taking; a guess,
  ``FIRST_TURN``, until the slow first seconds of a new process are past)
  stays under ``CONNECT_WAIT``. A held socket whose client leaves gives up its place
  before any work; one held past ``CONNECT_HOLD`` is refused (below);
- any other is sent ``rate_limited`` with ``retry_after`` (seconds) and closed
  with code 4503 at once, with no database or cache call. The ``retry_after``
  values hand out the coming seconds one slot at a time, faster than the rate
  the process has been finishing handshakes (``Gate.retry_after``), so that the
  refused clients come back spread over the time the process needs to serve
  them all, early rather than late.

Holding rather than refusing keeps the process at work: a refused client comes
back at a slot guessed from the rate so far, and a guess too far out leaves
the process idle, while a held one is served the moment a turn is free.
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
EARLY = 2.0  # refused clients are called back this many times faster than connects were going
# A turn's duration until it is measured: about what a connect takes with 8 at work on the
# project's two-core machine, once warm (docs/performance.md, "A restart with everyone connected").
FIRST_TURN = 0.04
# Rounds of turns (of ``concurrency`` each) a new gate serves, and seconds after its first
# handshake, before its measure of a turn counts: a new process's first connects run on cold
# connections and caches while every handshake of the storm is read on the same loop, and take
# several times longer than the rest (on the project's machine, for the first two seconds or so
# of a 1,000-socket storm: every client tries once within about 1.2 s).
WARM_ROUNDS = 2
WARM_SECONDS = 3.0


class Gate:
    """One process's handshakes: how many are working, which wait, and when refused ones should return."""

    def __init__(self, concurrency: int, wait: float, hold: float | None = None) -> None:
        self.concurrency = concurrency
        self.wait = wait
        self.hold = max(wait, hold if hold is not None else wait)
        self.working = 0
        self.waiting: collections.deque[asyncio.Future[None]] = collections.deque()
        # A turn's duration, smoothed: ``FIRST_TURN`` until the first rounds are past.
        self.turn = FIRST_TURN
        self.born = time.monotonic()  # made for the process's first handshake
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
        """The next free slot for a refused client, in seconds from now.

        The slots are handed out early on purpose: from halfway through the
        wait of those held now, ``EARLY`` times faster than the rate measured so
        far. A client back too soon is held (which costs nothing) or refused
        again (a handshake); one back too late leaves the process idle, and the
        rate measured in a storm's first seconds, on cold connections, is the
        slowest it will be. Past ``MAX_RETRY_AFTER`` no slot is taken: such a
        client comes back at the limit and is given a slot then.
        """
        spacing = 1.0 / (EARLY * self.rate())
        slot = max(self.next_slot, now + self.expected_wait() / 2 + spacing)
        if slot - now > MAX_RETRY_AFTER:
            return MAX_RETRY_AFTER
        self.next_slot = slot + spacing
        return slot - now

    def enter(self, arrived: float) -> asyncio.Future[None] | float | None:
        """``None``: a turn now; a future: held until its turn comes; a number: refused, retry after it."""
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
        self.report(now)
        return turn

    def give_up(self, turn: asyncio.Future[None], reason: str) -> None:
        """A held handshake leaves without working (its client left, or it was held too long)."""
        self.counts[reason] += 1
        if turn.done() and not turn.cancelled():
            self.leave(time.monotonic(), False)  # the turn it was just given passes on
        else:
            turn.cancel()

    def report(self, now: float) -> None:
        """Log the gate's figures, at most once a second while it holds or refuses handshakes."""
        if now - self.reported >= 1.0:
            self.reported = now
            log.warning(
                "connect storm: %d handshakes working, %d held, a turn takes %.0f ms (%.0f/s); "
                "so far %d served, %d refused, %d refused after holding, %d left while held",
                self.working,
                len(self.waiting),
                1000 * self.turn,
                self.rate(),
                self.counts["served"],
                self.counts["refused"],
                self.counts["expired"],
                self.counts["left"],
            )

    def leave(self, started: float, timed: bool) -> None:
        """End a turn (``timed``: it reached its first frame) and hand it to the next waiting handshake."""
        now = time.monotonic()
        if timed:
            warm = self.counts["served"] >= WARM_ROUNDS * self.concurrency and now - self.born >= WARM_SECONDS
            if warm:
                self.turn = 0.8 * self.turn + 0.2 * max(0.001, now - started)
            self.counts["served"] += 1
        if self.waiting:
            self.report(now)
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
        found = Gate(settings.CONNECT_CONCURRENCY, settings.CONNECT_WAIT, settings.CONNECT_HOLD)
        _gates[loop] = found
    return found


Receive = Callable[[], Awaitable[dict]]
Send = Callable[[dict], Awaitable[None]]


async def refuse(send: Send, retry_after: float) -> None:
    """Say when to come back and close with 4503 (the handshake is accepted): no database, no cache."""
    seconds = round(retry_after, 1)
    error = {
        "type": "error",
        "code": "rate_limited",
        "message": f"the server is busy; connecting again in {seconds:g} s",
        "retry_after": seconds,
    }
    await send({"type": "websocket.send", "text": json.dumps(error)})
    await send({"type": "websocket.close", "code": REFUSED_CODE})


class Inbox:
    """A socket's incoming messages, read ahead while it is held: the client may send, or leave."""

    def __init__(self, receive: Receive, first: dict) -> None:
        self.receive = receive
        self.kept: collections.deque[dict] = collections.deque([first])
        self.next: asyncio.Future[dict] | None = None

    def reading(self) -> asyncio.Future[dict]:
        """The read under way (one is started if none is)."""
        if self.next is None:
            self.next = asyncio.ensure_future(self.receive())
        return self.next

    def keep(self) -> dict:
        """Take the finished read's message into the kept ones, and return it."""
        assert self.next is not None
        message = self.next.result()
        self.next = None
        self.kept.append(message)
        return message

    async def __call__(self) -> dict:
        """The next message: the kept ones first, then the read under way, then new reads."""
        if self.kept:
            return self.kept.popleft()
        if self.next is not None:
            read, self.next = self.next, None
            return await read
        return await self.receive()

    def close(self) -> None:
        """Stop the read under way (the socket is done with)."""
        if self.next is not None:
            self.next.cancel()


async def hold(door: Gate, turn: asyncio.Future[None], inbox: Inbox, send: Send) -> bool:
    """Wait for ``turn`` while the client stays; ``False`` if it left or was refused meanwhile."""
    deadline = time.monotonic() + door.hold
    while not turn.done():
        reading = inbox.reading()
        left = deadline - time.monotonic()
        try:
            await asyncio.wait([turn, reading], timeout=max(0.0, left), return_when=asyncio.FIRST_COMPLETED)
        except BaseException:  # cancelled while held (Daphne ends the application)
            door.give_up(turn, "left")
            raise
        if turn.done():
            break
        if reading.done():
            if inbox.keep().get("type") == "websocket.disconnect":
                door.give_up(turn, "left")
                return False
            continue
        if time.monotonic() >= deadline:
            door.give_up(turn, "expired")
            await refuse(send, door.retry_after(time.monotonic()))
            return False
    return True


class Admission:
    """ASGI middleware for websockets: each handshake passes the process's ``Gate`` first."""

    def __init__(self, application: Any) -> None:
        self.application = application

    async def __call__(self, scope: dict, receive: Receive, send: Send) -> Any:
        """Accept the handshake; refuse it at once, or hold it for its turn and work to its first frame."""
        if scope["type"] != "websocket":
            return await self.application(scope, receive, send)
        arrived = time.monotonic()
        connect = await receive()
        if connect.get("type") != "websocket.connect":
            return None  # the client has gone already
        door = gate()
        entry = door.enter(arrived)
        await send({"type": "websocket.accept"})
        if isinstance(entry, float):
            await refuse(send, entry)
            return None
        inbox = Inbox(receive, connect)
        try:
            if entry is not None and not await hold(door, entry, inbox, send):
                return None
            return await self._admitted(scope, inbox, send, door)
        finally:
            inbox.close()

    async def _admitted(self, scope: dict, inbox: Inbox, send: Send, door: Gate) -> Any:
        started = time.monotonic()
        done = False

        def finish(timed: bool) -> None:
            nonlocal done
            if not done:
                done = True
                door.leave(started, timed)

        async def watched(message: dict) -> None:
            if message["type"] == "websocket.accept":
                return  # accepted by the gate already: the consumer's own accept is dropped
            if message["type"] in ("websocket.send", "websocket.close"):
                # The first frame: the connect's work is done (a close: it ended without).
                finish(message["type"] == "websocket.send")
            await send(message)

        try:
            return await self.application(scope, inbox, watched)
        finally:
            finish(False)
