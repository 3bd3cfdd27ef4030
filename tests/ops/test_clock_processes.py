"""Two Daphne processes sharing PostgreSQL and Redis, one clocked table, nobody moving.

Ann is connected through the first process and Bob through the second, so both
processes watch the table's deadline and both wake when it passes. Exactly one
may act on each deadline: every timeout move must come a whole turn (the
clock) after the one before it, never as a second move for the same deadline.
"""

from __future__ import annotations

import asyncio
import itertools
from collections.abc import Iterator

import pytest

from tests.ops.conftest import POSTGRES_ADMIN_URL, require_binary
from tests.ops.harness import (
    Conn,
    DaphneServer,
    Database,
    FreshPostgres,
    Player,
    RedisServer,
    is_error,
    replay,
)

pytestmark = [pytest.mark.slow, pytest.mark.postgres]

CLOCK = 5


@pytest.fixture
def two_servers() -> Iterator[tuple]:
    """Two Daphnes on one fresh PostgreSQL database and a private Redis."""
    require_binary("redis-server")
    redis = RedisServer()
    redis.start()
    try:
        with FreshPostgres(POSTGRES_ADMIN_URL, "cardtable_ops_clock_race") as url:
            env = {
                "DATABASE_URL": url,
                "REDIS_URL": redis.url,
                "BOT_PAUSE": "0.05",
                "DISCONNECT_GRACE": "3600",
            }
            first, second = DaphneServer(env), DaphneServer(env)
            first.migrate()
            first.start()
            second.start()
            try:
                yield first, second, Database(env)
            finally:
                first.kill()
                second.kill()
    finally:
        redis.stop()


def _timeouts(db: Database, table_id: str) -> list[tuple[int, int, float]]:
    """(seat, version, epoch seconds) of the table's timeout moves, in order."""
    rows = db.query(
        "SELECT m.seat, m.version, EXTRACT(EPOCH FROM m.at) FROM tables_moverecord m "
        "JOIN tables_match g ON g.id = m.match_id WHERE g.table_id = %s AND m.by = 'timeout' ORDER BY m.seq",
        (table_id,),
    )
    return [(int(seat), int(version), float(at)) for seat, version, at in rows]


async def test_two_processes_make_one_timeout_move_per_deadline(two_servers: tuple) -> None:
    first, second, db = two_servers
    ann, bob = Player(first.base), Player(second.base)
    await asyncio.to_thread(ann.login, "Ann")
    await asyncio.to_thread(bob.login, "Bob")
    table = await asyncio.to_thread(
        ann.call, "POST", "/api/tables/", {"game": "agram", "players": 2, "clock": CLOCK}
    )
    assert table["clock"] == CLOCK
    conns = [
        await Conn.open(first.ws_base, table["ws"], ann),
        await Conn.open(second.ws_base, table["ws"], bob),
    ]
    for i, conn in enumerate(conns):
        await conn.wait_for(lambda m: m.get("type") == "state", 30)
        reply = await conn.request(
            {"type": "sit", "seat": i},
            lambda m, i=i: is_error(m) or (m.get("type") == "state" and m["you"]["seat"] == i),
            30,
        )
        assert reply["type"] == "state", reply
    started = await conns[0].request(
        {"type": "start"}, lambda m: is_error(m) or (m.get("type") == "state" and m["table"]["deadline"]), 30
    )
    assert started["type"] == "state", started
    # Nobody moves: wait for three deadlines to pass.
    deadline = asyncio.get_running_loop().time() + 6 * CLOCK
    while len(moves := await asyncio.to_thread(_timeouts, db, table["id"])) < 3:
        assert asyncio.get_running_loop().time() < deadline, f"only {moves} after {6 * CLOCK}s"
        await asyncio.sleep(0.2)
    first_three = moves[:3]
    for (_, version, at), (_, next_version, next_at) in itertools.pairwise(first_three):
        # One move per deadline: the next timeout waits a whole turn, it does not follow at once.
        assert next_at - at > CLOCK - 1, moves
        assert next_version == version + 1, moves
    row, _ = replay(db, table["id"])
    assert row["replayed"] == row["state"]
    # Both players saw the server say whom it moved for.
    for conn in conns:
        assert any(m.get("type") == "state" and m["table"]["last_timeout"] for m in conn.messages)
        await conn.close()
