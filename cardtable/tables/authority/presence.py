"""Who is connected, across server processes: one ``Connection`` row per open websocket.

A row's ``seen`` is refreshed by the consumer's heartbeat; a row older than
``CONNECTION_TTL`` belongs to a process that died and no longer counts. When a
seated human's last connection goes, the seat records ``away_since``; once the
grace has run out (``grace_expired``) a bot stands in until they return.
"""

from __future__ import annotations

import os
import secrets
import socket
from dataclasses import dataclass
from datetime import datetime, timedelta

from django.conf import settings
from django.db import transaction
from django.db.models import Exists, F, OuterRef, QuerySet
from django.utils import timezone

from cardtable.tables.authority.compiled import (
    EXAMPLE_ID,
    EXAMPLE_TABLE,
    EXAMPLE_TIME,
    Compiled,
    CompiledWrite,
)
from cardtable.tables.events import TableChanged, emit
from cardtable.tables.models import Connection, MoveRecord, Seat, Table

_BOOT = secrets.token_hex(4)  # tells this run of a process from an earlier one with the same pid


def _proc_stat(pid: int) -> tuple[str, str] | None:
    """Process ``pid``'s state letter and start time (clock ticks after boot) from ``/proc``.

    ``None`` when the pid runs nothing; raises ``OSError`` when ``/proc`` cannot
    tell (no such file system, or the entry is not ours to read).
    """
    try:
        with open(f"/proc/{pid}/stat", encoding="utf-8", errors="replace") as stat:
            text = stat.read()
    except FileNotFoundError:
        if not os.path.exists("/proc/self/stat"):
            raise  # no /proc here: it cannot tell
        return None
    # "pid (name) state ppid ...": the name may hold spaces and parentheses, so split after its last ")".
    fields = text.rpartition(")")[2].split()
    return fields[0], fields[19]  # fields 3 and 22 of proc(5)


_STARTS: dict[int, str] = {}  # this process's start time, by pid (a forked child has its own)


def process_id() -> str:
    """This server process's name in presence rows: ``host:pid:boot:start``.

    ``start`` is when the process started (``/proc``; empty where there is no
    ``/proc``), so a pid reused by another process later is not taken for this one.
    """
    pid = os.getpid()
    if pid not in _STARTS:
        try:
            _STARTS[pid] = (_proc_stat(pid) or ("", ""))[1]
        except OSError:
            _STARTS[pid] = ""
    return f"{socket.gethostname()}:{pid}:{_BOOT}:{_STARTS[pid]}"


def process_is_dead(process: str) -> bool:
    """Whether the process that wrote a presence row is known to be gone.

    Only a process on this host can be known dead: one with this process's pid
    but another boot (a restart that got the same pid, as in a container), a
    pid that no longer runs, a zombie (it has exited; only its parent has not
    collected it yet), or a pid that now names a process started at another
    time than the row's. A process elsewhere, or a row without a process, is
    left to ``CONNECTION_TTL``.
    """
    parts = process.split(":")
    host, pid_text, boot = [*parts, "", ""][:3]
    started = parts[3] if len(parts) > 3 else ""  # rows written before the start time was named have none
    if host != socket.gethostname() or not pid_text.isdigit() or not boot:
        return False
    pid = int(pid_text)
    if pid == os.getpid():
        return boot != _BOOT
    try:
        stat = _proc_stat(pid)
    except OSError:
        return _no_such_pid(pid)
    if stat is None:
        return True
    state, start = stat
    # Z: exited, not yet collected; X: being removed.
    return state in ("Z", "X") or (started != "" and start != started)


def _no_such_pid(pid: int) -> bool:
    """Without ``/proc``: whether nothing runs as ``pid`` (a zombie cannot be told from a live process)."""
    try:
        os.kill(pid, 0)  # signal 0: only asks whether the pid exists
    except ProcessLookupError:
        return True
    except OSError:  # it exists under another user
        return False
    return False


def _ttl() -> timedelta:
    return timedelta(seconds=settings.CONNECTION_TTL)


def _live(table_id: str):
    return Connection.objects.filter(table_id=table_id, seen__gte=timezone.now() - _ttl())


def live_since() -> datetime:
    """The oldest ``seen`` of a connection that still counts as live (``CONNECTION_TTL`` ago)."""
    return timezone.now() - _ttl()


def live_connection(since: datetime | None = None) -> Exists:
    """An annotation for a ``Seat`` query: whether the seat's player has a connection seen since ``since``
    (by default ``live_since()``)."""
    since = since or live_since()
    mine = Connection.objects.filter(table_id=OuterRef("table_id"), player_id=OuterRef("player_id"))
    return Exists(mine.filter(seen__gte=since))


def anyone_here(table_id: str) -> bool:
    """Whether any live websocket (a player's or a spectator's) is open at the table."""
    return _live(table_id).exists()


def live_connection_to_table() -> Exists:
    """An annotation for a ``Table`` query: whether anyone has a live connection to it."""
    return Exists(Connection.objects.filter(table_id=OuterRef("pk"), seen__gte=timezone.now() - _ttl()))


def live_players(table_id: str) -> set[int]:
    """Return the ids of players with a live connection to the table."""
    return set(_live(table_id).exclude(player=None).values_list("player_id", flat=True))


def _reseat(table_id: str) -> None:
    """Count a change of who plays a seat that keeps the version (``Table.seating``).

    Called in the change's transaction before the seat row is written, so the
    table row is locked first, as the moves lock it (no deadlock with a move
    that also writes a seat), and the count commits with the change or not at
    all: a move guarded on the old count then writes nothing.
    """
    Table.objects.filter(pk=table_id).update(seating=F("seating") + 1)


def _wake(table_id: str, joined: str | None = None, version: int | None = None) -> None:
    # Presence does not change the version: the same version is sent again. Only the
    # version is read (when the caller has not): the whole row (its state) costs more.
    if version is None:
        version = Table.objects.filter(pk=table_id).values_list("version", flat=True).first()
    if version is not None:
        transaction.on_commit(lambda: emit(TableChanged(table_id, version, joined=joined)))


@dataclass(frozen=True)
class Joined:
    """A seated player's connection recorded: since when their seat was away, and whether anything may
    have been played for it meanwhile (a stand-in or the turn clock)."""

    seat: int
    since: datetime | None
    played_for: bool


def _seat_of(table_id: str, player_id: int) -> QuerySet[Seat]:
    return (
        Seat.objects.filter(table_id=table_id, player_id=player_id)
        .select_related("table")
        .only("index", "away_since", "stand_in", "timeouts", "table__version", "table__alone_since")
        .order_by("index")[:1]
    )


# Read by every connect of a seated player: compiled once per process (``compiled.py``).
_SEAT_OF = Compiled(_seat_of, EXAMPLE_TABLE, EXAMPLE_ID)
# Written by every connect (after a restart, all three): compiled once per process too.
_CONNECTED = CompiledWrite.insert(
    Connection,
    ("channel", "table_id", "player_id", "seen", "process"),
    "\x00an example channel\x00",
    EXAMPLE_TABLE,
    EXAMPLE_ID,
    EXAMPLE_TIME,
    "\x00an example process\x00",
)
_NOT_ALONE = CompiledWrite.update(
    lambda table_id: Table.objects.filter(pk=table_id, alone_since__isnull=False),
    {"alone_since": None},
    EXAMPLE_TABLE,
)
_SEAT_BACK = CompiledWrite.update(
    lambda seat_id: Seat.objects.filter(pk=seat_id),
    {"away_since": None, "stand_in": False, "timeouts": 0},
    EXAMPLE_ID,
)


def join(channel: str, table_id: str, player_id: int | None, wake: bool = True) -> Joined | None:
    """Record a new connection; a returning human takes their seat back from the stand-in.

    Returns the player's seat, since when it had been away (``None`` if it was
    not) and whether a stand-in or the clock could have played for it, so the
    consumer can show them what was played meanwhile; ``None`` for a spectator.
    A seated player's arrival wakes the table (it shows them connected again)
    unless ``wake`` is false: then the caller wakes it, with the table it reads next.
    """
    with transaction.atomic():
        # A new name each socket (``fanout.connection_name``): an insert, with no look first.
        _CONNECTED.run(channel, table_id, player_id, timezone.now(), process_id())
        seat = None
        if player_id is not None:
            # The seat, the table's version and whether it was empty, in one statement.
            seat = next(iter(_SEAT_OF.run(table_id, player_id)), None)
        if seat is None or seat.table.alone_since is not None:
            _NOT_ALONE.run(table_id)
        if seat is None:
            return None
        since = seat.away_since
        played_for = seat.stand_in or seat.timeouts > 0
        if played_for:
            _reseat(table_id)  # the stand-in gives the seat back (or never takes it)
        if since is not None or played_for:
            # Back before any stand-in: who plays the seat has not changed, so ``seating``
            # stays and the table row is not locked (after a restart every seat comes here).
            _SEAT_BACK.run(seat.pk)
        if wake:  # the seat shows connected again, to the others
            _wake(table_id, joined=channel, version=seat.table.version)
        return Joined(seat.index, since, played_for)


def stood_in(table_id: str, seat: int, since: datetime) -> dict | None:
    """The ``stood_in`` message for a returning player: the moves made for their ``seat`` since ``since``.

    The moves are their own seat's, so nothing hidden from them is in it.
    ``None`` when nothing was played for them.
    """
    rows = MoveRecord.objects.filter(
        match__table_id=table_id,
        seat=seat,
        by__in=[MoveRecord.STAND_IN, MoveRecord.TIMEOUT],
        at__gte=since,
    ).order_by("match__number", "seq")
    moves = [{"move": r.move, "by": r.by, "at": r.at.isoformat()} for r in rows[:200]]
    if not moves:
        return None
    return {"type": "stood_in", "seat": seat, "since": since.isoformat(), "moves": moves}


def heartbeat(channel: str) -> None:
    """Mark a connection as still open."""
    Connection.objects.filter(channel=channel).update(seen=timezone.now())


_BATCH = 500  # under SQLite's oldest limit on parameters per statement (999)


def heartbeat_many(channels: list[str]) -> None:
    """Mark many connections as still open: one UPDATE per 500, one commit."""
    now = timezone.now()
    with transaction.atomic():
        for start in range(0, len(channels), _BATCH):
            Connection.objects.filter(channel__in=channels[start : start + _BATCH]).update(seen=now)


def leave(channel: str) -> tuple[str, int] | None:
    """Forget a connection; return (table, seat) when a seated human now has none left."""
    with transaction.atomic():
        row = Connection.objects.filter(channel=channel).first()
        if row is None:
            return None
        row.delete()
        if not _live(row.table_id).exists():
            Table.objects.filter(pk=row.table_id, alone_since__isnull=True).update(alone_since=timezone.now())
        # A waiting table expires some time after the last person left (lobby.expire_idle).
        Table.objects.filter(pk=row.table_id, status=Table.WAITING).update(updated=timezone.now())
        if row.player_id is None:
            return None
        seat = Seat.objects.filter(table_id=row.table_id, player_id=row.player_id).first()
        _wake(row.table_id)
        if seat is None or _live(row.table_id).filter(player_id=row.player_id).exists():
            return None
        if seat.away_since is None:
            seat.away_since = timezone.now()
            seat.save(update_fields=["away_since"])
        return row.table_id, seat.index


def grace_expired(table_id: str, index: int) -> bool:
    """Let a bot stand in for an absent human whose grace has run out; return whether it now does."""
    with transaction.atomic():
        # The table row first, as every move locks it, then the seat: see _reseat.
        Table.objects.select_for_update().filter(pk=table_id).values_list("pk", flat=True).first()
        seat = Seat.objects.select_for_update().filter(table_id=table_id, index=index).first()
        if seat is None or seat.player_id is None or seat.away_since is None or seat.stand_in:
            return False
        if timezone.now() - seat.away_since < timedelta(seconds=settings.DISCONNECT_GRACE):
            return False
        if _live(table_id).filter(player_id=seat.player_id).exists():
            return False
        _reseat(table_id)
        seat.stand_in = True
        seat.save(update_fields=["stand_in"])
        _wake(table_id)
        return True


def sweep() -> list[tuple[str, int, float]]:
    """Mark away the seated humans of running games who have no live connection and are not away yet.

    The rows of a process that died without anyone noticing (on another host, so
    ``recover`` could not tell) stop counting after ``CONNECTION_TTL``, but no
    ``leave`` runs for them: this finds their players, so their graces start.
    Returns the (table, seat, grace) to schedule.
    """
    now = timezone.now()
    absent = Seat.objects.filter(
        table__status=Table.PLAYING, player__isnull=False, stand_in=False, away_since__isnull=True
    ).exclude(live_connection())
    graces = []
    for seat in absent.select_related("table"):
        with transaction.atomic():
            # One conditional UPDATE: a player joining meanwhile clears away_since, so keep theirs.
            marked = Seat.objects.filter(pk=seat.pk, away_since__isnull=True).exclude(live_connection())
            if marked.update(away_since=now):
                _wake(seat.table_id)
                graces.append((seat.table_id, seat.index, float(settings.DISCONNECT_GRACE)))
    return graces


def recover() -> tuple[list[str], list[tuple[str, int, float]]]:
    """After a restart: drop dead connections, mark absent humans away.

    Dead connections are those not seen within ``CONNECTION_TTL`` and, however
    young, every one of a process known to be gone (``process_is_dead``): after
    a ``kill -9`` and a quick restart the old process's rows must not keep its
    players present (docs/security.md S3). Returns the ids of the tables being
    played, and the (table, seat, seconds left) of each grace still running, for
    the bot driver to resume.
    """
    now = timezone.now()
    Connection.objects.filter(seen__lt=now - _ttl()).delete()
    processes = set(Connection.objects.values_list("process", flat=True).distinct())
    dead = [process for process in processes if process_is_dead(process)]
    if dead:
        Connection.objects.filter(process__in=dead).delete()
    Table.objects.filter(alone_since__isnull=True).exclude(connections__isnull=False).update(alone_since=now)
    playing = list(Table.objects.filter(status=Table.PLAYING).values_list("pk", flat=True))
    # Two statements for every seat at once: a restart comes with every socket reconnecting.
    absent = Seat.objects.filter(table__status=Table.PLAYING, player__isnull=False, stand_in=False).exclude(
        live_connection()
    )
    absent.filter(away_since__isnull=True).update(away_since=now)
    graces = []
    for table_id, index, since in absent.filter(away_since__isnull=False).values_list(
        "table_id", "index", "away_since"
    ):
        left = settings.DISCONNECT_GRACE - (now - since).total_seconds()
        graces.append((table_id, index, max(0.0, left)))
    return playing, graces
