"""The bots' searches (bot moves, stand-ins, timeouts, hints) in a bounded pool of worker processes.

A search is pure Python and holds the interpreter's lock while it thinks. Run in
a thread of the server's process, as it once was, it took that lock from the
event loop's thread again and again: five hints searching at once made the
lobby answer 20 times slower (docs/security.md, "Fixed after the second outside
probe"). So each server process hands its searches to ``settings.SEARCH_WORKERS``
worker processes of its own, started on the first search and run at a lower
priority than the server; at most that many run at once and the others wait
their turn, and the event loop's thread never searches.

The workers import this module and ``games`` only, not Django: ``think`` gets
everything it needs (the think budget included) as arguments, so the server's
settings decide, and a worker needs no database or settings of its own.
"""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import threading
from collections.abc import Callable
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from typing import Any

from django.conf import settings

from games import get_game
from games.bots import make_bot

log = logging.getLogger(__name__)

# Added to a worker's niceness: when searches keep every core busy, the event loop
# (answers, moves, the lobby) still runs first; the searches use what is left.
WORKER_NICENESS = 10
_pool: ProcessPoolExecutor | None = None
_lock = threading.Lock()
_waiting = 0  # searches submitted and not finished, in this process


def think(game_id: str, state_json: dict, seat: int, level: str, seed: int, budget: dict) -> dict[str, Any]:
    """Compute a bot's move (in a worker process; tests call it in place).

    A bot that fails must not stall its table: the failure is logged and the
    seat plays a random legal move instead.
    """
    game = get_game(game_id)
    state = game.from_json(state_json)
    try:
        return make_bot(level, game, seed, **budget).choose(state, seat)
    except Exception:
        log.exception("%s bot failed in %s; playing a random move instead", level, game_id)
        return game.random_move(state, seat, random.Random(seed))


def _yield_cpu() -> None:
    """A worker's first act: run at a lower priority, so the server's own process gets a busy CPU first."""
    os.nice(WORKER_NICENESS)


def _executor() -> ProcessPoolExecutor:
    """This process's pool, started (or started again, after a worker died) on first use."""
    global _pool
    with _lock:
        if _pool is None or getattr(_pool, "_broken", False):
            # spawn: a fork of a server with threads and open sockets would inherit them mid-use.
            context = multiprocessing.get_context("spawn")
            _pool = ProcessPoolExecutor(
                max_workers=settings.SEARCH_WORKERS, mp_context=context, initializer=_yield_cpu
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
    """Start the workers now, not at the first search (the server starting: a worker takes a while)."""
    for _ in range(settings.SEARCH_WORKERS):
        submit(os.getpid)


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
