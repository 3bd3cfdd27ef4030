"""A restart with 200 sockets connected: the gate refuses what it cannot serve in time, and all come back.

Fifty Hearts tables of four guests (200 websockets) on one Daphne (PostgreSQL,
a private Redis), a few moves each, one more in flight at every table, then
``kill -9`` and a new Daphne on the same port (``bench/restart.py``'s storm,
the page's own backoff). The gate is set narrow (two handshakes at work, half
a second's wait) so that a storm of this size must be refused in part on any
machine. What must hold:

- every socket gets its seat's state back, each refused client coming back at
  the slot it was given;
- handshakes were refused with a retry time (the gate did act), and no
  handshake's work was thrown away: Daphne rejected none for its handshake
  timeout and killed no application instance that outlived its client (the
  collapse of issue #39 did both by the thousand);
- no acknowledged move is lost, none is in the log twice, every table's log
  replays to its stored state, and the games go on.
"""

from __future__ import annotations

import asyncio
import random
import re

import pytest

from bench.restart import play_some, seat_all, storm
from tests.ops.harness import DaphneServer, RedisServer

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

TABLES = 50


@pytest.fixture
def postgres_db(request: pytest.FixtureRequest):
    """A fresh PostgreSQL database for the server, dropped afterwards."""
    from tests.ops.conftest import POSTGRES_ADMIN_URL
    from tests.ops.harness import FreshPostgres

    with FreshPostgres(POSTGRES_ADMIN_URL, f"cardtable_ops_storm_{id(request) % 100000}") as url:
        yield url


async def test_a_refused_storm_comes_back_whole_with_no_work_wasted(postgres_db: str) -> None:
    redis = RedisServer()
    redis.start()
    env = {
        "DATABASE_URL": postgres_db,
        "REDIS_URL": redis.url,
        "BOT_PAUSE": "0",
        "DISCONNECT_GRACE": "3600",
    }
    server = DaphneServer(env)
    try:
        await asyncio.to_thread(server.migrate)
        await asyncio.to_thread(server.start)
        tables = await seat_all(server, TABLES)
        for table in tables:
            await play_some(table, 1, random.Random(7))
        # The new process's gate is narrow (the seating went through the default one).
        server.env |= {"CONNECT_CONCURRENCY": "2", "CONNECT_WAIT": "0.5"}
        before = server.log_path.read_text(errors="replace")
        figures = await storm(server, tables, give_up=150, seed=3)
        log = server.log_path.read_text(errors="replace")[len(before) :]
    finally:
        server.kill()
        redis.stop()
    print("\n".join(figures.lines()))
    assert figures.back == figures.sockets == 4 * TABLES, figures.lines()
    assert figures.refused > 0, "the gate never refused: the storm did not test it"
    assert figures.lost == 0 and figures.duplicated == 0 and figures.replay_mismatches == 0, figures.lines()
    assert figures.played_after == TABLES, figures.lines()
    # No work thrown away: Daphne rejected no handshake for its timeout, killed no instance.
    killed = [line for line in log.splitlines() if "took too long" in line and "WebSocketProtocol" in line]
    assert not killed, killed[:3]
    assert not re.search(r"WSREJECT", log)
    assert "connect storm:" in log  # the gate said what it did
