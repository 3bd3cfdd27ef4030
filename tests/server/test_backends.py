"""The server suite on the real services, and a check that each run uses the backends it was given.

``test_server_suite_on_postgres_and_redis`` runs this whole directory again in
a child pytest with ``DATABASE_URL`` (a fresh test database on the PostgreSQL
server) and ``REDIS_URL`` set, so every websocket, race and recovery test also
runs against PostgreSQL's row locks and Redis' channel layer. It is marked, so
it skips with a reason where the services are missing, and fails in CI
(``CARDTABLE_REQUIRE_SERVICES=1``).
"""

from __future__ import annotations

import os
import secrets
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from channels.layers import get_channel_layer
from django.conf import settings
from django.db import connection

from tests.conftest import POSTGRES_URL, REDIS_URL

ROOT = Path(__file__).resolve().parents[2]


def test_the_configured_backends_are_the_ones_in_use() -> None:
    url = os.environ.get("DATABASE_URL", "")
    expected = "postgresql" if url.startswith("postgres") else "sqlite" if not url else connection.vendor
    assert connection.vendor == expected
    layer = type(get_channel_layer()).__name__
    assert layer == ("RedisChannelLayer" if os.environ.get("REDIS_URL") else "InMemoryChannelLayer")
    assert settings.CHANNEL_LAYERS["default"]["BACKEND"].endswith(layer)


@pytest.mark.postgres
@pytest.mark.redis
@pytest.mark.slow
def test_server_suite_on_postgres_and_redis() -> None:
    run = secrets.token_hex(4)
    env = {
        **os.environ,
        "DATABASE_URL": POSTGRES_URL,
        "TEST_DATABASE_NAME": f"cardtable_test_{run}",
        "REDIS_URL": REDIS_URL,
        "CHANNEL_PREFIX": f"cardtable-test-{run}",
        # Worker threads must not keep connections open, or the test database cannot be dropped.
        "CONN_MAX_AGE": "0",
    }
    # The settings tests start their own processes with their own environment: no backend in them.
    command = [sys.executable, "-m", "pytest", "tests/server", "-q", "-p", "no:cacheprovider",
               "-m", "not postgres and not redis", "--ignore=tests/server/test_settings.py"]  # fmt: skip
    try:
        result = subprocess.run(command, cwd=ROOT, env=env, capture_output=True, text=True, timeout=900)
    finally:  # never leave a test database behind on the shared server
        with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{env["TEST_DATABASE_NAME"]}" WITH (FORCE)')
    summary = result.stdout.strip().splitlines()[-1] if result.stdout.strip() else ""
    assert result.returncode == 0, result.stdout[-6000:] + result.stderr[-3000:]
    assert " passed" in summary and "skipped" not in summary and "warning" not in summary, summary
    print(f"server suite on PostgreSQL + Redis: {summary}")
