"""The bot driver: the server plays the bots' turns and stands in for absent humans.

After every change (``poke``) the driver looks at the table: when a bot, or a
stand-in for a human whose grace ran out, is to act, it waits ``BOT_PAUSE``
seconds, computes the move in the search pool (``searches.py``: worker processes,
so a slow bot never stalls the event loop or other tables) and makes it through
``moving.apply_move`` with the version it read, like any client (``take_turn``;
``playbots`` plays the same turns through ``play_pending``). The driver hears of
changes, deadlines, sockets arriving and players going away as events
(``events``), subscribed when the app starts (``TablesConfig.ready``). If a
human or another process moved first the move is refused and the driver simply
looks again. Nothing lives only here: after a restart ``resume_all`` finds every
game being played in the database.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
from collections.abc import Callable
from datetime import datetime
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings

from cardtable.tables.authority import clocks, presence, state
from cardtable.tables.autoplay import ending, searches, turns
from cardtable.tables.autoplay.turns import Job, choose, next_job, play_pending, take_turn, think_time
from cardtable.tables.dbthreads import db_call
from cardtable.tables.events import DeadlineSet, SeatAway, ServerStopping, TableChanged, TableOpened

log = logging.getLogger(__name__)
# Spent grace timers are dropped once the list reaches this length (and twice what was kept).
_PRUNE_AT = 64

# The turns themselves live in turns.py; these names stay importable from here.
__all__ = ["Job", "choose", "driver", "next_job", "play_pending", "take_turn", "think_time"]


class BotDriver:
    """Schedules bot turns and grace takeovers on the server's event loop."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tasks: dict[str, asyncio.Task] = {}
        # Tables changed while their task ran: the newest committed snapshot of a
        # move to look at, or None when some change carried none (read the table).
        self.again: dict[str, state.Snapshot | None] = {}
        self.timers: list[asyncio.TimerHandle] = []
        self._prune_at = _PRUNE_AT  # the timers' length at which the spent ones are dropped
        self.resuming: asyncio.Task | None = None
        self.graces: set[asyncio.Task] = set()
        # The turn clock: each watched table's deadline and the timer set for it.
        self.deadlines: dict[str, tuple[datetime, asyncio.TimerHandle]] = {}
        self.sweeper: asyncio.TimerHandle | None = None
        self.stopping = False

    def ensure_started(self) -> None:
        """Bind to the running loop and resume every game, once per loop (server start)."""
        loop = asyncio.get_running_loop()
        if self.loop is loop:
            return
        self.reset()
        self.loop, self.stopping = loop, False
        searches.warm()
        self.resuming = loop.create_task(self.resume_all(), context=contextvars.Context())
        self._schedule_sweep()

    async def stop(self, timeout: float) -> None:
        """Let the moves being made finish (``timeout`` seconds at most), start no other, then reset."""
        self.stopping = True
        busy = [t for t in [*self.tasks.values(), *self.graces] if not t.done()]
        if busy:
            await asyncio.wait(busy, timeout=timeout)
        self.reset()

    def reset(self) -> None:
        """Forget every scheduled turn and timer (a process stopping, or a test simulating it)."""
        extra = [self.resuming] if self.resuming is not None else []
        if self.sweeper is not None:
            self.sweeper.cancel()
        for task in [*self.tasks.values(), *self.graces, *extra]:
            task.cancel()
        for timer in [*self.timers, *(handle for _, handle in self.deadlines.values())]:
            timer.cancel()
        self.tasks, self.again, self.timers, self.graces, self.deadlines = {}, {}, [], set(), {}
        self._prune_at = _PRUNE_AT
        self.loop = self.resuming = self.sweeper = None

    async def resume_all(self) -> None:
        """Resume every game in the database: bots' turns and running graces."""
        self.loop = asyncio.get_running_loop()
        playing, graces = await database_sync_to_async(presence.recover)()
        served, deadlines = await database_sync_to_async(turns.resumable)(playing)
        for table_id in served:  # a table only people play has no turn of the server's
            self._poke(table_id)
        for table_id, deadline in deadlines:
            self.arm(table_id, deadline)
        for table_id, index, delay in graces:
            self.schedule_grace(table_id, index, delay)

    def on_table_changed(self, event: TableChanged) -> None:
        """A committed change: look at the table (with the snapshot a move carries)."""
        self.poke(event.table_id, event.snapshot)

    def on_table_opened(self, event: TableOpened) -> None:
        """A socket arrived: a table whose bots were paused plays on."""
        self.poke(event.table_id, event.snapshot)

    def on_deadline(self, event: DeadlineSet) -> None:
        """A clocked table's deadline: watch it (from any thread)."""
        self.watch(event.table_id, event.deadline)

    def on_seat_away(self, event: SeatAway) -> None:
        """A seated player's last socket went: check after the grace whether a stand-in plays."""
        self.schedule_grace(event.table_id, event.seat, event.grace)

    async def on_stopping(self, event: ServerStopping) -> None:
        """The server is stopping: let the moves being made finish, then start no other."""
        await self.stop(event.timeout)

    def poke(self, table_id: str, change: state.Snapshot | None = None) -> None:
        """Look at a table soon (thread-safe; a no-op when no loop runs in this process).

        After a move the driver looks at the snapshot the move committed
        (``change``, carried by its ``TableChanged``), which is exact about who plays each seat:
        no look at all when it shows no bot and no stand-in
        (``state.seated_by_people``), and no query for the turns when it does
        (``turns.server_turns``). Every other change (a stand-in arriving, a seat
        taken) comes without a snapshot and is read from the database.
        """
        if change is not None and state.seated_by_people(change):
            return
        self._on_loop(self._poke, table_id, change)

    def _on_loop(self, call: Callable[..., None], *args: Any) -> None:
        """Run ``call(*args)`` on the driver's loop: now when on it, else soon (a no-op with no loop)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            if asyncio.get_running_loop() is loop:
                call(*args)
                return
        except RuntimeError:
            pass
        # A fresh context: the caller's (a sync_to_async thread) would make the
        # driver's own database calls look like a deadlock to asgiref.
        loop.call_soon_threadsafe(call, *args, context=contextvars.Context())

    def _poke(self, table_id: str, change: state.Snapshot | None = None) -> None:
        if self.stopping:
            return
        task = self.tasks.get(table_id)
        if task is not None and not task.done():
            known = self.again.get(table_id, change)
            if change is None or known is None:
                self.again[table_id] = None  # some change carried no snapshot: read the table
            elif change.version >= known.version:
                self.again[table_id] = change
            return
        self.again.pop(table_id, None)
        self.tasks[table_id] = asyncio.get_running_loop().create_task(
            self._drive(table_id, change), context=contextvars.Context()
        )

    def watch(self, table_id: str, deadline: datetime | None) -> None:
        """``arm`` from any thread (a no-op when no loop runs in this process)."""
        self._on_loop(self.arm, table_id, deadline)

    async def _read_deadline(self, table_id: str) -> None:
        self.arm(table_id, await database_sync_to_async(clocks.next_deadline)(table_id))

    def arm(self, table_id: str, deadline: datetime | None) -> None:
        """Act on the table's turn-clock ``deadline`` when it passes (``None``: stop watching).

        Called after every change this process makes and every change its
        connections hear of, so each process serving a table watches its
        deadline; ``turns.expire`` makes sure only one of them acts.
        """
        known = self.deadlines.get(table_id)
        if known is not None and known[0] == deadline:
            return
        if known is not None:
            known[1].cancel()
            del self.deadlines[table_id]
        if deadline is None or self.loop is None or self.loop.is_closed() or self.stopping:
            return
        delay = max(0.0, clocks.seconds_left(deadline) or 0.0)
        handle = self.loop.call_later(delay, self._deadline_due, table_id, context=contextvars.Context())
        self.deadlines[table_id] = (deadline, handle)

    def rearm_all(self) -> None:
        """Set every watched deadline's timer again by the clock's ``now`` (after the clock jumps)."""
        for table_id, (deadline, handle) in list(self.deadlines.items()):
            handle.cancel()
            del self.deadlines[table_id]
            self.arm(table_id, deadline)

    def _deadline_due(self, table_id: str) -> None:
        self.deadlines.pop(table_id, None)
        task = asyncio.get_running_loop().create_task(self._expire(table_id))
        self.graces.add(task)
        task.add_done_callback(self.graces.discard)

    async def _expire(self, table_id: str) -> None:
        try:
            moved = await turns.expire_soon(table_id)
        except Exception:
            log.exception("turn clock failed at table %s", table_id)
            return
        if not moved:  # met, moved on by another process, or paused: watch what the table holds now
            await self._read_deadline(table_id)

    def _schedule_sweep(self) -> None:
        """End tables nobody has been at for too long, every ``ABANDON_SWEEP`` seconds (a timer)."""
        if self.loop is None or self.loop.is_closed() or self.stopping:
            return
        context = contextvars.Context()
        self.sweeper = self.loop.call_later(settings.ABANDON_SWEEP, self._sweep_due, context=context)

    def _sweep_due(self) -> None:
        task = asyncio.get_running_loop().create_task(self._sweep())
        self.graces.add(task)  # kept until done, and awaited by stop()
        task.add_done_callback(self.graces.discard)

    async def _sweep(self) -> None:
        try:
            await db_call(ending.sweep)()
        except Exception:
            log.exception("the sweep for abandoned tables failed")
        self._schedule_sweep()

    async def _look(self, table_id: str, change: state.Snapshot | None) -> Job | None:
        """The bot turns pending at the table: from a move's committed snapshot, else read (``next_job``)."""
        if change is None or change.match is None:
            self.again.pop(table_id, None)  # this read sees every change so far
            return await database_sync_to_async(next_job)(table_id)
        seats = turns.server_turns(change)
        if not seats:
            return None
        match_id = change.match[0]
        seed = turns.known_seed(match_id)
        if seed is None:
            seed = await database_sync_to_async(turns.match_seed)(match_id)
        return Job(change.version, change.game, change.state_json, seed, seats)

    async def _drive(self, table_id: str, change: state.Snapshot | None = None) -> None:
        loop = asyncio.get_running_loop()
        while True:
            job = await self._look(table_id, change)
            # Nobody here: the bots wait (no moves, no CPU) until someone connects and pokes the table.
            if job is not None and not await database_sync_to_async(presence.anyone_here)(table_id):
                return
            if job is None:
                if table_id in self.again:
                    change = self.again.pop(table_id)
                    continue
                return
            await asyncio.sleep(settings.BOT_PAUSE)
            # As ``play_pending``, with the bot's thinking off the event loop.
            for seat, level, by in job.seats:
                if self.stopping:  # the process is stopping: no new move (shutdown.drain)
                    return
                try:
                    started, think = loop.time(), think_time(level)
                    move = await job.search(seat, level)
                    await asyncio.sleep(max(0.0, started + think - loop.time()))  # never sooner
                    await database_sync_to_async(take_turn)(table_id, job, seat, by, move)
                except Exception:
                    log.exception("bot failed at table %s", table_id)
                    return
            # The bots' own moves poked the driver with their snapshots (or a refusal: read).
            change = self.again.pop(table_id, None)

    def schedule_grace(self, table_id: str, index: int, delay: float) -> None:
        """Check after ``delay`` seconds whether a bot should stand in for an absent human."""
        if self.loop is None or self.loop.is_closed():
            return
        if len(self.timers) >= self._prune_at:
            # Now and then, not on every call: a restart schedules a grace for every seat at once.
            now = self.loop.time()
            self.timers = [t for t in self.timers if not t.cancelled() and t.when() > now]
            self._prune_at = 2 * len(self.timers) + _PRUNE_AT
        self.timers.append(
            self.loop.call_later(delay, self._grace_due, table_id, index, context=contextvars.Context())
        )

    def _grace_due(self, table_id: str, index: int) -> None:
        task = asyncio.get_running_loop().create_task(self._grace(table_id, index))
        self.graces.add(task)  # keep a reference until it is done
        task.add_done_callback(self.graces.discard)

    async def _grace(self, table_id: str, index: int) -> None:
        if await database_sync_to_async(presence.grace_expired)(table_id, index):
            self._poke(table_id)


driver = BotDriver()
