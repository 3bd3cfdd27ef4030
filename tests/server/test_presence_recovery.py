"""After a restart, presence rows of a dead process are gone at once (docs/security.md S3)."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cardtable.tables.authority import presence
from cardtable.tables.autoplay import turns
from cardtable.tables.live import arrival
from cardtable.tables.models import Connection, Match, MoveRecord, Seat, Table
from tests.server.test_clock import clocked_table
from tests.server.test_errors import playing_table

pytestmark = pytest.mark.django_db


def finished_pid() -> int:
    """The pid of a process that has ended."""
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    return child.pid


def test_recovery_drops_the_young_rows_of_a_dead_process_and_starts_their_graces() -> None:
    table, people = playing_table()
    (ann, _), (bob, _) = people
    host, now = socket.gethostname(), timezone.now()
    same_pid_earlier_boot = f"{host}:{os.getpid()}:00000000"
    gone = f"{host}:{finished_pid()}:abcdef12"
    elsewhere = f"another-host:{finished_pid()}:abcdef12"
    Connection.objects.create(channel="a1", table=table, player=ann, seen=now, process=same_pid_earlier_boot)
    Connection.objects.create(channel="a2", table=table, player=ann, seen=now, process=gone)
    Connection.objects.create(channel="b1", table=table, player=bob, seen=now, process=elsewhere)
    Connection.objects.create(channel="s1", table=table, player=None, seen=now, process=presence.process_id())
    playing, graces = presence.recover()
    assert playing == [table.pk]
    # Ann's rows were young but their processes are dead: she is away and her grace runs.
    assert set(Connection.objects.values_list("channel", flat=True)) == {"b1", "s1"}
    assert graces == [(table.pk, 0, pytest.approx(30, abs=1))]
    assert Seat.objects.get(table=table, index=0).away_since is not None
    assert Seat.objects.get(table=table, index=1).away_since is None  # another host: left to the TTL


def test_the_sweep_starts_the_grace_of_a_player_whose_rows_expired_unnoticed(settings) -> None:
    table, people = playing_table()
    (ann, _), (bob, _) = people
    old = timezone.now() - timedelta(seconds=settings.CONNECTION_TTL + 1)
    Connection.objects.create(channel="a1", table=table, player=ann, seen=old, process="elsewhere:1:x")
    Connection.objects.create(channel="b1", table=table, player=bob, seen=timezone.now(), process="x")
    assert presence.sweep() == [(table.pk, 0, settings.DISCONNECT_GRACE)]
    assert Seat.objects.get(table=table, index=0).away_since is not None
    assert Seat.objects.get(table=table, index=1).away_since is None
    assert presence.sweep() == []  # once


def test_process_ids_name_this_process_and_unknown_ones_are_not_dead() -> None:
    mine = presence.process_id()
    assert mine.startswith(f"{socket.gethostname()}:{os.getpid()}:")
    assert not presence.process_is_dead(mine)
    assert not presence.process_is_dead("")
    assert not presence.process_is_dead(f"{socket.gethostname()}:{os.getppid()}:abc")  # running
    assert presence.process_is_dead(f"{socket.gethostname()}:{finished_pid()}:abc")


def start_time(pid: int) -> str:
    """When a process started, as /proc names it (field 22 of its stat)."""
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rpartition(")")[2].split()[19]


def state_of(pid: int) -> str:
    """A process's state letter (R, S, Z, ...)."""
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rpartition(")")[2].split()[0]


def test_a_zombie_and_a_pid_that_names_another_process_count_as_dead() -> None:
    # The probe: after kill -9 the dead server was a zombie its parent had not collected, still
    # "running" to signal 0, so its young rows kept its players present until CONNECTION_TTL.
    table, people = playing_table()
    (ann, _), (bob, _) = people
    host = socket.gethostname()
    child = subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])
    try:
        started = start_time(child.pid)
        assert not presence.process_is_dead(f"{host}:{child.pid}:abc")
        assert not presence.process_is_dead(f"{host}:{child.pid}:abc:{started}")
        # The same pid, started at another time: another process now has it.
        assert presence.process_is_dead(f"{host}:{child.pid}:abc:{int(started) + 1}")
        child.kill()
        for _ in range(100):  # killed, not collected: a zombie
            if state_of(child.pid) == "Z":
                break
            time.sleep(0.05)
        assert state_of(child.pid) == "Z"
        assert presence.process_is_dead(f"{host}:{child.pid}:abc")
        assert presence.process_is_dead(f"{host}:{child.pid}:abc:{started}")
        zombie = f"{host}:{child.pid}:abc:{started}"
        Connection.objects.create(channel="a1", table=table, player=ann, seen=timezone.now(), process=zombie)
        Connection.objects.create(
            channel="b1", table=table, player=bob, seen=timezone.now(), process=presence.process_id()
        )
        _, graces = presence.recover()
        assert not Connection.objects.filter(channel="a1").exists()
        assert graces == [(table.pk, 0, pytest.approx(30, abs=1))]
    finally:
        child.kill()
        child.wait()
    mine = presence.process_id().split(":")
    assert mine[1] == str(os.getpid()) and mine[3] == start_time(os.getpid())


def _statements(call) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        call()
    return [query["sql"] for query in captured.captured_queries]


def test_recovery_takes_the_same_statements_for_one_table_as_for_many() -> None:
    # A restart comes with every socket reconnecting: recovery must not cost a query per seat.
    playing_table()
    one = _statements(presence.recover)
    for _ in range(4):
        playing_table()
    Seat.objects.update(away_since=None)
    many = _statements(presence.recover)
    assert len(many) == len(one), many
    assert Seat.objects.filter(player__isnull=False, away_since__isnull=True).count() == 0  # all 10 away


def test_resuming_pokes_only_the_tables_a_bot_or_stand_in_plays_and_reads_their_clocks_at_once() -> None:
    people, _ = playing_table()
    bots, _ = playing_table(bot=True)
    stood, _ = playing_table()
    Seat.objects.filter(table=stood, index=1).update(stand_in=True)
    Table.objects.filter(pk=people.pk).update(clock=30)
    ids = [people.pk, bots.pk, stood.pk]
    with CaptureQueriesContext(connection) as captured:
        served, deadlines = turns.resumable(ids)
    statements = captured.captured_queries
    assert served == sorted([bots.pk, stood.pk])
    assert deadlines == [(people.pk, None)]
    assert len(statements) == 2


def test_a_seat_back_after_a_restart_reads_no_moves_when_nothing_was_played_for_it() -> None:
    table, people = playing_table()
    (ann, _), _ = people
    presence.recover()  # nobody connected: both seats away, no stand-in yet
    seating = Table.objects.get(pk=table.pk).seating
    sql = _statements(lambda: arrival.arrive("ann-1", table.pk, ann.pk))
    assert Table.objects.get(pk=table.pk).seating == seating  # who plays the seat did not change
    assert not any("tables_moverecord" in s and "by" in s for s in sql), sql
    # The seats are read twice: by the presence write and with the state (the chat has no lines).
    assert sum('FROM "tables_seat"' in s for s in sql) == 2, sql
    assert Seat.objects.get(table=table, index=0).away_since is None
    # A second socket at the same version: the match and its last move are known, not read again.
    sql = _statements(lambda: arrival.arrive("ann-2", table.pk, ann.pk))
    assert not any("MAX(" in s for s in sql), sql


def test_a_seat_a_stand_in_played_for_is_told_what_was_played() -> None:
    table, people = playing_table()
    (ann, _), _ = people
    presence.recover()
    Seat.objects.filter(table=table, index=0).update(stand_in=True)
    MoveRecord.objects.create(
        match=Match.objects.get(table=table),
        seq=999,
        seat=0,
        move={"x": 1},
        by=MoveRecord.STAND_IN,
        version=1,
    )
    arrived = arrival.arrive("ann-1", table.pk, ann.pk)
    assert arrived.stood_in is not None and arrived.stood_in["seat"] == 0
    assert arrived.stood_in["moves"][-1]["move"] == {"x": 1}


def test_a_clock_stopped_with_nobody_here_starts_again_on_a_connect_and_its_state_shows_it() -> None:
    table, people = clocked_table(clock=30)
    (ann, _), _ = people
    Table.objects.filter(pk=table.pk).update(deadline=None)  # stopped: everyone had left
    arrived = arrival.arrive("ann-1", table.pk, ann.pk)
    assert arrived.deadline is not None
    assert arrived.snapshot.deadline == arrived.deadline == Table.objects.get(pk=table.pk).deadline
    assert arrived.snapshot.table["deadline"] is not None


def test_a_connect_to_a_table_without_a_clock_reads_no_clock() -> None:
    table, people = playing_table()
    (ann, _), _ = people
    sql = _statements(lambda: arrival.arrive("ann-1", table.pk, ann.pk))
    assert not any('"tables_table"."clock" > 0' in s for s in sql), sql
