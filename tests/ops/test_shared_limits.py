"""Two server processes on one Redis share one rate limit, and a restart keeps the count.

Two Daphne processes share a fresh PostgreSQL database and the Redis of
``REDIS_URL`` (under a key prefix of this test's own, so nothing else there is
touched), as a scaled deployment does; rate limits on. One session creates
tables through both in turn: together they allow the player's limit once, not
once per process. Then both are killed and one starts again: the count is still
there.
"""

from __future__ import annotations

import os
import secrets

import pytest

from tests.conftest import REDIS_URL
from tests.ops.conftest import POSTGRES_ADMIN_URL
from tests.ops.harness import DaphneServer, FreshPostgres, Player

pytestmark = [pytest.mark.slow, pytest.mark.redis, pytest.mark.postgres]

TABLES_PER_PLAYER = 5  # settings.RATE_LIMITS["table"]["player"]: 5 per 150 s


def create_table(player: Player, server: DaphneServer) -> int:
    """POST /api/tables/ through ``server`` with the player's session; return the status."""
    player.base = server.base  # the session cookie is the host's, whatever the port
    return player.request("POST", "/api/tables/", {"game": "hearts"})[0]


def test_two_processes_share_one_limit_and_a_restart_keeps_the_count() -> None:
    with FreshPostgres(POSTGRES_ADMIN_URL, f"cardtable_ops_limits_{os.getpid()}") as url:
        env = {
            "DATABASE_URL": url,
            "REDIS_URL": REDIS_URL,
            "CHANNEL_PREFIX": f"cardtable-ops-limits-{secrets.token_hex(4)}",
            "RATE_LIMITS": "1",
            "OPEN_TABLES_PER_PLAYER": "100",  # only the rate limit applies
        }
        first, second = DaphneServer(env), DaphneServer(env)
        first.migrate()
        first.start()
        second.start()
        try:
            ann = Player(first.base)
            ann.login("Ann")
            codes = [create_table(ann, (first, second)[n % 2]) for n in range(4 * TABLES_PER_PLAYER)]
            assert codes.count(201) == TABLES_PER_PLAYER, codes
            assert set(codes[TABLES_PER_PLAYER:]) == {429}
            first.kill()
            second.kill()
            first.start()  # a restart: the count is in Redis, not in the process
            assert create_table(ann, first) == 429
            other = Player(first.base)  # the limit is the player's: another session may
            other.login("Bob")
            assert create_table(other, first) == 201
        finally:
            first.kill()
            second.kill()
