"""The move path without reads: the committed snapshot reaches every seat, and a guarded write.

The process that made a move tells its connections from the snapshot it holds;
a wake carries that snapshot to other processes; a human move on the version
this process knows is one UPDATE guarded by that version, and when the table
moved on behind the process's back the guard writes nothing and the locked
way answers.
"""

from __future__ import annotations

import asyncio
import json
from dataclasses import replace
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db.models import F

from cardtable.tables import broadcast, consumers, fanout, services, state
from cardtable.tables.errors import TableError
from cardtable.tables.models import MoveRecord, Table
from tests.server.conftest import Client, make_player

pytestmark = pytest.mark.django_db(transaction=True)


def hearts_table() -> tuple[Table, list]:
    """A started four-seat Hearts table of humans, with their session cookies."""
    people = [make_player(f"P{i}") for i in range(4)]
    table = services.create_table(people[0][0], "hearts", 4, None)
    for index, (player, _) in enumerate(people):
        services.sit(table.pk, player, index)
    services.start(table.pk, people[0][0])
    return Table.objects.get(pk=table.pk), people


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count the connections' reads of a table (``state.snapshot`` through ``consumers`` and the hub)."""
    seen: list[str] = []

    def counted(table_id: str) -> state.Snapshot:
        seen.append(table_id)
        return state.snapshot(table_id)

    monkeypatch.setattr(consumers, "snapshot", counted)
    monkeypatch.setattr(fanout, "snapshot", counted)
    return seen


async def seated_clients(table: Table, people: list) -> list[Client]:
    clients = [await Client(table.pk, cookie).connect() for _, cookie in people]
    for client in clients:
        await client.quiet()
    return clients


async def play_one(clients: list[Client]) -> tuple[int, int]:
    """Make a legal move from a seat to act; wait until every seat has the new version."""
    version = clients[0].state["version"]
    mover = next(c for c in clients if c.state["legal_moves"])
    await mover.send({"type": "move", "move": mover.state["legal_moves"][0], "version": version})
    for client in clients:
        await client.until(lambda m: m["type"] == "state" and m["version"] == version + 1)
    return version, clients.index(mover)


async def test_a_move_reaches_every_seat_of_its_process_without_a_read(reads: list[str]) -> None:
    table, people = await database_sync_to_async(hearts_table)()
    clients = await seated_clients(table, people)
    reads.clear()
    for _ in range(3):  # the first goes the locked way, the next ones on the known version
        await play_one(clients)
    assert reads == []
    for client, (player, _) in zip(clients, people, strict=True):
        fresh = await database_sync_to_async(state.state_message)(table.pk, player.pk)
        assert client.state == json.loads(json.dumps(fresh))  # what a read would have built, for this seat
    hands = {str(client.state["view"]["hand"]) for client in clients}
    assert len(hands) == 4  # each seat got its own view


async def test_a_wake_from_another_process_carries_the_snapshot_and_needs_no_read(reads: list[str]) -> None:
    table, people = await database_sync_to_async(hearts_table)()
    clients = await seated_clients(table, people)
    snap = await database_sync_to_async(state.snapshot)(table.pk)
    carried = snap.to_wake()  # JSON text, as it crosses Redis
    assert isinstance(carried, str) and state.from_wake(carried) == snap
    reads.clear()
    message: dict[str, Any] = {"type": "table.changed", "version": snap.version, "wake": "elsewhere-1"}
    await get_channel_layer().group_send(broadcast.group_name(table.pk), {**message, "snapshot": carried})
    for client in clients:
        await client.next_state()
    assert reads == []
    for client, (player, _) in zip(clients, people, strict=True):
        assert client.state == json.loads(json.dumps(state.message_for(snap, player.pk)))
    # A wake without one (a presence change, a seat change) still reads the table, once.
    await get_channel_layer().group_send(broadcast.group_name(table.pk), {**message, "wake": "elsewhere-2"})
    for client in clients:
        await client.next_state()
    assert reads == [table.pk]


def test_a_move_on_a_version_the_table_left_behind_writes_nothing() -> None:
    table, people = hearts_table()
    snap = state.snapshot(table.pk)
    game_state = state.message_for(snap, None)
    seat = game_state["to_act"][0]
    move = state.message_for(snap, people[seat][0].pk)["legal_moves"][0]
    services.apply_move(table.pk, move, snap.version, player=people[seat][0])
    known = state.latest(table.pk)
    assert known is not None and known.match is not None and known.version == snap.version + 1
    # Another process changes the table and its wake never arrives here.
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    before = Table.objects.get(pk=table.pk)
    logged = MoveRecord.objects.count()
    mover = next(i for i in state.message_for(known, None)["to_act"])
    legal = state.message_for(known, people[mover][0].pk)["legal_moves"]
    with pytest.raises(TableError) as refused:
        services.apply_move(table.pk, legal[0], known.version, player=people[mover][0])
    assert refused.value.code == "stale_version"
    after = Table.objects.get(pk=table.pk)
    assert (after.version, after.state) == (before.version, before.state)
    assert MoveRecord.objects.count() == logged


async def test_the_in_memory_layer_sweeps_expired_messages_at_most_once_a_second(monkeypatch) -> None:
    from channels import layers as channels_layers

    from cardtable.tables.layers import InMemoryChannelLayer

    sweeps: list[float] = []
    original = channels_layers.InMemoryChannelLayer._clean_expired

    def counted(self: Any) -> None:
        sweeps.append(1)
        original(self)

    monkeypatch.setattr(channels_layers.InMemoryChannelLayer, "_clean_expired", counted)
    layer = InMemoryChannelLayer(expiry=0.01)
    await layer.group_add("g", "specific.inmemory!a")
    for _ in range(5):
        await layer.group_send("g", {"type": "x"})
    assert len(sweeps) == 1  # five sends, one sweep
    await asyncio.sleep(0.05)  # the messages have expired
    layer._swept -= layer.SWEEP_EVERY  # a second later
    await layer.group_send("g", {"type": "y"})
    assert len(sweeps) == 2
    assert "specific.inmemory!a" not in layer.groups.get("g", {})  # an expired message drops its channel


def test_a_wake_carries_a_state_holding_integers_wider_than_msgpack_takes() -> None:
    import msgpack

    table, _ = hearts_table()
    snap = state.snapshot(table.pk)
    wide = replace(snap, state_json={**snap.state_json, "seed": 2**70})
    carried = msgpack.unpackb(msgpack.packb({"snapshot": wide.to_wake()}))["snapshot"]  # as Redis carries it
    assert state.from_wake(carried).state_json["seed"] == 2**70
