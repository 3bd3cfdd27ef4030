"""A new websocket's database work, in as few trips to a thread as it can be.

``identify`` and ``arrive`` are the consumer's connect in two calls (its player
and table, then its presence, clock, state and chat); ``PooledAuthMiddleware``
reads the session and the user before it.

Channels' ``AuthMiddleware`` reads the session (and the user) of every handshake
through ``database_sync_to_async``: on the single thread that every other
connection's database calls queue on. In a reconnect storm that queue held each
handshake for seconds before its consumer even started (docs/performance.md, "A
restart with everyone connected"). On PostgreSQL the same read runs on the
pool of ``dbthreads``, beside the others; on SQLite nothing changes.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from typing import Any

from channels.auth import AuthMiddleware, get_user
from channels.sessions import CookieMiddleware, SessionMiddleware
from django.db.models import QuerySet

from cardtable.tables.authority import chat, clocks, presence
from cardtable.tables.authority.compiled import EXAMPLE_TABLE, Compiled
from cardtable.tables.authority.state import Snapshot, snapshot
from cardtable.tables.dbthreads import db_call
from cardtable.tables.events import TableChanged, emit
from cardtable.tables.models import Player, Table
from cardtable.tables.players.identity import player_from_scope

_get_user = get_user.func  # Channels' own function, without its sync-thread wrapper


class PooledAuthMiddleware(AuthMiddleware):
    """Channels' ``AuthMiddleware``, whose read of the user goes through ``db_call``."""

    async def resolve_scope(self, scope: dict) -> None:
        """Resolve ``scope["user"]`` (the session is read in the same call)."""
        scope["user"]._wrapped = await db_call(_get_user)(scope)


def auth_stack(inner: Any) -> Any:
    """Channels' ``AuthMiddlewareStack`` (cookies, session, user) with ``PooledAuthMiddleware``."""
    return CookieMiddleware(SessionMiddleware(PooledAuthMiddleware(inner)))


def _table_ids(table_id: str) -> QuerySet[Table]:
    return Table.objects.filter(pk=table_id).only("pk").order_by()[:1]


# Read by every connect: compiled once per process (``authority/compiled.py``).
_TABLE_IDS = Compiled(_table_ids, EXAMPLE_TABLE)


def identify(scope: dict, table_id: str) -> tuple[Player | None, bool]:
    """A connecting socket's player (``None``: a spectator) and whether its table exists, in one call."""
    return player_from_scope(scope), bool(_TABLE_IDS.run(table_id))


@dataclass(frozen=True)
class Arrival:
    """What a new socket's connect reads and writes in one call: its presence, the clock, the state, chat."""

    since: datetime | None  # since when the player's seat was away (``presence.join``)
    deadline: datetime | None  # the table's turn clock, restarted if it was paused (``clocks.resume``)
    snapshot: Snapshot
    chat: list[dict]
    stood_in: dict | None  # the ``stood_in`` message for a returning player, if anything was played for them


def arrive(channel: str, table_id: str, player_id: int | None) -> Arrival:
    """Record the connection and read what the socket is sent first, in one call on one thread.

    One trip instead of five: under a reconnect storm each trip to a thread and
    back waits its turn on a busy machine, and the connect's time was mostly
    those waits (docs/performance.md, "A restart with everyone connected").
    The snapshot is read after the presence row is written, so the state shows
    this player connected.
    """
    joined = presence.join(channel, table_id, player_id, wake=False)
    snap = snapshot(table_id)
    deadline = snap.deadline
    if snap.clock:  # a clocked game stopped with nobody here starts again (rarely: read it again)
        deadline = clocks.resume(table_id)
        if deadline != snap.deadline:
            snap = snapshot(table_id)
    if joined is not None:
        # The seat shows connected again, to the others. The wake carries the table just read
        # (after the presence row): no process reads it again for this arrival, nor does the
        # bot driver of a table of people.
        emit(TableChanged(table_id, snap.version, snap, joined=channel))
    lines = chat.chat_history(table_id)
    since = joined.since if joined is not None else None
    summary = None
    if joined is not None and joined.since is not None and joined.played_for:
        summary = presence.stood_in(table_id, joined.seat, joined.since)
    return Arrival(since, deadline, snap, lines, summary)
