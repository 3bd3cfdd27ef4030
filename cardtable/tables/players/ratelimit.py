"""Rate limits per player and per client address (docs/security.md, "Limits").

Each kind of action (``settings.RATE_LIMITS``: new guests, renames, tables,
websockets, chat lines, syncs, hints, leaves, takeovers) allows so many per so
many seconds per player and per address. The counts live in Django's cache
``limits`` (``settings.CACHES``): Redis when the site has it, so every server
process counts against the same limit and a restart forgets nothing; else this
process's memory. While Redis does not answer, each process counts in its own
memory (logged; it tries Redis again every ``RETRY_AFTER`` seconds), so the site
keeps its limits and keeps working.

A window is a sliding one: the count of the current fixed window plus the
previous window's, weighted by how much of it still overlaps the last
``seconds``. Each action adds one with the cache's atomic ``incr`` and is refused
if the new count is over the limit, so two processes racing for the last place
cannot both have it. A refused action takes its count back (``refund``): it spends
nothing, and neither does one that the service then refuses for another reason.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.core.cache import BaseCache, caches
from django.core.cache.backends.locmem import LocMemCache
from redis.exceptions import RedisError

from cardtable.tables.errors import TableError
from cardtable.tables.models import Player

log = logging.getLogger(__name__)

CACHE = "limits"
# Calls to a remote store leave the event loop: a round trip must not stall every socket.
_store_threads = ThreadPoolExecutor(max_workers=2, thread_name_prefix="limits")
# Where the counts go while the shared store fails (a process-local stand-in).
_fallback = LocMemCache("limits-fallback", {"TIMEOUT": None})
# After the store fails, this process counts in its memory for a while before it
# tries again: an unreachable Redis would make every action wait for its timeout.
RETRY_AFTER = 5.0
_down_until = 0.0
_last_warning = 0.0


def now() -> float:
    """Wall-clock seconds: every process must agree on the windows."""
    return time.time()


@dataclass(frozen=True)
class Limit:
    """At most ``count`` actions per ``seconds`` for the counter named ``key``."""

    key: str
    count: int
    seconds: float


def _store() -> BaseCache:
    return caches[CACHE]


def _failed(error: Exception) -> None:
    global _down_until, _last_warning
    _down_until = time.monotonic() + RETRY_AFTER
    if now() - _last_warning > 60:
        _last_warning = now()
        log.warning("the rate limits' store fails (%s): counting in this process's memory", error)


def _add(store: BaseCache, limit: Limit, at: float) -> tuple[float, str]:
    """Add one to ``limit``'s current window; return the sliding count and that window's key."""
    window = int(at // limit.seconds)
    current, previous = f"{limit.key}:{window}", f"{limit.key}:{window - 1}"
    for _ in range(2):  # the key may expire between the two calls: once more
        store.add(current, 0, timeout=int(2 * limit.seconds) + 1)
        try:
            used = store.incr(current)
            break
        except ValueError:
            continue
    else:
        raise TableError("rate_limited", "the rate limits cannot count right now; try again")
    overlap = 1.0 - (at / limit.seconds - window)
    return used + (store.get(previous) or 0) * overlap, current


class Allowance:
    """The limits one action counts against: ``take`` one from all of them, or none."""

    def __init__(self, limits: list[Limit]) -> None:
        self.limits = limits
        self.taken: list[tuple[BaseCache, str]] = []

    def take(self, what: str) -> None:
        """Count the action against every limit; raise ``rate_limited`` (counting nothing) if one is full."""
        if time.monotonic() < _down_until:
            self._take(_fallback, what)
            return
        try:
            self._take(_store(), what)
        except (RedisError, OSError) as error:
            _failed(error)
            self._take(_fallback, what)

    def _take(self, store: BaseCache, what: str) -> None:
        at, self.taken = now(), []
        try:
            for limit in self.limits:
                used, key = _add(store, limit, at)
                self.taken.append((store, key))
                if used > limit.count:
                    raise TableError("rate_limited", f"too many {what}; wait a moment and try again")
        except BaseException:
            self.refund()
            raise

    def refund(self) -> None:
        """Take back what ``take`` counted (the action was refused for another reason)."""
        taken, self.taken = self.taken, []
        for store, key in taken:
            with contextlib.suppress(ValueError, RedisError, OSError):  # gone or unreachable: it expires
                store.decr(key)

    async def atake(self, what: str) -> None:
        """``take`` from async code: off the event loop when the store is remote."""
        if self.limits:  # none (limits off): no trip to a thread for nothing
            await _off_loop(self.take, what)

    async def arefund(self) -> None:
        """``refund`` from async code."""
        await _off_loop(self.refund)


async def _off_loop(call: Any, *args: Any) -> None:
    if self_contained():
        call(*args)
    else:
        await asyncio.get_running_loop().run_in_executor(_store_threads, call, *args)


def self_contained() -> bool:
    """Whether the counts live in this process's memory (no round trip to wait for)."""
    return isinstance(_store(), LocMemCache)


def allowance(kind: str, player: Player | None, address: str | None) -> Allowance:
    """Return the limits of ``kind`` for this player and this address (none when limits are off)."""
    if not settings.RATE_LIMITS_ON:
        return Allowance([])
    limits = settings.RATE_LIMITS.get(kind, {})
    found = []
    # The creation time is in the key: a test database that reuses ids gets fresh counts.
    if "player" in limits and player is not None:
        key = f"{kind}:player:{player.pk}:{player.created.timestamp():.6f}"
        found.append(Limit(key, *limits["player"]))
    if "address" in limits and address:
        found.append(Limit(f"{kind}:address:{address}", *limits["address"]))
    return Allowance(found)


def request_address(request: Any) -> str | None:
    """The client's address of an HTTP request (the proxy's ``X-Forwarded-For`` under ``--proxy-headers``)."""
    return request.META.get("REMOTE_ADDR") or None


def scope_address(scope: dict) -> str | None:
    """The client's address of a websocket."""
    client = scope.get("client")
    return str(client[0]) if client else None
