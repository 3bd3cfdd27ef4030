"""The server stopped with SIGTERM in the middle of games, then started again.

Three tables of four human players play as fast as they can, and a table of bots
plays with a spectator watching, when Daphne gets SIGTERM. It must finish the
moves in flight and close every socket with 4012 ("server restarting", which the
page treats as reconnecting), then exit. After a restart every acknowledged
move is in the log at the version the client saw, each table's stored state is
its seed replayed through its log (no move lost or applied twice), and play
goes on.
"""

from __future__ import annotations

import asyncio
import random
import signal
import time

import pytest

from tests.ops.harness import Conn, DaphneServer, Database, bot_table, play_move, replay, seat_table, settle
from tests.ops.test_restart import _play_until_dropped, _wait_version_above

pytestmark = pytest.mark.slow


async def test_sigterm_finishes_moves_in_flight_closes_with_4012_and_loses_nothing(server_db: dict) -> None:
    env = server_db | {"BOT_PAUSE": "0.02", "DISCONNECT_GRACE": "3600"}
    server = DaphneServer(env)
    db = Database(env)
    server.migrate()
    server.start()
    try:
        tables = [await seat_table(server.base, server.ws_base, "hearts", 4, f"s{i}p") for i in range(3)]
        bots = await bot_table(server.base, server.ws_base, "hearts", 4)
        watcher = await Conn.open(server.ws_base, f"/ws/tables/{bots}/", None)
        rngs = [random.Random(i) for i in range(3)]
        acked: list[list] = [[] for _ in tables]
        sent: list[list] = [[] for _ in tables]
        players = [
            asyncio.create_task(_play_until_dropped(conns, rngs[i], acked[i], sent[i]))
            for i, (_, _, conns) in enumerate(tables)
        ]
        await asyncio.sleep(2.0)
        proc = server.proc
        assert proc is not None
        stopped_at = time.monotonic()
        proc.send_signal(signal.SIGTERM)
        await asyncio.to_thread(proc.wait, 30)
        took = time.monotonic() - stopped_at
        server.proc = None
        await asyncio.wait_for(asyncio.gather(*players), 30)
        assert all(len(a) >= 5 for a in acked), [len(a) for a in acked]
        # Every socket was closed by the server with "server restarting", not dropped.
        conns = [conn for _, _, table_conns in tables for conn in table_conns] + [watcher]
        for conn in conns:
            await asyncio.wait_for(conn.closed.wait(), 10)
        codes = {conn.ws.close_code for conn in conns}
        assert codes == {4012}, (codes, server.log_tail())
        assert "sockets closed with 4012" in server.log_tail(200)
        assert took < 20, took
        bots_version = db.table(bots)["version"]

        server.start()
        for i, (table, table_players, old_conns) in enumerate(tables):
            for conn in old_conns:
                await conn.close()
            row, log = replay(db, table["id"])
            assert row["replayed"] == row["state"]
            assert [r["seq"] for r in log] == list(range(1, len(log) + 1))
            by_version = {r["version"]: (r["seat"], r["move"]) for r in log}
            assert len(by_version) == len(log), "two moves recorded at one version"
            for version, seat, move in acked[i]:
                assert by_version.get(version) == (seat, move), f"acknowledged move lost: {version} {move}"
            # The players come back and play on.
            back = [await Conn.open(server.ws_base, table["ws"], p) for p in table_players]
            for seat, conn in enumerate(back):
                state = await conn.wait_for(lambda m: m.get("type") == "state")
                assert state["version"] == row["version"] and state["you"]["seat"] == seat
            rng = random.Random(50 + i)
            for _ in range(3):
                await settle(back)
                await play_move(back, rng)
            final, _ = replay(db, table["id"])
            assert final["replayed"] == final["state"]
            for conn in back:
                await conn.close()
        watcher = await Conn.open(server.ws_base, f"/ws/tables/{bots}/", None)
        await _wait_version_above(db, bots, bots_version + 3, 20)
        await watcher.close()
        row, _ = replay(db, bots)
        assert row["replayed"] == row["state"]
    finally:
        server.kill()
