"""The search pool's workers run at a lower priority and end with their server, even after ``kill -9``."""

from __future__ import annotations

import asyncio
import os
import subprocess
import time

from tests.ops.harness import Conn, DaphneServer, Player


def children(pid: int) -> list[int]:
    """The live (not zombie) child processes of ``pid``."""
    found = subprocess.run(["pgrep", "-P", str(pid)], capture_output=True, text=True).stdout.split()
    return [int(child) for child in found if alive(int(child))]


def alive(pid: int) -> bool:
    """Whether the process exists and is not a zombie."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


def niceness(pid: int) -> int:
    """The process's nice value, from /proc."""
    with open(f"/proc/{pid}/stat") as stat:
        return int(stat.read().rsplit(")", 1)[1].split()[16])


async def test_the_workers_end_when_their_server_is_killed(tmp_path) -> None:
    server = DaphneServer({"SQLITE_PATH": str(tmp_path / "db.sqlite3")})
    server.migrate()
    server.start()
    try:
        ann = Player(server.base)
        await asyncio.to_thread(ann.login, "Ann")
        table = await asyncio.to_thread(ann.create_table, "agram", 2)
        conn = await Conn.open(server.ws_base, table["ws"], ann)  # the bot driver starts the pool
        await conn.wait_for(lambda m: m.get("type") == "state")
        pid = server.proc.pid
        deadline = time.monotonic() + 30
        workers: list[int] = []
        while len(workers) < 2 and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
            workers = [child for child in children(pid) if niceness(child) >= 10]
        assert len(workers) == 2, f"children of the server: {children(pid)}"
        await conn.close()
        server.kill()  # SIGKILL: the server runs no cleanup
        deadline = time.monotonic() + 10
        while any(alive(worker) for worker in workers) and time.monotonic() < deadline:
            await asyncio.sleep(0.2)
        left = [worker for worker in workers if alive(worker)]
        for worker in left:
            os.kill(worker, 9)
        assert not left, "search workers outlived their server"
    finally:
        server.kill()
