"""The heartbeat: batched UPDATEs for all of a process's connections, spread over its period.

(One read per change shared by a process's connections is the hub's: tests/server/test_fanout.py
and test_move_path.py.)
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from cardtable.tables.authority import presence, seating
from cardtable.tables.live import heartbeat
from cardtable.tables.models import Connection, Table
from tests.server.conftest import make_player

pytestmark = pytest.mark.django_db(transaction=True)


def hearts_table() -> tuple[Table, list]:
    """A started four-seat Hearts table of humans."""
    people = [make_player(f"P{i}")[0] for i in range(4)]
    table = seating.create_table(people[0], "hearts", 4, None)
    for index, person in enumerate(people):
        seating.sit(table.pk, person, index)
    seating.start(table.pk, people[0])
    return Table.objects.get(pk=table.pk), people


def test_heartbeat_many_refreshes_only_the_named_connections() -> None:
    table, _ = hearts_table()
    old = timezone.now() - timedelta(seconds=30)
    names = [f"chan-{i}" for i in range(1203)]  # more than one statement's worth
    Connection.objects.bulk_create(Connection(channel=name, table_id=table.pk, seen=old) for name in names)
    presence.heartbeat_many(names[:1200])
    fresh = set(Connection.objects.filter(seen__gt=old).values_list("channel", flat=True))
    assert fresh == set(names[:1200])


async def test_the_beat_is_spread_over_the_period_and_refreshes_each_socket_once(monkeypatch) -> None:
    """Each slice refreshes its own connections; over one period every open socket is refreshed once."""
    open_now = [f"ws.{i:04d}" for i in range(200)]
    refreshed: list[str] = []
    swept: list[int] = []
    monkeypatch.setattr(heartbeat.sockets, "reap", lambda: 0)
    monkeypatch.setattr(heartbeat.sockets, "open_channels", lambda: list(open_now))
    monkeypatch.setattr(heartbeat.presence, "heartbeat_many", refreshed.extend)
    monkeypatch.setattr(heartbeat.presence, "sweep", lambda: swept.append(1) or [])
    parts = 15
    sizes = []
    for part in range(parts):
        before = len(refreshed)
        await heartbeat.beat_once(part, parts)
        sizes.append(len(refreshed) - before)
    assert sorted(refreshed) == open_now  # each once, none left out
    assert max(sizes) < len(open_now) / 4  # spread: no slice holds most of them
    assert swept == [1]  # the sweep runs once a period
