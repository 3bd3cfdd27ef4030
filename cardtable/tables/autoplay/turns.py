"""The turns the server plays: bots, stand-ins for absent humans, and the turn clock's timeouts.

``next_job`` reads what bot turns a table has pending, ``Job.choose`` computes a
move (with the seed formula a replay repeats), and ``take_turn`` makes it through
``moving.apply_move``, the one path of every move. The driver (``bots.py``)
and ``playbots`` (``play_pending``) play the same turns; ``expire`` plays the
turn clock's timeouts: computed with no lock held, made under the table lock
(``clocks.py`` says how).
"""

from __future__ import annotations

import asyncio
import logging
import random
import time
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from django.conf import settings
from django.db.models import Max, Q

from cardtable.tables.authority import clocks, commit, moving, presence, state
from cardtable.tables.autoplay import searches, thinking
from cardtable.tables.dbthreads import db_call
from cardtable.tables.errors import TableError
from cardtable.tables.models import Match, MoveRecord, Seat, Table
from games import get_game

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
        """Compute ``seat``'s move at this version, in this thread (``playbots``)."""
        return choose(self.game, self.state, seat, level, self.turn_seed(seat))

    async def search(self, seat: int, level: str) -> dict[str, Any]:
        """``choose`` in the search pool, awaited (the driver)."""
        return await search(self.game, self.state, seat, level, self.turn_seed(seat))

    def search_and_wait(self, seat: int, level: str) -> dict[str, Any]:
        """``choose`` in the search pool, waited for in this thread (``expire``: no transaction open)."""
        return search_and_wait(self.game, self.state, seat, level, self.turn_seed(seat))


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


def resumable(table_ids: list[str]) -> tuple[list[str], list[tuple[str, datetime | None]]]:
    """Of these running tables: those where a bot or a stand-in plays a seat, and each clocked one's deadline.

    Two statements for them all: after a restart the driver resumes every table
    while every socket is coming back.
    """
    served = Seat.objects.filter(table_id__in=table_ids).filter(Q(stand_in=True) | ~Q(bot_level=""))
    clocked = Table.objects.filter(pk__in=table_ids, status=Table.PLAYING, clock__gt=0)
    return (
        sorted(set(served.values_list("table_id", flat=True))),
        list(clocked.values_list("pk", "deadline")),
    )


def server_turns(snap: state.Snapshot) -> list[tuple[int, str, str]]:
    """The turns ``next_job`` would find in a move's committed snapshot, read from it (no query).

    Who plays each seat in a snapshot a move committed is exact
    (``state.seated_by_people``), so this is what the table held at that version.
    """
    if snap.status != Table.PLAYING or snap.state is None:
        return []
    seats = snap.table["seats"]
    turns = []
    for index in get_game(snap.game).to_act(snap.state):
        if seats[index]["level"]:
            turns.append((index, seats[index]["level"], MoveRecord.BOT))
        elif seats[index]["stand_in"]:
            turns.append((index, settings.STAND_IN_LEVEL, MoveRecord.STAND_IN))
    return turns


# A match's seed never changes: read once per match in this process (never sent in a wake).
_SEEDS: OrderedDict[int, int] = OrderedDict()
_SEEDS_SIZE = 4096


def known_seed(match_id: int) -> int | None:
    """The match's seed if this process has read it already, else ``None`` (``match_seed`` reads it)."""
    return _SEEDS.get(match_id)


def match_seed(match_id: int) -> int:
    """Read a match's seed (one query) and keep it for ``known_seed``."""
    seed = Match.objects.filter(pk=match_id).values_list("seed", flat=True).first() or 0
    _SEEDS[match_id] = seed
    if len(_SEEDS) > _SEEDS_SIZE:
        _SEEDS.popitem(last=False)
    return seed


def budget(level: str) -> dict[str, Any]:
    """The site's think budget for a bot of ``level`` (``make_bot``'s keywords; none for the plain levels)."""
    if level not in settings.BOT_THINK_SECONDS:
        return {}
    return {"max_seconds": settings.BOT_THINK_SECONDS[level], "playout_scale": settings.BOT_PLAYOUT_SCALE}


def choose(game_id: str, state_json: dict, seat: int, level: str, seed: int) -> dict[str, Any]:
    """Compute a bot's move in this thread (``playbots``; the server searches in its pool).

    A bot that fails must not stall its table: the failure is logged and the
    seat plays a random legal move instead (``thinking.think``).
    """
    return thinking.think(game_id, state_json, seat, level, seed, budget(level), thinking.recipe(game_id))


def _random_instead(game_id: str, state_json: dict, seat: int, seed: int) -> dict[str, Any]:
    log.exception("the search pool failed at %s; playing a random move instead", game_id)
    game = get_game(game_id)
    return game.random_move(game.from_json(state_json), seat, random.Random(seed))


async def search(game_id: str, state_json: dict, seat: int, level: str, seed: int) -> dict[str, Any]:
    """``choose`` in this process's search pool (``searches.py``): the event loop waits for it, free."""
    try:
        made = thinking.recipe(game_id)  # a game staff added: the worker builds it from this
        return await searches.run(thinking.think, game_id, state_json, seat, level, seed, budget(level), made)
    except Exception:
        return _random_instead(game_id, state_json, seat, seed)


def search_and_wait(game_id: str, state_json: dict, seat: int, level: str, seed: int) -> dict[str, Any]:
    """``choose`` in the search pool, waited for in this (worker) thread."""
    try:
        made = thinking.recipe(game_id)
        return searches.run_blocking(
            thinking.think, game_id, state_json, seat, level, seed, budget(level), made
        )
    except Exception:
        return _random_instead(game_id, state_json, seat, seed)


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


def pause(seconds: float) -> None:
    """Wait ``seconds`` in this thread: a timeout move's think time (tests read what is asked)."""
    time.sleep(seconds)


def take_turn(table_id: str, job: Job, seat: int, by: str, move: dict[str, Any]) -> bool:
    """Make a bot's computed move through ``moving.apply_move``, the one path of every move.

    Returns whether it was made. A refusal because the table moved on (``MOVED_ON``)
    returns ``False``: the caller looks at the table again. Any other refusal is a
    bot's bug and is raised.
    """
    try:
        moving.apply_move(table_id, move, job.version, seat=seat, by=by)
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


@dataclass
class Late:
    """A passed deadline's late seats, read at one version, and the moves computed for them.

    The moves are computed with no transaction open (``expire``): a search in the
    pool and the think time take seconds on a busy machine, and SQLite has one
    write lock for the whole database (docs/security.md, "A socket closed with an
    internal error under load"). ``play_late`` then makes them under the table's
    lock if the table is still at ``version`` with that deadline passed.
    """

    version: int
    deadline: datetime
    game: str
    state: dict
    seed: int
    seats: list[int]
    moves: list[tuple[int, dict[str, Any]]] = field(default_factory=list)

    def jobs(self) -> Iterator[tuple[int, Job]]:
        """Each late seat still to act with its stand-in's ``Job``; append its move before the next.

        The state after the moves appended so far is the next seat's (a simultaneous
        phase), as it was when every late seat was played under one lock.
        """
        game = get_game(self.game)
        state = game.from_json(self.state)
        for index in self.seats:
            if game.is_over(state) or index not in game.to_act(state):
                continue
            yield index, Job(self.version + len(self.moves), self.game, game.to_json(state), self.seed, [])
            game.apply(state, index, self.moves[-1][1])


def late_seats(table_id: str) -> Late | None:
    """Read, with no lock, whether the table's deadline has passed with seats to act: their ``Late``.

    ``None`` when there is nothing to do: no deadline, not passed, or nobody is
    connected (then the clock stops: ``stop_clock``).
    """
    table = Table.objects.filter(pk=table_id).first()
    if table is None or not _overdue(table):
        return None
    if not presence.anyone_here(table_id):
        stop_clock(table_id)
        return None
    game = get_game(table.game)
    seed = Match.objects.filter(table=table, number=table.game_number).values_list("seed", flat=True).first()
    seats = list(game.to_act(game.from_json(table.state)))
    return Late(table.version, table.deadline, table.game, table.state, seed or 0, seats)


def _overdue(table: Table) -> bool:
    """Whether the table's game runs and its deadline has passed."""
    return table.status == Table.PLAYING and table.deadline is not None and table.deadline <= clocks.now()


def stop_clock(table_id: str) -> None:
    """Clear a passed deadline of a table nobody is connected to (it restarts when someone connects)."""
    with commit.locked_table(table_id) as table:
        if _overdue(table) and not presence.anyone_here(table_id):
            table.deadline = None
            table.save(update_fields=["deadline"])


def play_late(table_id: str, late: Late) -> list[int]:
    """Make ``late``'s moves under the table's lock; return the seats moved for (``[]``: none made).

    Nothing is made when the table moved on meanwhile (another version, another
    deadline: a seat moved in time, or another process acted first) or nobody is
    connected any more.
    """
    with commit.locked_table(table_id) as table:
        if not _overdue(table) or table.version != late.version or table.deadline != late.deadline:
            return []
        if not presence.anyone_here(table_id):
            table.deadline = None
            table.save(update_fields=["deadline"])
            return []
        game = get_game(table.game)
        state = game.from_json(table.state)
        match = Match.objects.annotate(last_seq=Max("moves__seq")).get(table=table, number=table.game_number)
        table.last_timeout = late.seats  # saved with each timeout move (moving.apply_locked)
        for index, move in late.moves:
            seat = table.seats.get(index=index)
            if seat.player_id is not None and not seat.stand_in:
                seat.timeouts += 1
                seat.stand_in = seat.timeouts >= clocks.AWAY_AFTER  # away: the stand-in plays on
                seat.save(update_fields=["timeouts", "stand_in"])
            moving.apply_locked(table, game, state, match, index, move, MoveRecord.TIMEOUT)
        return late.seats


def expire(table_id: str) -> list[int]:
    """Act on a passed deadline: move for every late seat; return the seats moved for.

    Does nothing (returns ``[]``) when the deadline has not passed, has been
    met, or the table is paused because nobody is connected (the clock then
    stops: the deadline is cleared, and restarts when someone connects).
    Each late move takes at least the stand-in level's think time
    (``think_time``), as a stand-in's answer would; the moves are searched and
    waited for in this thread with no transaction open, then made together under
    the table's lock (``play_late``). The driver does the same without holding a
    thread (``expire_soon``).
    """
    late = late_seats(table_id)
    if late is None:
        return []
    for index, job in late.jobs():
        # The bots' own turn (bots.Job): the same move a stand-in would make at this version.
        started, think = time.monotonic(), think_time(settings.STAND_IN_LEVEL)
        move = job.search_and_wait(index, settings.STAND_IN_LEVEL)
        # As the bots' answers (think_time): how long the move took must not tell how many it had.
        pause(max(0.0, started + think - time.monotonic()))
        late.moves.append((index, move))
    return play_late(table_id, late)


async def expire_soon(table_id: str) -> list[int]:
    """``expire`` for the driver: the search awaited in the pool and the think time slept on the loop,
    so no database thread waits for either; only the reads and ``play_late`` take one."""
    late = await db_call(late_seats)(table_id)
    if late is None:
        return []
    loop = asyncio.get_running_loop()
    for index, job in late.jobs():
        started, think = loop.time(), think_time(settings.STAND_IN_LEVEL)
        move = await job.search(index, settings.STAND_IN_LEVEL)
        await asyncio.sleep(max(0.0, started + think - loop.time()))
        late.moves.append((index, move))
    return await db_call(play_late)(table_id, late)
