"""A table's one transaction: the row locked, the version raised, the clock restarted, the wake after commit.

Every change to a table runs inside ``locked_table`` and ends with
``save_changed``; a move's snapshot is announced to this process's connections
and to the other processes once it has committed (``announce``).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager

from django.db import connection, transaction

from cardtable.tables.authority import clocks
from cardtable.tables.authority import state as state_builder
from cardtable.tables.errors import TableError
from cardtable.tables.events import DeadlineSet, TableChanged, emit
from cardtable.tables.models import Table

# SQLite has no row locks (select_for_update is a no-op there), so one process
# serialises its table transactions itself. PostgreSQL locks the table row.
sqlite_lock = threading.RLock()


@contextmanager
def locked_table(table_id: str) -> Iterator[Table]:
    """Yield the table row locked for update inside a transaction; raise if it does not exist."""
    guard = sqlite_lock if connection.vendor == "sqlite" else no_lock()
    with guard, transaction.atomic():
        try:
            # The host comes along (its name is in every state message); only the table row is locked.
            yield Table.objects.select_for_update(of=("self",)).select_related("host").get(pk=table_id)
        except Table.DoesNotExist:
            raise TableError("not_found", f"there is no table {table_id!r}") from None


@contextmanager
def no_lock() -> Iterator[None]:
    yield


def save_changed(
    table: Table,
    fields: list[str],
    *,
    keep_deadline: bool = False,
    clear_timeout: bool = True,
    match: tuple[int, int] | None = None,
) -> int:
    """Add one to the table's version, save, and wake everyone after commit.

    The turn clock restarts with every change of a running clocked game, except
    when ``keep_deadline``: a move in a simultaneous phase that leaves the others
    still to act, and a seat changing hands (leave, takeover), keep the deadline
    that runs, for it belongs to the turn, not to whoever holds the seat.
    ``last_timeout`` stays through the
    bots' moves that follow a timeout (so a client that skips versions still
    sees it) and is cleared by a human's move or any change to the seats.
    """
    table.version += 1
    clocks.restart(table, keep_deadline)
    if clear_timeout and "last_timeout" not in fields:
        table.last_timeout = []
    table.save(update_fields=[*set(fields), "deadline", "last_timeout", "version", "updated"])
    table_id, version, deadline = table.pk, table.version, table.deadline
    if match is None:
        transaction.on_commit(lambda: emit(TableChanged(table_id, version)))
    else:  # a move: its snapshot goes with the wake (one read of the seats here, none per process)
        seats, live = state_builder.seats_with_presence(table_id)
        snap = state_builder.build(table, seats, live, match)
        transaction.on_commit(lambda: announce(snap))
    if table.clock:
        transaction.on_commit(lambda: emit(DeadlineSet(table_id, deadline)))
    return version


def announce(snap: state_builder.Snapshot) -> None:
    """After a move's commit: this process's connections take ``snap`` as is; the wake carries it on."""
    state_builder.remember(snap)  # the next move on this version needs no read (apply_on_known)
    # The snapshot tells the subscribers (the bot driver) who plays each seat: no read needed.
    emit(TableChanged(snap.table_id, snap.version, snap))
