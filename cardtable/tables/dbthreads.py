"""Which thread a database call runs on.

Channels' ``database_sync_to_async`` is thread-sensitive by default: every call
of the process runs, one after another, on a single thread, and under load the
moves queue behind each other's round trips to the database
(docs/performance.md, "The move path"). On PostgreSQL, calls that are their own transaction
(reads of a snapshot, ``moving.apply_move`` with its row lock, the presence
heartbeat) run in parallel on a small pool instead. SQLite keeps the single
thread: it has one writer, no row locks, and ``commit.locked_table`` serialises its table
transactions in-process.

Why not ``sync_to_async(thread_sensitive=False)``: Django keeps its connections
in context-local storage, and that copies the caller's context into each call,
so a connection would belong to (connection's task, pool thread) pairs: up to
one per websocket and thread, never closed by ``close_old_connections`` (which
runs outside the copied context). Here each pool thread runs every call in its
own fixed context, so a thread has exactly one Django connection, reused for
``CONN_MAX_AGE`` and closed like the sync thread's.
"""

from __future__ import annotations

import asyncio
import contextvars
import functools
import os
import threading
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any, ParamSpec, TypeVar

from asgiref.sync import SyncToAsync
from channels.db import database_sync_to_async
from django.db import close_old_connections, connections

P = ParamSpec("P")
R = TypeVar("R")

# Bounded: at most this many pooled PostgreSQL connections per process (plus
# the sync thread's); more would only queue in the database on two cores.
POOL_THREADS = 4
_pool = ThreadPoolExecutor(max_workers=POOL_THREADS, thread_name_prefix="db")
_thread = threading.local()


def parallel() -> bool:
    """Whether independent database calls may run in parallel (not on SQLite)."""
    return connections["default"].vendor != "sqlite"


def db_call(func: Callable[P, R]) -> Callable[P, Awaitable[R]]:
    """``database_sync_to_async``, on the pool when ``parallel()``: ``func`` is its own transaction."""
    if not parallel():
        return database_sync_to_async(func)

    @functools.wraps(func)
    async def call(*args: P.args, **kwargs: P.kwargs) -> R:
        loop = asyncio.get_running_loop()
        return await loop.run_in_executor(_pool, _in_thread_context, loop, func, args, kwargs)

    return call


def _in_thread_context(loop: asyncio.AbstractEventLoop, func: Callable[..., R], args: Any, kwargs: Any) -> R:
    context = getattr(_thread, "context", None)
    if context is None:
        context = _thread.context = contextvars.Context()
    # async_to_sync in the call (broadcast after commit) then runs on the server's
    # loop, as it does from sync_to_async's own threads.
    SyncToAsync.threadlocal.main_event_loop = loop
    SyncToAsync.threadlocal.main_event_loop_pid = os.getpid()
    return context.run(_closing, func, args, kwargs)


def _closing(func: Callable[..., R], args: Any, kwargs: Any) -> R:
    close_old_connections()
    try:
        return func(*args, **kwargs)
    finally:
        close_old_connections()


def close_request_connections(**kwargs: Any) -> None:
    """Close this thread's database connections when an HTTP request served over ASGI ends.

    Django's ASGI handler runs each request's sync code on a thread of its own
    (asgiref's ``ThreadSensitiveContext``), and a connection lives in its thread's
    storage: a persistent one (``CONN_MAX_AGE``) is never reused, and once the
    thread ends it stays open until the collector frees its wrapper (a reference
    cycle). 1,000 players arriving left dozens of PostgreSQL connections open
    that way (docs/performance.md, "What limits it now"). Connected to ``request_finished`` for
    ``ASGIHandler`` only: the websockets' calls and the pool keep theirs.
    """
    for conn in connections.all(initialized_only=True):
        conn.close()
