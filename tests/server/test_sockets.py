"""Presence follows the sockets that are really open (docs/security.md S2), in process.

A consumer that crashes or is cancelled loses its presence row at once, the
heartbeat refreshes only open sockets and releases dead ones, and one player
holds a bounded number of sockets per table and per process.
"""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async

from cardtable.tables.live import heartbeat, sockets
from cardtable.tables.live.consumers import TableConsumer
from cardtable.tables.models import Connection, Seat
from tests.server.conftest import OPEN, Client
from tests.server.test_errors import playing_table

pytestmark = pytest.mark.django_db(transaction=True)


def rows(player_id: int | None = None) -> int:
    """Presence rows, all or one player's."""
    query = Connection.objects.all()
    return (query.filter(player_id=player_id) if player_id else query).count()


async def test_a_crashed_consumer_loses_its_presence_and_the_stand_in_comes(settings, monkeypatch) -> None:
    settings.DISCONNECT_GRACE = 0.3
    table, people = await database_sync_to_async(playing_table)()
    bob = await Client(table.pk, people[1][1]).connect()
    send_snapshot = TableConsumer._send_snapshot

    async def crash(self: TableConsumer, snap, force: bool = False, frame: str | None = None) -> None:
        if self._player_id == people[0][0].pk:  # as sending on a socket the client aborted does
            raise RuntimeError("Attempt to send on a closed protocol")
        await send_snapshot(self, snap, force, frame)

    monkeypatch.setattr(TableConsumer, "_send_snapshot", crash)
    ann = Client(table.pk, people[0][1])
    await ann.comm.connect(timeout=10)
    with pytest.raises(RuntimeError):
        await ann.comm.wait(timeout=10)  # the consumer died without its disconnect
    assert await database_sync_to_async(rows)(people[0][0].pk) == 0
    assert len(sockets.open_channels()) == 1  # Bob's only
    state = await bob.until(lambda m: m["type"] == "state" and m["table"]["seats"][0]["stand_in"], timeout=15)
    assert state["table"]["seats"][0]["connected"] is False


async def test_the_heartbeat_refreshes_only_open_sockets_and_releases_dead_ones(settings) -> None:
    settings.DISCONNECT_GRACE = 0.3
    table, people = await database_sync_to_async(playing_table)()
    bob = await Client(table.pk, people[1][1]).connect()
    await Client(table.pk, people[0][1]).connect()
    assert await database_sync_to_async(rows)(people[0][0].pk) == 1
    # Ann's consumer task ends without any cleanup (as if Daphne killed it mid-way).
    (ann_socket,) = [s for s in sockets._sockets.values() if s.player_id == people[0][0].pk]
    dead = asyncio.get_running_loop().create_future()
    dead.set_result(None)
    ann_socket.task = dead  # type: ignore[assignment]
    assert ann_socket.channel not in sockets.open_channels()
    await heartbeat.beat_once()
    await asyncio.sleep(0.2)
    assert await database_sync_to_async(rows)(people[0][0].pk) == 0
    assert await database_sync_to_async(rows)(people[1][0].pk) == 1
    state = await bob.until(lambda m: m["type"] == "state" and m["table"]["seats"][0]["stand_in"], timeout=15)
    assert state["table"]["seats"][0]["connected"] is False


async def refused(client: Client) -> dict:
    """Connect, expect the ``rate_limited`` error and the close."""
    connected, _ = await client.comm.connect(timeout=10)
    assert connected
    error = await client.receive()
    assert (await client.comm.receive_output(timeout=5))["type"] == "websocket.close"
    return error


async def test_one_player_holds_at_most_five_sockets_at_a_table_and_twenty_in_all(settings) -> None:
    settings.WS_PER_PLAYER = 7
    table, people = await database_sync_to_async(playing_table)()
    other, _ = await database_sync_to_async(playing_table)()
    ann, cookie = people[0]
    for _ in range(settings.WS_PER_TABLE):
        await Client(table.pk, cookie).connect()
    error = await refused(Client(table.pk, cookie))
    assert error["code"] == "rate_limited" and "5 at a table" in error["message"]
    assert await database_sync_to_async(rows)(ann.pk) == 5
    # Another table is fine until the player's total reaches WS_PER_PLAYER.
    await Client(other.pk, cookie).connect()
    await Client(other.pk, cookie).connect()
    assert (await refused(Client(other.pk, cookie)))["code"] == "rate_limited"
    assert await database_sync_to_async(rows)(ann.pk) == 7
    # Others are not limited by Ann's sockets; a closed socket frees its place.
    await Client(table.pk, people[1][1]).connect()
    await OPEN[0].close()  # one of Ann's at the first table
    await asyncio.sleep(0.1)
    await Client(other.pk, cookie).connect()
    assert await database_sync_to_async(Seat.objects.filter(stand_in=True).exists)() is False
