"""Run pytest on PostgreSQL and Redis: ``python -m tests.on_services tests/server tests/ratings``.

`make test` runs the server, dashboard and ratings suites a second time this way, so every
query, row lock and channel-layer message they make also runs on the real
backends, and a failing test is named in the output like any other. The settings
reach the tests through the environment (cardtable/settings.py):

- ``DATABASE_URL``: the PostgreSQL server of ``TEST_DATABASE_URL`` (default
  ``postgres://postgres@127.0.0.1:5432/test``), with ``TEST_DATABASE_NAME`` unique to
  this run so parallel runs on one server do not collide; the test database is
  dropped afterwards even if pytest is interrupted;
- ``REDIS_URL`` (default ``redis://127.0.0.1:6379/0``), with a channel prefix unique
  to this run;
- ``CONN_MAX_AGE=0``: worker threads keep no connection open, so the test database
  can be dropped.

Tests marked ``postgres`` or ``redis`` are left out: the first run already uses the
servers for them. Without the servers the step is skipped with the reason, and
fails instead under ``CARDTABLE_REQUIRE_SERVICES=1`` (CI). The exit code is
pytest's (5 when nothing was collected).
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys

from tests.conftest import POSTGRES_URL, REDIS_URL, reachable


def main(args: list[str]) -> int:
    """Run ``pytest args`` against the authority; return its exit code (1 if a required service is down)."""
    down = [
        f"{name} at {url}"
        for name, url, port in (("PostgreSQL", POSTGRES_URL, 5432), ("Redis", REDIS_URL, 6379))
        if not reachable(url, port)
    ]
    if down:
        reason = f"not reachable: {', '.join(down)}"
        if os.environ.get("CARDTABLE_REQUIRE_SERVICES") == "1":
            print(f"on_services: CARDTABLE_REQUIRE_SERVICES=1 but {reason}", file=sys.stderr)
            return 1
        print(f"on_services: SKIPPED {' '.join(args)} on PostgreSQL + Redis, {reason}")
        return 0
    run = secrets.token_hex(4)
    database = f"cardtable_test_{run}"
    env = {
        **os.environ,
        "DATABASE_URL": POSTGRES_URL,
        "TEST_DATABASE_NAME": database,
        "REDIS_URL": REDIS_URL,
        "CHANNEL_PREFIX": f"cardtable-test-{run}",
        "CONN_MAX_AGE": "0",
    }
    print(
        f"on_services: {' '.join(args)} on PostgreSQL (database {database}) and Redis ({REDIS_URL})",
        flush=True,
    )
    command = [sys.executable, "-m", "pytest", "-m", "not postgres and not redis", *args]
    try:
        return subprocess.run(command, env=env).returncode
    finally:
        _drop(database)


def _drop(database: str) -> None:
    """Drop the run's test database if pytest left it behind (interrupted, or a crash)."""
    import psycopg

    with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
        admin.execute(f'DROP DATABASE IF EXISTS "{database}" WITH (FORCE)')


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
