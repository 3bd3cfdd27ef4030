"""The bot driver: the server plays the bots' turns and stands in for absent humans.

After every change (``poke``) the driver looks at the table: when a bot, or a
stand-in for a human whose grace ran out, is to act, it waits ``BOT_PAUSE``
seconds, computes the move in a worker thread (so a slow bot never stalls the
event loop or other tables) and makes it through ``services.apply_move`` with the
version it read, like any client (``take_turn``; ``playbots`` plays the same turns
through ``play_pending``). The driver hears of changes as a listener of
``broadcast.on_table_changed``, registered when the app starts. If a human or another process moved first the
move is refused and the driver simply looks again. Nothing lives only here: after
a restart ``resume_all`` finds every game being played in the database.
"""

from __future__ import annotations

import asyncio
import contextvars
import logging
import random
from dataclasses import dataclass
from typing import Any

from channels.db import database_sync_to_async
from django.conf import settings
from django.db.models import Q

from cardtable.tables import presence, services
from cardtable.tables.errors import TableError
from cardtable.tables.models import Match, MoveRecord, Seat, Table
from games import get_game
from games.bots import make_bot

log = logging.getLogger(__name__)


# A refusal that says the table moved on under the bot (a person or another
# process moved first, a human came back): the driver just looks again.
MOVED_ON = frozenset({"stale_version", "not_your_turn", "game_not_running"})


@dataclass
class Job:
    """Bot turns to take at one version of a table."""

    version: int
    game: str
    state: dict
    seed: int
    seats: list[tuple[int, str, str]]  # (seat, bot level, by)

    def turn_seed(self, seat: int) -> int:
        """Return the seed of ``seat``'s bot at this version: a replay of the table repeats its moves."""
        return (self.seed * 1_000_003 + self.version * 31 + seat) & 0x7FFFFFFF

    def choose(self, seat: int, level: str) -> dict[str, Any]:
        """Compute ``seat``'s move at this version (slow: the driver runs it in a worker thread)."""
        return choose(self.game, self.state, seat, level, self.turn_seed(seat))


def next_job(table_id: str) -> Job | None:
    """Return the bot turns pending at a table, or ``None`` when no bot is to act."""
    # Most tables have no bot and no stand-in: one small query, no state to parse.
    if not Seat.objects.filter(table_id=table_id).filter(Q(stand_in=True) | ~Q(bot_level="")).exists():
        return None
    table = Table.objects.filter(pk=table_id, status=Table.PLAYING).first()
    if table is None:
        return None
    game = get_game(table.game)
    to_act = game.to_act(game.from_json(table.state))
    seats = {s.index: s for s in table.seats.filter(index__in=to_act)}
    turns = []
    for index in to_act:
        seat = seats[index]
        if seat.bot_level:
            turns.append((index, seat.bot_level, MoveRecord.BOT))
        elif seat.stand_in:
            turns.append((index, settings.STAND_IN_LEVEL, MoveRecord.STAND_IN))
    if not turns:
        return None
    seed = Match.objects.filter(table=table, number=table.game_number).values_list("seed", flat=True).first()
    return Job(table.version, table.game, table.state, seed or 0, turns)


def choose(game_id: str, state_json: dict, seat: int, level: str, seed: int) -> dict[str, Any]:
    """Compute a bot's move (runs in a worker thread).

    A bot that fails must not stall its table: the failure is logged and the
    seat plays a random legal move instead.
    """
    game = get_game(game_id)
    state = game.from_json(state_json)
    budget: dict[str, Any] = {}
    if level in settings.BOT_THINK_SECONDS:
        budget = {
            "max_seconds": settings.BOT_THINK_SECONDS[level],
            "playout_scale": settings.BOT_PLAYOUT_SCALE,
        }
    try:
        return make_bot(level, game, seed, **budget).choose(state, seat)
    except Exception:
        log.exception("%s bot failed in %s; playing a random move instead", level, game_id)
        return game.random_move(state, seat, random.Random(seed))


_timing = random.SystemRandom()  # the think time must not be predictable either


def think_time(level: str) -> float:
    """Seconds a bot of ``level`` takes to answer, drawn the same way whatever the position.

    A search bot with one legal move would answer at once and with several would
    search for up to its budget, so its answer time told how many moves it had
    (docs/security.md S6). Every answer now takes at least this long: the level's
    whole think budget and up to a quarter more, at random.
    """
    budget = settings.BOT_THINK_SECONDS.get(level, 0.0)
    return budget * _timing.uniform(1.0, 1.25)


def take_turn(table_id: str, job: Job, seat: int, by: str, move: dict[str, Any]) -> bool:
    """Make a bot's computed move through ``services.apply_move``, the one path of every move.

    Returns whether it was made. A refusal because the table moved on (``MOVED_ON``)
    returns ``False``: the caller looks at the table again. Any other refusal is a
    bot's bug and is raised.
    """
    try:
        services.apply_move(table_id, move, job.version, seat=seat, by=by)
    except TableError as error:
        if error.code not in MOVED_ON:
            raise
        log.debug("bot move at %s refused: %s", table_id, error.code)
        return False
    return True


def play_pending(table_id: str) -> None:
    """Play every bot turn due at the table, in this thread, until none is (``playbots``).

    The same turns, seeds and moves as the driver, without its pause.
    """
    while (job := next_job(table_id)) is not None:
        for seat, level, by in job.seats:
            take_turn(table_id, job, seat, by, job.choose(seat, level))


class BotDriver:
    """Schedules bot turns and grace takeovers on the server's event loop."""

    def __init__(self) -> None:
        self.loop: asyncio.AbstractEventLoop | None = None
        self.tasks: dict[str, asyncio.Task] = {}
        self.again: set[str] = set()
        self.timers: list[asyncio.TimerHandle] = []
        self.resuming: asyncio.Task | None = None
        self.graces: set[asyncio.Task] = set()

    def ensure_started(self) -> None:
        """Bind to the running loop and resume every game, once per loop (server start)."""
        loop = asyncio.get_running_loop()
        if self.loop is loop:
            return
        self.reset()
        self.loop = loop
        self.resuming = loop.create_task(self.resume_all(), context=contextvars.Context())

    def reset(self) -> None:
        """Forget every scheduled turn and timer (a process stopping, or a test simulating it)."""
        for task in [*self.tasks.values(), *self.graces, *([self.resuming] if self.resuming else [])]:
            task.cancel()
        for timer in self.timers:
            timer.cancel()
        self.tasks, self.again, self.timers, self.graces = {}, set(), [], set()
        self.loop = self.resuming = None

    async def resume_all(self) -> None:
        """Resume every game in the database: bots' turns and running graces."""
        self.loop = asyncio.get_running_loop()
        playing, graces = await database_sync_to_async(presence.recover)()
        for table_id in playing:
            self._poke(table_id)
        for table_id, index, delay in graces:
            self.schedule_grace(table_id, index, delay)

    def poke(self, table_id: str) -> None:
        """Look at a table soon (thread-safe; a no-op when no loop runs in this process)."""
        loop = self.loop
        if loop is None or loop.is_closed():
            return
        try:
            if asyncio.get_running_loop() is loop:
                self._poke(table_id)
                return
        except RuntimeError:
            pass
        # A fresh context: the caller's (a sync_to_async thread) would make the
        # driver's own database calls look like a deadlock to asgiref.
        loop.call_soon_threadsafe(self._poke, table_id, context=contextvars.Context())

    def _poke(self, table_id: str) -> None:
        task = self.tasks.get(table_id)
        if task is not None and not task.done():
            self.again.add(table_id)
            return
        self.tasks[table_id] = asyncio.get_running_loop().create_task(
            self._drive(table_id), context=contextvars.Context()
        )

    async def _drive(self, table_id: str) -> None:
        loop = asyncio.get_running_loop()
        while True:
            self.again.discard(table_id)
            job = await database_sync_to_async(next_job)(table_id)
            if job is None:
                if table_id in self.again:
                    continue
                return
            await asyncio.sleep(settings.BOT_PAUSE)
            # As ``play_pending``, with the bot's thinking off the event loop.
            for seat, level, by in job.seats:
                try:
                    started, think = loop.time(), think_time(level)
                    move = await loop.run_in_executor(None, job.choose, seat, level)
                    await asyncio.sleep(max(0.0, started + think - loop.time()))  # never sooner
                    await database_sync_to_async(take_turn)(table_id, job, seat, by, move)
                except Exception:
                    log.exception("bot failed at table %s", table_id)
                    return

    def schedule_grace(self, table_id: str, index: int, delay: float) -> None:
        """Check after ``delay`` seconds whether a bot should stand in for an absent human."""
        if self.loop is None or self.loop.is_closed():
            return
        now = self.loop.time()
        self.timers = [t for t in self.timers if not t.cancelled() and t.when() > now]
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
