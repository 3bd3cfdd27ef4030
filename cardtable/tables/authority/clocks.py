"""The turn clock: a table's deadline, kept in the database, and what happens when it passes.

A clocked table (``Table.clock`` seconds per turn) stores ``Table.deadline``,
restarted by every move of its running game (``restart``, from
``commit.save_changed``), except a move in a simultaneous phase that leaves
others still to act. The deadline belongs to the turn: a seat changing hands
(``leave``, ``takeover``, a stand-in) keeps it. Every process watches the
deadlines of the tables it serves (the bot driver hears of each deadline as an
``events.DeadlineSet``), so a deadline survives a restart and holds across
processes; when one passes, ``turns.expire`` takes the table's row lock, checks
the deadline again and moves for each seat still to act as a stand-in bot
would, through ``moving.apply_locked``. The lock and the re-check make exactly one
process act on one deadline: the moves restart the clock, so any other
process that wakes for the same deadline finds it in the future and does
nothing.

The late moves are computed under the lock, each taking the stand-in level's
think time (``turns.think_time``: ``BOT_NORMAL_SECONDS`` to a quarter more at the
default level) whether the seat had one legal move or several: a human move
racing them waits for the lock, then is refused as ``not_your_turn`` or
``stale_version``.

Two timeouts in a row make a seat away (``Seat.stand_in``): the stand-in bot
plays on until the human moves or comes back.

``now`` is the one source of time here, so tests can move it forward instead
of sleeping.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from django.utils import timezone

from cardtable.tables.errors import TableError
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


def resume(table_id: str) -> datetime | None:
    """Someone connected: restart the clock of a game it stopped for (paused with nobody here).

    Returns the table's deadline (``None`` without one), for this process to watch.
    """
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
    return (
        Table.objects.filter(pk=table_id, status=Table.PLAYING, clock__gt=0)
        .values_list("deadline", flat=True)
        .first()
    )
