"""An HTTP request served over ASGI leaves no database connection open behind it.

Django's ASGI handler runs each request's sync code on a thread of its own, and a
connection lives in its thread's storage: with persistent connections
(``CONN_MAX_AGE``) it was left open when the thread ended, until the collector
happened to free its wrapper (a reference cycle). 1,000 players arriving left
dozens of PostgreSQL connections open that way (docs/performance.md). The
collector is off while the requests run, so nothing here depends on its timing.
"""

from __future__ import annotations

import asyncio
import gc
from typing import Any

import pytest
from django.db import connections
from django.db.backends.base.base import BaseDatabaseWrapper

from cardtable.asgi import django_asgi_app


def open_connections() -> list[BaseDatabaseWrapper]:
    """Database connections open in this process, whichever thread or context holds them."""
    return [o for o in gc.get_objects() if isinstance(o, BaseDatabaseWrapper) and o.connection is not None]


async def get(path: str) -> int:
    """One GET through Django's ASGI application, as Daphne would make it; its status."""
    sent: list[dict[str, Any]] = []
    asked = False

    async def receive() -> dict[str, Any]:
        nonlocal asked
        if not asked:
            asked = True
            return {"type": "http.request", "body": b"", "more_body": False}
        await asyncio.Future()  # the client stays connected
        raise AssertionError("unreachable")

    async def send(message: dict[str, Any]) -> None:
        sent.append(message)

    scope = {
        "type": "http",
        "asgi": {"version": "3.0"},
        "http_version": "1.1",
        "method": "GET",
        "scheme": "http",
        "path": path,
        "raw_path": path.encode(),
        "query_string": b"",
        "root_path": "",
        "headers": [(b"host", b"testserver")],
        "client": ("127.0.0.1", 50000),
        "server": ("testserver", 80),
    }
    await django_asgi_app(scope, receive, send)
    return next(m["status"] for m in sent if m["type"] == "http.response.start")


@pytest.mark.django_db(transaction=True)
def test_http_requests_leave_no_database_connection_open(monkeypatch: pytest.MonkeyPatch) -> None:
    # SQLite's in-memory test database ignores close() (closing would drop the
    # database), so a connection counts as left open unless close() was called on it.
    closed: set[int] = set()
    backend = type(connections["default"])  # the vendor's wrapper class: it has its own close()
    close = backend.close

    def recording_close(self: BaseDatabaseWrapper) -> None:
        closed.add(id(self))
        close(self)

    monkeypatch.setattr(backend, "close", recording_close)
    gc.collect()
    gc.disable()  # what the collector would free some time later must not hide a leak
    try:
        before = {id(conn) for conn in open_connections()}
        statuses = [asyncio.run(get("/api/tables/")) for _ in range(10)]
        left = [conn for conn in open_connections() if id(conn) not in before | closed]
    finally:
        gc.enable()
    assert statuses == [200] * 10
    assert left == [], f"{len(left)} connections left open by 10 requests"
