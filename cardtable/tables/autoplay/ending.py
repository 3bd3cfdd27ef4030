"""Tables that end: nobody has been at a table for too long, so it ends as abandoned.

A table records since when no websocket at all has been open there
(``Table.alone_since``, kept by ``presence``). The sweep (every
``ABANDON_SWEEP`` seconds, in every process: ending takes the table's row lock
and checks again, so two processes end a table once) ends an open table alone
for ``ABANDON_AFTER`` seconds, and a finished one alone for
``ABANDON_FINISHED_AFTER``. An unfinished game is closed and recorded as
abandoned (``Match.abandoned``, no result), so it counts in no statistics.
"""

from __future__ import annotations

from datetime import timedelta

from django.conf import settings
from django.db.models import Q
from django.utils import timezone

from cardtable.tables.authority import presence
from cardtable.tables.authority.commit import locked_table
from cardtable.tables.authority.staff import close
from cardtable.tables.models import Table


def sweep() -> list[str]:
    """End every table nobody has been at for too long; return their ids."""
    now = timezone.now()
    # Tables whose last connection went with a process that died never heard it leave.
    Table.objects.filter(alone_since__isnull=True, ended="").exclude(
        presence.live_connection_to_table()
    ).update(alone_since=now)
    due = Table.objects.filter(ended="").filter(
        Q(
            status__in=[Table.WAITING, Table.PLAYING],
            alone_since__lt=now - timedelta(seconds=settings.ABANDON_AFTER),
        )
        | Q(status=Table.FINISHED, alone_since__lt=now - timedelta(seconds=settings.ABANDON_FINISHED_AFTER))
    )
    ended = []
    for table_id in due.values_list("pk", flat=True):
        if end_if_alone(table_id):
            ended.append(table_id)
    return ended


def end_if_alone(table_id: str) -> bool:
    """End one table as abandoned if it is still alone and open (under its lock); return whether it did."""
    with locked_table(table_id) as table:
        if table.ended or table.alone_since is None or presence.anyone_here(table_id):
            return False
        close(table, Table.ABANDONED)
        return True
