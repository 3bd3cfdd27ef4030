"""The lobby's list of tables, and the waiting tables that expire (docs/security.md S5).

``GET /api/tables/`` lists at most 100 waiting and playing tables that someone
is at (any live connection, a spectator's included): those with a player present
first, then the most recently changed. A waiting table nobody has been at for ``WAITING_TABLE_TTL`` seconds is
deleted, so tables made and left do not fill the list.
"""

from __future__ import annotations

import time
from datetime import timedelta

from django.conf import settings
from django.db.models import Exists, OuterRef, QuerySet
from django.utils import timezone

from cardtable.tables.authority import presence
from cardtable.tables.models import Connection, Player, Table

LISTED = 100
_EXPIRE_EVERY = 30.0  # seconds between expiry sweeps in one process
_last_expiry = 0.0


def listing() -> QuerySet[Table]:
    """The tables the lobby shows: only those someone is at (a table nobody is at has its bots
    paused and is no table to join or watch), players present first, then the most recently changed.
    """
    expire_idle(throttled=True)
    present = Exists(
        Connection.objects.filter(
            table_id=OuterRef("pk"),
            player__isnull=False,
            seen__gte=timezone.now() - timedelta(seconds=settings.CONNECTION_TTL),
        )
    )
    rows = Table.objects.filter(status__in=[Table.WAITING, Table.PLAYING], ended="")
    rows = rows.filter(presence.live_connection_to_table()).annotate(present=present)
    return rows.order_by("-present", "-updated").select_related("host")[:LISTED]


def expire_idle(throttled: bool = False) -> int:
    """Delete waiting tables nobody is at and nobody has joined or left for a while; return how many.

    ``throttled``: at most once every 30 seconds in this process (the lobby asks on every read).
    """
    global _last_expiry
    if throttled and time.monotonic() - _last_expiry < _EXPIRE_EVERY:
        return 0
    _last_expiry = time.monotonic()
    cutoff = timezone.now() - timedelta(seconds=settings.WAITING_TABLE_TTL)
    live = presence.live_connection_to_table()
    idle = Table.objects.filter(status=Table.WAITING, updated__lt=cutoff).exclude(live)
    deleted = 0
    for table_id in list(idle.values_list("pk", flat=True)[:1000]):
        # Checked again row by row: someone may have come in since the list was read.
        still = Table.objects.filter(pk=table_id, status=Table.WAITING, updated__lt=cutoff).exclude(live)
        if still.delete()[0]:
            deleted += 1
    return deleted


def open_tables(player: Player) -> int:
    """How many tables ``player`` hosts that are waiting or being played."""
    return Table.objects.filter(host=player, status__in=[Table.WAITING, Table.PLAYING]).count()
