"""The turn clock: a table's deadline, kept in the database, and what happens when it passes.

A clocked table (``Table.clock`` seconds per turn) stores ``Table.deadline``,
restarted by every change of its running game (``restart``, from
``services._changed``). Every process watches the deadlines of the tables it
serves (``bots.BotDriver``), so a deadline survives a restart and holds across
processes; when one passes, ``expire`` takes the table's row lock, checks the
deadline again and moves for each seat still to act as a stand-in bot would,
through ``services.apply_locked``. The lock and the re-check make exactly one
process act on one deadline: the moves restart the clock, so any other
process that wakes for the same deadline finds it in the future and does
nothing.

The late moves are computed under the lock (a stand-in thinks at most
``BOT_NORMAL_SECONDS`` at the default level): a human move racing them waits for
the lock, then is refused as ``not_your_turn`` or ``stale_version``.

Two timeouts in a row make a seat away (``Seat.stand_in``): the stand-in bot
plays on until the human moves or comes back.

``now`` is the one source of time here, so tests can move it forward instead
of sleeping.
"""

from __future__ import annotations

from datetime import datetime, timedelta
from typing import TYPE_CHECKING

from django.conf import settings
from django.db.models import Max
from django.utils import timezone

from cardtable.tables.errors import TableError

if TYPE_CHECKING:
    from cardtable.tables.models import Table

MIN_CLOCK, MAX_CLOCK = 5, 300
# Timeouts in a row after which a seat counts as away.
AWAY_AFTER = 2


def now() -> datetime:
    """The time the turn clock reads (tests replace it to let time pass at once)."""
    return timezone.now()


def check_clock(value: object) -> int:
    """Return the clock's seconds per turn (0: no clock), or raise ``bad_options``."""
    if value is None:
        return 0
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or not (value == 0 or MIN_CLOCK <= value <= MAX_CLOCK)
    ):
        raise TableError(
            "bad_options", f"clock is 0 (no clock) or whole seconds from {MIN_CLOCK} to {MAX_CLOCK}"
        )
    return value


def restart(table: Table, keep: bool = False) -> None:
    """Set the deadline for the table's new state (the caller saves the row).

    A running game on a clocked table gets ``clock`` seconds from now, unless
    ``keep`` and a deadline already runs; anything else has no deadline.
    """
    if table.clock and table.status == "playing" and not table.ended:
        if not (keep and table.deadline is not None):
            table.deadline = now() + timedelta(seconds=table.clock)
    else:
        table.deadline = None


def seconds_left(deadline: datetime | None) -> float | None:
    """Seconds until ``deadline`` by this clock (negative once passed), or ``None`` without one."""
    return None if deadline is None else (deadline - now()).total_seconds()


def expire(table_id: str) -> list[int]:
    """Act on a passed deadline: move for every late seat; return the seats moved for.

    Does nothing (returns ``[]``) when the deadline has not passed, has been
    met, or the table is paused because nobody is connected (the clock then
    stops: the deadline is cleared, and restarts when someone connects).
    """
    from cardtable.tables import presence, services
    from cardtable.tables.bots import Job
    from cardtable.tables.models import Match, MoveRecord, Table
    from games import get_game

    with services.locked_table(table_id) as table:
        if table.status != Table.PLAYING or table.deadline is None or table.deadline > now():
            return []
        if not presence.anyone_here(table_id):
            table.deadline = None
            table.save(update_fields=["deadline"])
            return []
        game = get_game(table.game)
        state = game.from_json(table.state)
        match = Match.objects.annotate(last_seq=Max("moves__seq")).get(table=table, number=table.game_number)
        late = list(game.to_act(state))
        table.last_timeout = late  # saved with each timeout move (services.apply_locked)
        for index in late:
            if table.status != Table.PLAYING or index not in game.to_act(state):
                continue
            # The bots' own turn (bots.Job): the same move a stand-in would make at this version.
            job = Job(table.version, table.game, game.to_json(state), match.seed or 0, [])
            move = job.choose(index, settings.STAND_IN_LEVEL)
            seat = table.seats.get(index=index)
            if seat.player_id is not None and not seat.stand_in:
                seat.timeouts += 1
                seat.stand_in = seat.timeouts >= AWAY_AFTER  # away: the stand-in plays on
                seat.save(update_fields=["timeouts", "stand_in"])
            services.apply_locked(table, game, state, match, index, move, MoveRecord.TIMEOUT)
        return late


def resume(table_id: str) -> datetime | None:
    """Someone connected: restart the clock of a game it stopped for (paused with nobody here).

    Returns the table's deadline (``None`` without one), for this process to watch.
    """
    from cardtable.tables.models import Table

    rows = Table.objects.filter(pk=table_id, status=Table.PLAYING, clock__gt=0, ended="")
    table = rows.only("clock", "deadline").first()
    if table is None:
        return None
    if table.deadline is None:
        deadline = now() + timedelta(seconds=table.clock)
        if rows.filter(deadline__isnull=True).update(deadline=deadline):
            return deadline
        table.refresh_from_db(fields=["deadline"])
    return table.deadline


def next_deadline(table_id: str) -> datetime | None:
    """The table's deadline, if its game runs on a clock."""
    from cardtable.tables.models import Table

    return (
        Table.objects.filter(pk=table_id, status=Table.PLAYING, clock__gt=0)
        .values_list("deadline", flat=True)
        .first()
    )
