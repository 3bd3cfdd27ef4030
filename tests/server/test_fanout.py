"""Fan-out per process (``fanout.py``): one hub per process, one layer message per process per change.

A change committed here reaches this process's seats without the layer; on a
layer that reaches other processes it is sent once to the table's group, where
another process's hub fans it out to its seats without a read; the hub's
channel leaves a group with the table's last socket; a connection's arrival is
told to the others at its table, with no read where there are none; and a layer that fails
and comes back finds the hub in its groups again, its seats brought up to date.
"""

from __future__ import annotations

import asyncio
import json
import socket
import threading
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import BaseChannelLayer, get_channel_layer
from django.db.models import F

from cardtable.tables.authority import moving, state
from cardtable.tables.live import broadcast, fanout, layerlink
from cardtable.tables.live.layers import InMemoryChannelLayer
from cardtable.tables.models import Table
from tests.server.conftest import Client
from tests.server.test_move_path import hearts_table, play_one, seated_clients

pytestmark = pytest.mark.django_db(transaction=True)


class RemoteLayer(BaseChannelLayer):
    """A layer that could reach other processes (as Redis does), counted, and able to fail.

    It keeps its messages in memory, but it is no ``InMemoryChannelLayer``: the
    hub sends every change through it, as it would through Redis.
    """

    extensions = ["groups"]

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(**kwargs)
        self.inner = InMemoryChannelLayer()
        self.group_sends: list[tuple[str, dict]] = []
        self.down = False
        self.receive_fails = True  # as channels_redis' core layer; its pub/sub layer's receive just waits

    def _check(self) -> None:
        if self.down:
            raise ConnectionError("Redis is down")

    async def new_channel(self, prefix: str = "specific.") -> str:
        return await self.inner.new_channel(prefix)

    async def send(self, channel: str, message: dict) -> None:
        self._check()
        await self.inner.send(channel, message)

    async def receive(self, channel: str) -> dict:
        while self.down:  # as channels_redis' receive fails while Redis is down
            await asyncio.sleep(0.01)
            if self.receive_fails:
                self._check()
        return await self.inner.receive(channel)

    async def group_add(self, group: str, channel: str) -> None:
        self._check()
        await self.inner.group_add(group, channel)

    async def group_discard(self, group: str, channel: str) -> None:
        self._check()
        await self.inner.group_discard(group, channel)

    async def group_send(self, group: str, message: dict) -> None:
        self._check()
        self.group_sends.append((group, message))
        await self.inner.group_send(group, message)


class Seat:
    """A connection of "another process": what its hub hands it (``fanout.Connection``)."""

    def __init__(self, table_id: str) -> None:
        self.table_id = table_id
        self.sent_version = -1
        self.states: list[state.Snapshot] = []
        self.channel_name = fanout.connection_name()

    viewer = None  # a spectator's eyes

    def frame_for(self, snap: state.Snapshot) -> str:
        return snap.to_wake()

    async def show_state(self, snap: state.Snapshot, frame: str | None = None) -> None:
        self.states.append(snap)

    async def show_chat(self, message: dict[str, Any]) -> None:
        pass


@pytest.fixture
def remote(settings: Any) -> RemoteLayer:
    """The channel layer is a ``RemoteLayer`` for this test."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": f"{__name__}.RemoteLayer"}}
    layer = get_channel_layer()
    assert isinstance(layer, RemoteLayer)
    return layer


@pytest.fixture
def in_memory(settings: Any) -> InMemoryChannelLayer:
    """The channel layer is the in-memory one for this test (also in the PostgreSQL + Redis run)."""
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": "cardtable.tables.live.layers.InMemoryChannelLayer"}}
    layer = get_channel_layer()
    assert isinstance(layer, InMemoryChannelLayer)
    return layer


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count the hub's reads of a table."""
    seen: list[str] = []

    def counted(table_id: str) -> state.Snapshot:
        seen.append(table_id)
        return state.snapshot(table_id)

    monkeypatch.setattr(fanout, "snapshot", counted)
    return seen


async def test_a_move_reaches_every_local_seat_with_no_layer_message_on_the_in_memory_layer(
    in_memory: InMemoryChannelLayer, monkeypatch: pytest.MonkeyPatch
) -> None:
    table, people = await database_sync_to_async(hearts_table)()
    clients = await seated_clients(table, people)
    layer = in_memory
    sent: list[str] = []
    for name in ("send", "group_send"):
        original = getattr(layer, name)

        async def counted(*args: Any, _original: Any = original, _name: str = name) -> None:
            sent.append(_name)
            await _original(*args)

        monkeypatch.setattr(layer, name, counted)
    for _ in range(3):
        await play_one(clients)
    assert sent == []


async def test_a_move_is_one_layer_message_and_the_senders_echo_is_ignored(remote: RemoteLayer) -> None:
    table, people = await database_sync_to_async(hearts_table)()
    clients = await seated_clients(table, people)
    remote.group_sends.clear()
    version, _ = await play_one(clients)
    await asyncio.sleep(0.1)  # the echo has come back by now
    (group, message), *others = remote.group_sends
    assert others == [] and group == broadcast.group_name(table.pk)
    assert message["origin"] == fanout.running().link.origin and message["version"] == version + 1
    assert state.from_wake(message["snapshot"]).version == version + 1
    for client in clients:  # one state per seat for the move, not a second from the echo
        await client.quiet(0.1)
        assert [m["version"] for m in client.messages if m["type"] == "state"].count(version + 1) == 1


async def test_another_processs_hub_fans_a_move_out_to_its_seats_without_a_read(
    remote: RemoteLayer, reads: list[str]
) -> None:
    table, people = await database_sync_to_async(hearts_table)()
    clients = await seated_clients(table, people[:2])  # two seats here...
    other = fanout.Hub(asyncio.get_running_loop(), remote)  # ...and two in another process
    await other.start()
    theirs = [Seat(table.pk), Seat(table.pk)]
    for seat in theirs:
        await other.join(seat)
    assert len(remote.inner.groups[broadcast.group_name(table.pk)]) == 2  # one channel per process
    await asyncio.sleep(0.1)  # presence wakes of the connects have gone by
    reads.clear()
    remote.group_sends.clear()
    for seat in theirs:
        seat.states.clear()
    snap = await database_sync_to_async(state.snapshot)(table.pk)
    mover_seat = state.message_for(snap, None)["to_act"][0]
    mover = people[mover_seat][0]
    move = state.message_for(snap, mover.pk)["legal_moves"][0]
    await database_sync_to_async(moving.apply_move)(table.pk, move, snap.version, player=mover)
    for client in clients:
        await client.until(lambda m: m["type"] == "state" and m["version"] == snap.version + 1)
    for _ in range(100):
        if all(seat.states for seat in theirs):
            break
        await asyncio.sleep(0.01)
    for seat in theirs:
        assert [s.version for s in seat.states] == [snap.version + 1]
    assert reads == []  # the wake carried the snapshot
    assert len(remote.group_sends) == 1
    for seat in theirs:
        await other.leave(seat)
    assert len(remote.inner.groups.get(broadcast.group_name(table.pk), {})) == 1  # the other hub left
    other.stop()


async def test_the_hubs_channel_leaves_the_group_with_the_tables_last_socket(
    in_memory: InMemoryChannelLayer,
) -> None:
    table, people = await database_sync_to_async(hearts_table)()
    clients = await seated_clients(table, people[:2])
    layer = in_memory
    group = broadcast.group_name(table.pk)
    assert len(layer.groups[group]) == 1  # two sockets, one channel
    await clients[0].close()
    await asyncio.sleep(0.05)
    assert len(layer.groups[group]) == 1
    await clients[1].close()
    for _ in range(100):
        if not layer.groups.get(group):
            break
        await asyncio.sleep(0.01)
    assert not layer.groups.get(group)


async def test_after_an_outage_the_hub_rejoins_its_groups_and_brings_every_seat_up_to_date(
    remote: RemoteLayer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(layerlink, "LAYER_RETRY", 0.05)
    table, people = await database_sync_to_async(hearts_table)()
    clients = await seated_clients(table, people)
    hub = fanout.running()
    remote.down = True
    version, _ = await play_one(clients)  # local delivery does not need the layer
    await asyncio.sleep(0.2)
    assert hub.link.layer_down
    # Meanwhile another process changed the table; its wake could not come.
    await database_sync_to_async(Table.objects.filter(pk=table.pk).update)(version=F("version") + 1)
    remote.inner.groups.clear()  # a restarted Redis knows no groups
    remote.down = False
    for client in clients:  # nobody asked (no sync): the hub's catch-up brings it
        await client.until(lambda m: m["type"] == "state" and m["version"] == version + 2, timeout=5)
    assert not hub.link.layer_down
    assert hub.link.channel in remote.inner.groups[broadcast.group_name(table.pk)]
    # And the hub hears the layer again: a wake from elsewhere reaches every seat.
    snap = await database_sync_to_async(state.snapshot)(table.pk)
    wake = {"type": "table.changed", "version": snap.version, "wake": "elsewhere", "snapshot": snap.to_wake()}
    await remote.group_send(broadcast.group_name(table.pk), wake)
    for client in clients:
        await client.next_state()


async def test_a_listening_hub_notices_an_outage_its_receive_does_not_report(
    remote: RemoteLayer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(layerlink, "LAYER_RETRY", 0.05)
    monkeypatch.setattr(layerlink, "LAYER_PROBE", 0.05)
    remote.receive_fails = False  # as the pub/sub layer: nothing fails until the hub sends
    table, people = await database_sync_to_async(hearts_table)()
    clients = await seated_clients(table, people)
    hub = fanout.running()
    version = clients[0].state["version"]
    remote.down = True  # this process makes no change meanwhile: only the probe can notice
    await database_sync_to_async(Table.objects.filter(pk=table.pk).update)(version=F("version") + 1)
    for _ in range(100):
        if hub.link.layer_down:
            break
        await asyncio.sleep(0.01)
    assert hub.link.layer_down
    remote.down = False
    for client in clients:  # the other process's change, which the layer lost, arrives on recovery
        await client.until(lambda m: m["type"] == "state" and m["version"] == version + 1, timeout=5)


async def test_a_chat_line_reaches_every_local_socket_once(remote: RemoteLayer) -> None:
    table, people = await database_sync_to_async(hearts_table)()
    clients = await seated_clients(table, people)
    await clients[0].send({"type": "chat", "text": "hello"})
    for client in clients:
        await client.until(lambda m: m["type"] == "chat" and m["text"] == "hello")
        await client.quiet(0.1)
        assert sum(1 for m in client.messages if m["type"] == "chat") == 1
    assert [m["type"] for _, m in remote.group_sends if m["type"] == "table.chat"] == ["table.chat"]


def test_without_a_running_hub_a_change_goes_through_the_layer(settings: Any) -> None:
    settings.CHANNEL_LAYERS = {"default": {"BACKEND": f"{__name__}.RemoteLayer"}}
    layer = get_channel_layer()
    assert fanout.running() is None  # a management command, a script
    broadcast.table_changed("abc", 3)
    ((group, message),) = layer.group_sends
    assert group == broadcast.group_name("abc") and message["version"] == 3 and "origin" not in message


def bare_snapshot(table_id: str, version: int) -> state.Snapshot:
    """A snapshot with nothing in it but its table and version (what the hub looks at)."""
    return state.Snapshot(
        table_id=table_id,
        version=version,
        game="hearts",
        status=Table.PLAYING,
        host_id=None,
        table={},
        players=(),
        clock=0,
        deadline=None,
        state_json={"n": version},
        state=None,
    )


async def test_the_seats_frames_are_written_before_the_wake_goes_to_the_layer(remote: RemoteLayer) -> None:
    """Twisted writes a frame once the loop finds its socket writable: the layer's send waits for that."""
    loop = asyncio.get_running_loop()
    hub = fanout.Hub(loop, remote)
    await hub.start()
    order: list[str] = []
    reader, writer = socket.socketpair()

    class Writing(Seat):
        async def show_state(self, snap: state.Snapshot, frame: str | None = None) -> None:
            def write() -> None:  # as Twisted's transport, once the loop finds the socket writable
                loop.remove_writer(writer)
                writer.send(b"frame")
                order.append("written")

            loop.add_writer(writer, write)

    async def sending(group: str, message: dict) -> None:
        order.append("sent")
        await RemoteLayer.group_send(remote, group, message)

    seat = Writing("t1")
    await hub.join(seat)
    remote.group_send = sending  # type: ignore[method-assign]
    try:
        hub.publish("t1", {"type": "table.changed", "version": 1}, bare_snapshot("t1", 1))
        for _ in range(100):
            if len(order) == 2:
                break
            await asyncio.sleep(0.01)
        assert order == ["written", "sent"]
    finally:
        hub.stop()
        reader.close()
        writer.close()


async def test_a_wake_s_text_is_made_once_on_the_loop_while_the_move_commits(
    remote: RemoteLayer, monkeypatch: pytest.MonkeyPatch
) -> None:
    loop = asyncio.get_running_loop()
    hub = fanout.Hub(loop, remote)
    await hub.start()

    class Framing(Seat):
        def frame_for(self, snap: state.Snapshot) -> str:
            return "a seat's frame"

    await hub.join(Framing("t1"))
    made_on: list[int] = []
    encode = state.json.dumps

    def dumps(*args: Any, **kwargs: Any) -> str:
        made_on.append(threading.get_ident())
        return encode(*args, **kwargs)

    monkeypatch.setattr(state.json, "dumps", dumps)
    snap = bare_snapshot("t1", 1)
    try:
        await loop.run_in_executor(None, hub.prepare, snap)  # from the committing thread
        await asyncio.sleep(0.05)
        assert made_on == [threading.get_ident()]  # this test runs on the loop's thread
        # After the commit the committing thread finds it made.
        text = await loop.run_in_executor(None, snap.to_wake)
        assert made_on == [threading.get_ident()] and json.loads(text)["state"] == {"n": 1}
    finally:
        hub.stop()


async def test_an_arrival_is_told_to_the_others_here_with_the_table_it_read_and_no_other_read(
    in_memory: InMemoryChannelLayer, reads: list[str]
) -> None:
    table, people = await database_sync_to_async(hearts_table)()
    first = await Client(table.pk, people[0][1]).connect()
    await first.quiet(0.3)
    assert reads == []  # nobody else here to tell: its own connect read the table
    assert [m["type"] for m in first.messages].count("state") == 1
    second = await Client(table.pk, people[1][1]).connect()
    await first.until(lambda m: m["type"] == "state" and m["table"]["seats"][1]["connected"])
    await first.quiet(0.3)
    await second.quiet(0.3)
    assert reads == []  # the arrival's wake carries the table its connect read
    assert [m["type"] for m in second.messages].count("state") == 1  # not its own arrival again
    await second.close()
    await first.until(lambda m: m["type"] == "state" and not m["table"]["seats"][1]["connected"])
    await first.close()
