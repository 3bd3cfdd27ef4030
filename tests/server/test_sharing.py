"""One read of a table per change, shared by its connections; one heartbeat UPDATE per process."""

from __future__ import annotations

import asyncio
from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from cardtable.tables import presence, services, state
from cardtable.tables.models import Connection, Table
from tests.server.conftest import make_player

pytestmark = pytest.mark.django_db(transaction=True)


def hearts_table() -> tuple[Table, list]:
    """A started four-seat Hearts table of humans."""
    people = [make_player(f"P{i}")[0] for i in range(4)]
    table = services.create_table(people[0], "hearts", 4, None)
    for index, person in enumerate(people):
        services.sit(table.pk, person, index)
    services.start(table.pk, people[0])
    return Table.objects.get(pk=table.pk), people


async def test_one_wake_is_read_once_and_each_seat_gets_its_own_view() -> None:
    table, people = await database_sync_to_async(hearts_table)()
    reads: list[str] = []

    async def read(table_id: str) -> state.Snapshot:
        reads.append(table_id)
        await asyncio.sleep(0.01)  # the others arrive while the read is in flight
        return await database_sync_to_async(state.snapshot)(table_id)

    snaps = await asyncio.gather(*(state.shared_snapshot(table.pk, "wake-1", read) for _ in people))
    assert reads == [table.pk]
    assert all(snap is snaps[0] for snap in snaps)
    late = await state.shared_snapshot(table.pk, "wake-1", read)  # a late wake of the same change
    assert late is snaps[0] and len(reads) == 1
    await state.shared_snapshot(table.pk, "wake-2", read)  # another change is read again
    assert len(reads) == 2

    hands = []
    for person in people:
        alone = await database_sync_to_async(state.state_message)(table.pk, person.pk)
        shared = state.message_for(snaps[0], person.pk)
        assert shared == alone  # the same message as a private read, built for this seat
        hands.append(shared["view"]["hand"])
    assert len({str(hand) for hand in hands}) == 4  # no seat got another's hand


async def test_a_failed_read_is_not_kept() -> None:
    table, _ = await database_sync_to_async(hearts_table)()
    calls = 0

    async def flaky(table_id: str) -> state.Snapshot:
        nonlocal calls
        calls += 1
        if calls == 1:
            raise ConnectionError("database went away")
        return await database_sync_to_async(state.snapshot)(table_id)

    with pytest.raises(ConnectionError):
        await state.shared_snapshot(table.pk, "wake-f", flaky)
    await asyncio.sleep(0.01)  # the failed future is forgotten at once
    snap = await state.shared_snapshot(table.pk, "wake-f", flaky)
    assert calls == 2 and snap.table_id == table.pk


def test_heartbeat_many_refreshes_only_the_named_connections() -> None:
    table, _ = hearts_table()
    old = timezone.now() - timedelta(seconds=30)
    names = [f"chan-{i}" for i in range(1203)]  # more than one statement's worth
    Connection.objects.bulk_create(Connection(channel=name, table_id=table.pk, seen=old) for name in names)
    presence.heartbeat_many(names[:1200])
    fresh = set(Connection.objects.filter(seen__gt=old).values_list("channel", flat=True))
    assert fresh == set(names[:1200])
