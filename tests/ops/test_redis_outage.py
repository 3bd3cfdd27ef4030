"""Redis stopped and started again under play, with a redis-server of the test's own on a free port.

The channel layer carries only "look again" wakes; the truth is in the database.
So while Redis is down the bots' moves keep being stored, and once it is back
every client that reconnects gets the stored state (it resyncs) and play goes on
with each change fanned out to every seat again.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ops.conftest import require_binary
from tests.ops.harness import (
    Conn,
    DaphneServer,
    Database,
    Player,
    RedisServer,
    bot_table,
    play_move,
    replay,
    seat_table,
    settle,
)

pytestmark = pytest.mark.slow


async def _reconnect(server: DaphneServer, ws_path: str, player: Player | None, timeout: float = 20) -> Conn:
    """Open a websocket, retrying as a browser's client does, until a state arrives."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        conn = None
        try:
            conn = await Conn.open(server.ws_base, ws_path, player)
            await conn.wait_for(lambda m: m.get("type") == "state", 3)
            return conn
        except (OSError, ConnectionError, TimeoutError) as error:
            if conn is not None:
                await conn.close()
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(f"could not reconnect within {timeout}s: {error}") from error
            await asyncio.sleep(0.3)


async def _version(db: Database, table_id: str) -> int:
    return await asyncio.to_thread(lambda: db.table(table_id)["version"])


@pytest.fixture
def outage_server(tmp_path: Path) -> Iterator[tuple[DaphneServer, RedisServer, Database]]:
    """A Daphne on SQLite with the channel layer on a private Redis."""
    require_binary("redis-server")
    redis = RedisServer()
    redis.start()
    env = {"SQLITE_PATH": str(tmp_path / "db.sqlite3"), "REDIS_URL": redis.url, "BOT_PAUSE": "0.02"}
    env["DISCONNECT_GRACE"] = "3600"
    server = DaphneServer(env)
    server.migrate()
    server.start()
    try:
        yield server, redis, Database(env)
    finally:
        server.kill()
        redis.stop()


async def test_moves_are_stored_through_a_redis_outage_and_clients_resync(outage_server: tuple) -> None:
    server, redis, db = outage_server
    table, players, conns = await seat_table(server.base, server.ws_base, "hearts", 4)
    bots = await bot_table(server.base, server.ws_base, "hearts", 4)
    spectator = await Conn.open(server.ws_base, f"/ws/tables/{bots}/", None)  # bots play while watched
    rng = random.Random(5)
    for _ in range(4):  # fan-out through Redis: every seat sees every move without asking
        await settle(conns)
        await play_move(conns, rng)
    await settle(conns)

    redis.stop()
    during = await _version(db, bots)
    await asyncio.sleep(1.5)
    after = await _version(db, bots)
    assert after > during + 3, f"bots stopped moving while Redis was down ({during} -> {after})"

    redis.start()
    for conn in conns:
        await conn.close()
    conns = [await _reconnect(server, table["ws"], p) for p in players]
    stored = await _version(db, table["id"])
    for seat, conn in enumerate(conns):  # resync: each seat gets the stored state for its seat
        assert conn.state["version"] == stored
        assert conn.state["you"]["seat"] == seat
    for _ in range(5):  # and the fan-out works again
        await settle(conns)
        await play_move(conns, rng)
    await settle(conns)

    await spectator.close()
    watcher = await _reconnect(server, f"/ws/tables/{bots}/", None)
    seen = watcher.state["version"]
    await watcher.wait_for(lambda m: m.get("type") == "state" and m["version"] > seen + 2, 10)
    await watcher.close()
    for table_id in (table["id"], bots):
        row, _ = replay(db, table_id)
        assert row["replayed"] == row["state"], f"{table_id}: stored state is not its log replayed"
    for conn in conns:
        await conn.close()


async def test_a_seated_player_can_move_while_redis_is_down(outage_server: tuple) -> None:
    """docs/security.md G5: sockets open and stay open without Redis; the mover gets its state directly."""
    server, redis, db = outage_server
    table, players, conns = await seat_table(server.base, server.ws_base, "hearts", 4)
    await settle(conns)
    before = await _version(db, table["id"])
    redis.stop()
    await asyncio.sleep(0.5)
    fresh = [await _reconnect(server, table["ws"], p, timeout=5) for p in players]  # open without Redis
    rng = random.Random(1)
    await play_move(fresh, rng, timeout=5)  # the mover's state comes straight back, not by a wake
    assert await _version(db, table["id"]) == before + 1
    await asyncio.sleep(1.5)  # the sockets from before the outage have failed to hear Redis by now
    assert not any(conn.closed.is_set() for conn in conns + fresh), "a socket closed during the outage"

    redis.start()  # a fresh Redis that knows no groups: every socket rejoins its own and catches up
    for conn in conns + fresh:  # nobody asked (no sync): the rejoin brings the missed move
        await conn.wait_for(lambda m: m.get("type") == "state" and m["version"] == before + 1, 10)
    for _ in range(3):  # and the fan-out works again for both generations of sockets
        await play_move(conns, rng)
        await settle(conns + fresh)
    assert await _version(db, table["id"]) == before + 4
    for conn in conns + fresh:
        await conn.close()
