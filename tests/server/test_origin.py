"""The websocket's Origin must be the site's own: scheme, host and port (docs/security.md S8)."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from tests.server.conftest import Client
from tests.server.test_errors import playing_table

pytestmark = pytest.mark.django_db(transaction=True)


async def opens(table_id: str, origin: str, host: str, extra: list | None = None) -> bool:
    """Whether a handshake with this Origin, sent to this Host, is accepted."""
    client = Client(table_id, origin=origin.encode(), host=host.encode(), extra=extra)
    connected, _ = await client.comm.connect(timeout=10)
    if connected:
        await client.comm.disconnect()
    return connected


@pytest.mark.parametrize(
    "origin",
    [
        "http://127.0.0.1:9999",  # another port on the same machine
        "https://127.0.0.1",  # another scheme (and port)
        "https://127.0.0.1:8822",  # another scheme, the same port
        "http://127.0.0.1",  # port 80
        "ws://127.0.0.1:8822",
        "http://localhost:8822",  # an allowed host, but not the one asked
        "http://127.0.0.1:8822/path",
        "http://127.0.0.1:notaport",
        "http://evil.example:8822",
        "null",
        "",
    ],
)
async def test_an_origin_differing_in_scheme_host_or_port_is_refused(origin: str) -> None:
    table, _ = await database_sync_to_async(playing_table)()
    assert not await opens(table.pk, origin, "127.0.0.1:8822")


async def test_the_sites_own_origin_is_accepted() -> None:
    table, _ = await database_sync_to_async(playing_table)()
    assert await opens(table.pk, "http://127.0.0.1:8822", "127.0.0.1:8822")
    assert await opens(table.pk, "HTTP://LocalHost:8822", "localhost:8822")
    assert await opens(table.pk, "http://testserver", "testserver")
    assert await opens(table.pk, "http://testserver:80", "testserver")


async def test_behind_the_https_proxy_the_origin_is_https(settings) -> None:
    settings.SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    table, _ = await database_sync_to_async(playing_table)()
    proxied = [(b"x-forwarded-proto", b"https")]
    assert await opens(table.pk, "https://testserver", "testserver", proxied)
    assert not await opens(table.pk, "http://testserver", "testserver", proxied)
    assert not await opens(table.pk, "https://testserver", "testserver")  # plain http: the origin is http


async def test_a_trusted_origin_is_accepted_exactly(settings) -> None:
    settings.CSRF_TRUSTED_ORIGINS = ["https://cards.example:8443"]
    table, _ = await database_sync_to_async(playing_table)()
    assert await opens(table.pk, "https://cards.example:8443", "testserver")
    assert not await opens(table.pk, "https://cards.example", "testserver")
    assert not await opens(table.pk, "http://cards.example:8443", "testserver")
