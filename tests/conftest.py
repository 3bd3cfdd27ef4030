"""Shared test setup: real-service markers that skip (or, in CI, fail) without the service.

Tests marked `redis` need a Redis server, tests marked `postgres` a PostgreSQL
server. On a machine without them they are skipped with the reason; when
`CARDTABLE_REQUIRE_SERVICES=1` (set by `.ci/run`) a missing service is a failure,
so CI cannot go green by skipping them (tests/required.py, which the tests reading
`../shared/seeds/` follow too).

Every test that drives Chromium lives in tests/browser/ (its own pytest process in
`make test`; see tests/browser/conftest.py): a test marked `browser` anywhere else
stops the collection.
"""

from __future__ import annotations

import os
import secrets
import socket
from pathlib import Path
from urllib.parse import urlparse

import pytest

from tests.required import missing

REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
POSTGRES_URL = (
    os.environ.get("TEST_DATABASE_URL")
    or (os.environ.get("DATABASE_URL") if os.environ.get("DATABASE_URL", "").startswith("postgres") else None)
    or "postgres://postgres@127.0.0.1:5432/test"
)


def reachable(url: str, default_port: int) -> bool:
    """Whether a TCP connection to the URL's host and port succeeds within a second."""
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or default_port), 1.0):
            return True
    except OSError:
        return False


_SERVICES = {
    "redis": lambda: reachable(REDIS_URL, 6379),
    "postgres": lambda: reachable(POSTGRES_URL, 5432),
}
_checked: dict[str, bool] = {}


@pytest.fixture(autouse=True)
def fresh_rate_limits(settings) -> None:
    """Each test counts its rate limits afresh: a key prefix of its own (a shared Redis is never flushed)."""
    limits = dict(settings.CACHES["limits"])
    limits["KEY_PREFIX"] = f"{limits.get('KEY_PREFIX', '')}:test-{secrets.token_hex(4)}"
    settings.CACHES = {**settings.CACHES, "limits": limits}


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip or fail a test whose real service is not reachable."""
    for name, probe in _SERVICES.items():
        if item.get_closest_marker(name) is None:
            continue
        if name not in _checked:
            _checked[name] = probe()
        if not _checked[name]:
            missing(f"{name} is not reachable ({REDIS_URL if name == 'redis' else POSTGRES_URL})")


BROWSER_DIR = Path(__file__).resolve().parent / "browser"


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """Mark every test in tests/browser/ `browser`; refuse a `browser` test anywhere else."""
    stray = []
    for item in items:
        if BROWSER_DIR in item.path.parents:
            item.add_marker(pytest.mark.browser)
        elif item.get_closest_marker("browser"):
            stray.append(item.nodeid)
    if stray:
        raise pytest.UsageError(f"browser tests belong in tests/browser/: {', '.join(stray)}")
