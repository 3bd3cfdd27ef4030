"""Fixtures for the server tests: fast settings, players with sessions, websocket clients."""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import channel_layers
from channels.testing import WebsocketCommunicator
from django.contrib.sessions.backends.db import SessionStore
from django.db import connections

from cardtable.tables.autoplay.driver import driver
from cardtable.tables.live import sockets
from cardtable.tables.models import Player
from cardtable.tables.players.identity import SESSION_KEY


@pytest.fixture(autouse=True)
def fast_tables(settings: Any) -> Any:
    """Bots move at once; each test gets a fresh channel layer and bot driver."""
    settings.BOT_PAUSE = 0
    settings.STAND_IN_LEVEL = "random"
    channel_layers.backends.clear()
    driver.reset()
    sockets.clear()
    yield settings
    driver.reset()
    sockets.clear()
    channel_layers.backends.clear()


def make_player(name: str) -> tuple[Player, str]:
    """Create a guest player and a session holding it; return it and its cookie header."""
    player = Player.objects.create(name=name)
    session = SessionStore()
    session[SESSION_KEY] = player.pk
    session.create()
    return player, f"sessionid={session.session_key}"


OPEN: list[Client] = []


@pytest.fixture(autouse=True)
async def close_clients(django_db_blocker: Any) -> Any:
    """Close the clients a test left open and let the server settle before the database is flushed."""
    yield
    while OPEN:
        await OPEN.pop().close()
    driver.reset()
    await asyncio.sleep(0.05)
    # The worker thread's connection must go, or PostgreSQL cannot drop the test database.
    # Unblocked: after a test without the database, the thread may still hold an earlier
    # test's connection, and closing it checks it first.
    with django_db_blocker.unblock():
        await database_sync_to_async(connections.close_all)()


class Client:
    """A websocket client at one table, keeping every message it received."""

    def __init__(
        self,
        table_id: str,
        cookie: str | None = None,
        origin: bytes = b"http://testserver",
        host: bytes = b"testserver",
        extra: list[tuple[bytes, bytes]] | None = None,
    ) -> None:
        from cardtable.asgi import application

        headers = [(b"origin", origin), (b"host", host), *(extra or [])]
        if cookie:
            headers.append((b"cookie", cookie.encode()))
        self.comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
        self.messages: list[dict] = []
        self.state: dict | None = None

    async def connect(self) -> Client:
        """Open the websocket and read the first state."""
        connected, _ = await self.comm.connect(timeout=10)
        assert connected
        OPEN.append(self)
        await self.next_state()
        return self

    async def send(self, message: dict | str) -> None:
        """Send a message (a dict as JSON, a str as is)."""
        await self.comm.send_to(text_data=message if isinstance(message, str) else json.dumps(message))

    async def receive(self, timeout: float = 10) -> dict:
        """Return the next message."""
        message = json.loads(await self.comm.receive_from(timeout=timeout))
        self.messages.append(message)
        if message["type"] == "state":
            self.state = message
        return message

    async def next_state(self, timeout: float = 10) -> dict:
        """Return the next state message."""
        while True:
            message = await self.receive(timeout)
            if message["type"] == "state":
                return message

    async def until(self, predicate: Any, timeout: float = 10) -> dict:
        """Receive until a message satisfies ``predicate``; return it."""
        async with asyncio.timeout(timeout):
            while True:
                message = await self.receive(timeout)
                if predicate(message):
                    return message

    async def error(self, timeout: float = 10) -> dict:
        """Return the next error message."""
        return await self.until(lambda m: m["type"] == "error", timeout)

    async def quiet(self, wait: float = 0.2) -> None:
        """Read every message that arrives within ``wait`` seconds."""
        while not await self.comm.receive_nothing(timeout=wait):
            await self.receive()

    async def close(self) -> None:
        """Close the websocket."""
        if self in OPEN:
            OPEN.remove(self)
        await self.comm.disconnect()


async def new_player(name: str) -> tuple[Player, str]:
    """``make_player`` from async code."""
    return await database_sync_to_async(make_player)(name)
