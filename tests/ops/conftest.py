"""Fixtures for the out-of-process tests: a database for a Daphne subprocess of the test's own."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest

from tests.ops.harness import FreshPostgres

POSTGRES_ADMIN_URL = os.environ.get("TEST_DATABASE_URL") or "postgres://postgres@127.0.0.1:5432/test"


def require_binary(name: str) -> str:
    """The program's path; skip without it, or fail under CI, where it must be installed.

    Daemons such as nginx install to /usr/sbin, which is not on a Debian user's PATH:
    look there too.
    """
    found = shutil.which(name) or shutil.which(name, path="/usr/local/sbin:/usr/sbin:/sbin")
    if found:
        return found
    if os.environ.get("CI") == "true" or os.environ.get("CARDTABLE_REQUIRE_SERVICES") == "1":
        pytest.fail(f"{name} is not installed, and CI must run this test", pytrace=False)
    pytest.skip(f"{name} is not installed")


@pytest.fixture(params=["sqlite", pytest.param("postgres", marks=pytest.mark.postgres)])
def server_db(request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict]:
    """Settings for a server's database: a SQLite file, or a fresh PostgreSQL database dropped after."""
    if request.param == "sqlite":
        yield {"SQLITE_PATH": str(tmp_path_factory.mktemp("db") / "db.sqlite3")}
        return
    name = f"cardtable_ops_{os.getpid()}_{request.node.name}".lower()
    name = "".join(ch if ch.isalnum() else "_" for ch in name)[:60]
    with FreshPostgres(POSTGRES_ADMIN_URL, name) as url:
        yield {"DATABASE_URL": url}
