"""SQLite's write lock held by another connection: sockets wait, or get a clear error, never 1011.

A real Daphne on a SQLite file, with a short lock timeout (``SQLITE_TIMEOUT``).
Another connection to the same file takes the write lock (``BEGIN IMMEDIATE``)
while seats connect and move: held for less than the timeout, every request just
waits and succeeds; held for longer, a move gets the ``unavailable`` error and
the socket stays open, a new socket gets ``unavailable`` and close code 4503,
the table is unchanged, and everything works again once the lock is gone
(docs/security.md, "A socket closed with an internal error under load").
"""

from __future__ import annotations

import asyncio
import contextlib
import sqlite3
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.ops.harness import Conn, DaphneServer, is_error, seat_table, state_at_least

pytestmark = pytest.mark.slow

TIMEOUT = 5.0  # seconds the server's connection waits for the write lock
SHORT = 2.5  # a hold the requests outwait


@contextlib.contextmanager
def write_lock(path: Path) -> Iterator[None]:
    """Hold the database's write lock from a connection of our own until the block ends."""
    holder = sqlite3.connect(path, isolation_level=None, timeout=30)
    try:
        holder.execute("BEGIN IMMEDIATE")
        yield
    finally:
        holder.execute("ROLLBACK")
        holder.close()


async def hold_for(path: Path, seconds: float) -> asyncio.Task:
    """Take the write lock now and let it go after ``seconds``, in a thread; return the task to await."""
    taken = asyncio.Event()
    loop = asyncio.get_running_loop()

    def hold() -> None:
        with write_lock(path):
            loop.call_soon_threadsafe(taken.set)
            time.sleep(seconds)

    task = asyncio.ensure_future(asyncio.to_thread(hold))
    await taken.wait()
    return task


def mover_of(conns: list[Conn]) -> Conn:
    """The connection whose seat is to act."""
    return next(conn for conn in conns if conn.state and conn.state["legal_moves"])


async def move(conn: Conn, message_id: str) -> dict:
    """Send the seat's first legal move; return the answer (its next state, or the error for it)."""
    state = conn.state
    start = len(conn.messages)
    await conn.send(
        {"type": "move", "move": state["legal_moves"][0], "version": state["version"], "id": message_id}
    )
    return await conn.wait_for(
        lambda m: state_at_least(state["version"] + 1)(m) or (is_error(m) and m.get("id") == message_id),
        60,
        start,
    )


async def test_a_held_write_lock_makes_sockets_wait_or_get_a_clear_error(tmp_path: Path) -> None:
    db = tmp_path / "db.sqlite3"
    # No heartbeat or sweep meanwhile: a write of theirs waiting for the lock would hold the
    # database thread, and a handshake behind it would outlast Daphne's connect timeout (5 s).
    quiet = {"CONNECTION_HEARTBEAT": "600", "CONNECTION_TTL": "1800", "ABANDON_SWEEP": "600"}
    server = DaphneServer(env={"SQLITE_PATH": str(db), "SQLITE_TIMEOUT": str(TIMEOUT), **quiet})
    server.migrate()
    server.start(60)
    conns: list[Conn] = []
    try:
        table, _, conns = await seat_table(server.base, server.ws_base, "agram", 2)
        ws = table["ws"]
        # Shorter than the timeout: each request waits for the lock and goes through.
        held = await hold_for(db, SHORT)
        answer = await move(mover_of(conns), "m-1")
        watcher = await Conn.open(server.ws_base, ws, None)
        conns.append(watcher)
        first = await watcher.wait_for(lambda m: m.get("type") in ("state", "error"), 60)
        await held
        assert answer["type"] == "state", answer
        assert first["type"] == "state" and first["version"] == answer["version"], first
        # Longer than the timeout: a clear error, the socket stays open; a new socket is refused with 4503.
        version = answer["version"]
        mover = mover_of(conns)
        await mover.wait_for(state_at_least(version), 30)
        with write_lock(db):
            refused = await move(mover, "m-2")
            late = await Conn.open(server.ws_base, ws, None)
            conns.append(late)
            turned_away = await late.wait_for(is_error, 60)
            await asyncio.wait_for(late.closed.wait(), 30)
            synced = await mover.request({"type": "sync"}, lambda m: m.get("type") == "state", 30)
        assert refused["type"] == "error" and refused["code"] == "unavailable", refused
        assert "try again" in refused["message"].lower()
        assert turned_away["code"] == "unavailable" and late.ws.close_code == 4503, (
            turned_away,
            late.ws.close_code,
        )
        assert not mover.closed.is_set() and not watcher.closed.is_set()
        assert synced["version"] == version  # nothing changed
        # The lock gone: the same seat moves and a new socket is served.
        again = await move(mover, "m-3")
        assert again["type"] == "state" and again["version"] == version + 1, again
        back = await Conn.open(server.ws_base, ws, None)
        conns.append(back)
        assert (await back.wait_for(lambda m: m.get("type") in ("state", "error"), 60))["type"] == "state"
        assert "1011" not in server.log_tail(400)
    finally:
        for conn in conns:
            await conn.close()
        server.kill()
