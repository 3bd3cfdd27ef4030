"""Shared test setup: real-service markers that skip (or, in CI, fail) without the service.

Tests marked `redis` need a Redis server, tests marked `postgres` a PostgreSQL
server. On a machine without them they are skipped with the reason; when
`CARDTABLE_REQUIRE_SERVICES=1` (set by `.ci/run`) a missing service is a failure,
so CI cannot go green by skipping them.
"""

from __future__ import annotations

import os
import socket
from urllib.parse import urlparse

import pytest

from tests.browser_fixtures import browser, new_page  # noqa: F401  (one Chromium for every folder)

REDIS_URL = os.environ.get("REDIS_URL") or "redis://127.0.0.1:6379/0"
POSTGRES_URL = (
    os.environ.get("TEST_DATABASE_URL")
    or (os.environ.get("DATABASE_URL") if os.environ.get("DATABASE_URL", "").startswith("postgres") else None)
    or "postgres://postgres@127.0.0.1:5432/test"
)


def _reachable(url: str, default_port: int) -> bool:
    """Whether a TCP connection to the URL's host and port succeeds within a second."""
    parsed = urlparse(url)
    try:
        with socket.create_connection((parsed.hostname or "127.0.0.1", parsed.port or default_port), 1.0):
            return True
    except OSError:
        return False


_SERVICES = {
    "redis": lambda: _reachable(REDIS_URL, 6379),
    "postgres": lambda: _reachable(POSTGRES_URL, 5432),
}
_checked: dict[str, bool] = {}


@pytest.fixture(autouse=True)
def fresh_rate_limits() -> None:
    """Each test starts with full rate-limit buckets: the in-process ones are keyed by address."""
    from cardtable.tables.limits import reset_shared

    reset_shared()


def pytest_runtest_setup(item: pytest.Item) -> None:
    """Skip or fail a test whose real service is not reachable."""
    for name, probe in _SERVICES.items():
        if item.get_closest_marker(name) is None:
            continue
        if name not in _checked:
            _checked[name] = probe()
        if not _checked[name]:
            reason = f"{name} is not reachable ({REDIS_URL if name == 'redis' else POSTGRES_URL})"
            if os.environ.get("CARDTABLE_REQUIRE_SERVICES") == "1":
                pytest.fail(f"CARDTABLE_REQUIRE_SERVICES=1 but {reason}", pytrace=False)
            pytest.skip(reason)
