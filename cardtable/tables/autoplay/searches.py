"""The bots' searches (bot moves, stand-ins, timeouts, hints) in a bounded pool of worker processes.

A search is pure Python and holds the interpreter's lock while it thinks. Run in
a thread of the server's process, as it once was, it took that lock from the
event loop's thread again and again: five hints searching at once made the
lobby answer 20 times slower (docs/security.md, "Fixed after the second outside
probe"). So each server process hands its searches to ``settings.SEARCH_WORKERS``
worker processes of its own, started with the bot driver, run at a lower
priority than the server and ended when it ends (even by ``kill -9``); at most
that many run at once and the others wait their turn, and the event loop's
thread never searches.

A worker imports this module, ``thinking.py`` and ``games``, not Django, at the
server's priority (so it is ready soon after the server starts), then lowers
its own: ``thinking.think`` gets everything it needs (the think budget included)
as arguments, so the server's settings decide, and a worker needs no database
or settings of its own.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
import threading
import time
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.conf import settings

from cardtable.tables.autoplay import thinking

# Added to a worker's niceness: when searches keep every core busy, the event loop
# (answers, moves, the lobby) still runs first; the searches use what is left.
WORKER_NICENESS = 10
_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()
_waiting = 0  # searches submitted and not finished, in this process


def _start_worker(server_pid: int) -> None:
    """A worker's first act: a lower priority, and an end when the server process is gone.

    The lower priority lets the server's own process have a busy CPU first. The
    watch matters after a ``kill -9`` of the server: a worker waiting for work
    holds its own end of the pool's queue, so it would never hear that the queue
    closed, and would outlive the server.
    """
    os.nice(WORKER_NICENESS)

    def watch() -> None:
        while os.getppid() == server_pid:
            time.sleep(1.0)
        os._exit(0)

    threading.Thread(target=watch, name="server-watch", daemon=True).start()


def _executor() -> ProcessPoolExecutor:
    """This process's pool, started (or started again, after a worker died) on first use."""
    global _pool
    with _lock:
        if _pool is None or getattr(_pool, "_broken", False):
            # spawn: a fork of a server with threads and open sockets would inherit them mid-use.
            context = multiprocessing.get_context("spawn")
            _pool = ProcessPoolExecutor(
                max_workers=settings.SEARCH_WORKERS,
                mp_context=context,
                initializer=_start_worker,
                initargs=(os.getpid(),),
            )
        return _pool


def submit(func: Callable[..., Any], *args: Any) -> Future:
    """Run ``func(*args)`` in the pool (``func`` a module-level function, its arguments picklable)."""
    global _waiting
    try:
        future = _executor().submit(func, *args)
    except BrokenProcessPool:  # a worker died since the last look: a new pool
        future = _executor().submit(func, *args)
    with _lock:
        _waiting += 1
    future.add_done_callback(_done)
    return future


def _done(future: Future) -> None:
    global _waiting
    with _lock:
        _waiting -= 1


def warm() -> None:
    """Start the workers now (the server starting), not at the first search."""
    for _ in range(settings.SEARCH_WORKERS):
        submit(thinking.ready)


def waiting() -> int:
    """How many searches of this process are running or waiting for a worker."""
    return _waiting


async def run(func: Callable[..., Any], *args: Any) -> Any:
    """``submit`` and wait for the result without holding up the event loop."""
    return await asyncio.wrap_future(submit(func, *args))


def run_blocking(func: Callable[..., Any], *args: Any) -> Any:
    """``submit`` and wait in this (worker) thread."""
    return submit(func, *args).result()


def stop() -> None:
    """Stop the workers (a process ending; tests), after the searches under way."""
    global _pool
    with _lock:
        pool, _pool = _pool, None
    if pool is not None:
        pool.shutdown(wait=True, cancel_futures=True)
