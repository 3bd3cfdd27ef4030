"""Two Daphne processes sharing PostgreSQL and Redis, and a real crash and restart.

Two servers on their own free ports share a fresh PostgreSQL database (created
and dropped here) and Redis (a channel prefix of their own). Ann plays through
one, Bob through the other: every move made through one server must reach the
client on the other. Then both servers are killed while a bot's turn is
pending; one is started again with no client connected, and the bot must move
on by itself, with nothing lost or repeated in the log.
"""

from __future__ import annotations

import asyncio
import http.cookiejar
import json
import os
import secrets
import subprocess
import sys
import tempfile
import time
import urllib.request
from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlparse, urlunparse

import psycopg
import pytest
import websockets

from tests.conftest import POSTGRES_URL, REDIS_URL
from tests.support.daphne import free_port, start_daphne, stop

ROOT = Path(__file__).resolve().parents[2]
pytestmark = [pytest.mark.postgres, pytest.mark.redis, pytest.mark.slow]


def with_database(url: str, name: str) -> str:
    """The URL with another database name."""
    return urlunparse(urlparse(url)._replace(path=f"/{name}"))


class Server:
    """One Daphne process of the card table."""

    def __init__(self, env: dict[str, str], logs: Path) -> None:
        self.env, self.logs = env, logs
        self.port = free_port()
        self.process: subprocess.Popen | None = None

    def start(self, **extra: str) -> Server:
        """Start Daphne and wait until it answers HTTP."""
        self.process = start_daphne(self.port, {**self.env, **extra}, self.logs / f"daphne-{self.port}.log")
        return self

    def kill(self) -> None:
        """Kill the process at once, as a crash would."""
        stop(self.process, wait=10)

    def log(self) -> str:
        """The server's output so far."""
        return (self.logs / f"daphne-{self.port}.log").read_text()[-4000:]

    @property
    def http(self) -> str:
        """The server's base URL."""
        return f"http://127.0.0.1:{self.port}"


class Person:
    """A browser-like HTTP client with its cookies, and its websocket."""

    def __init__(self, server: Server) -> None:
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.server = server
        self.socket = None
        self.state: dict = {}

    def call(self, method: str, path: str, data: object = None) -> dict:
        """Make a JSON API call, with the CSRF token on a POST."""
        headers = {"Content-Type": "application/json", "Origin": self.server.http}
        if method == "POST":
            headers["X-CSRFToken"] = self.call("GET", "/api/session/")["csrf_token"]
        body = None if data is None else json.dumps(data).encode()
        request = urllib.request.Request(self.server.http + path, body, headers, method=method)
        return json.loads(self.opener.open(request, timeout=10).read())

    async def connect(self, server: Server, table_id: str) -> None:
        """Open the table's websocket on ``server`` with this person's session."""
        cookies = "; ".join(f"{c.name}={c.value}" for c in self.jar)
        self.socket = await websockets.connect(
            f"ws://127.0.0.1:{server.port}/ws/tables/{table_id}/",
            additional_headers={"Cookie": cookies},
            origin=server.http,
        )
        self.state = {}
        await self.until(lambda m: True)

    async def until(self, predicate: Callable[[dict], bool], timeout: float = 20) -> dict:
        """Return the latest state if it satisfies ``predicate``, else read states until one does."""
        if self.state and predicate(self.state):
            return self.state
        async with asyncio.timeout(timeout):
            while True:
                message = json.loads(await self.socket.recv())
                assert message["type"] != "error", message
                if message["type"] == "state":
                    self.state = message
                    if predicate(message):
                        return message

    async def send(self, message: dict) -> None:
        """Send a message."""
        await self.socket.send(json.dumps(message))


@pytest.fixture
def cluster(tmp_path: Path):
    """A fresh database, migrated; yields the environment for the servers, then drops it."""
    name = f"cardtable_e2e_{secrets.token_hex(4)}"
    with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
        admin.execute(f'CREATE DATABASE "{name}"')
    env = {
        **os.environ,
        "DATABASE_URL": with_database(POSTGRES_URL, name),
        "REDIS_URL": REDIS_URL,
        "CHANNEL_PREFIX": f"cardtable-e2e-{name}",
        "DEBUG": "0",
        "SECRET_KEY": secrets.token_hex(32),
        "SECURE_COOKIES": "0",  # plain http on the loopback
        "ALLOWED_HOSTS": "127.0.0.1,localhost",
        "STATIC_ROOT": tempfile.mkdtemp(),
    }
    env.pop("DJANGO_SETTINGS_MODULE", None)
    env.pop("TEST_DATABASE_NAME", None)
    migrate = subprocess.run([sys.executable, "manage.py", "migrate", "--noinput"], cwd=ROOT, env=env,
                             capture_output=True, text=True, timeout=120)  # fmt: skip
    assert migrate.returncode == 0, migrate.stderr
    servers: list[Server] = []
    try:
        yield env, servers, with_database(POSTGRES_URL, name)
    finally:
        for server in servers:
            server.kill()
        with psycopg.connect(POSTGRES_URL, autocommit=True) as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def table_version(url: str, table_id: str) -> int:
    """The table's version, read straight from the database."""
    with psycopg.connect(url) as db:
        return db.execute("SELECT version FROM tables_table WHERE id = %s", (table_id,)).fetchone()[0]


def log_rows(url: str, table_id: str) -> list[tuple]:
    """(seq, version, seat, by) of the table's logged moves."""
    with psycopg.connect(url) as db:
        return db.execute(
            "SELECT m.seq, m.version, m.seat, m.by FROM tables_moverecord m"
            " JOIN tables_match g ON m.match_id = g.id WHERE g.table_id = %s ORDER BY m.seq",
            (table_id,),
        ).fetchall()


async def play_human_turns(ann: Person, bob: Person, stop_when_bot_acts: bool) -> int:
    """Each human moves through their own server; the other must see it. Returns moves checked."""
    people = {0: ann, 1: bob}
    checked = 0
    while ann.state["table"]["status"] == "playing":
        acting = ann.state["to_act"]
        if acting == [2]:
            if stop_when_bot_acts and checked:
                return checked
            version = ann.state["version"]
            await ann.until(lambda m, v=version: m["version"] > v)
            continue
        mover, watcher = people[acting[0]], people[1 - acting[0]]
        await mover.until(lambda m, v=ann.state["version"]: m["version"] >= v)
        move, version = mover.state["legal_moves"][0], mover.state["version"]
        await mover.send({"type": "move", "move": move, "version": version})
        seen = await watcher.until(lambda m, v=version: m["version"] > v)
        # The move reached the other server's client (``last`` is null when it ended a deal).
        assert (
            seen["view"]["last"] in ({"seat": acting[0], "move": move}, None) or seen["version"] > version + 1
        )
        await ann.until(lambda m, v=version: m["version"] > v)
        checked += 1
    return checked


async def test_two_servers_share_a_table_and_a_restart_loses_nothing(cluster) -> None:
    env, servers, url = cluster
    logs = Path(tempfile.mkdtemp())
    one, two = Server(env, logs), Server(env, logs)
    servers += [one, two]
    one.start(BOT_PAUSE="2")
    two.start(BOT_PAUSE="2")
    ann, bob = Person(one), Person(two)
    ann.call("POST", "/api/session/", {"name": "Ann"})
    bob.call("POST", "/api/session/", {"name": "Bob"})
    table = ann.call("POST", "/api/tables/", {"game": "agram", "players": 3, "options": {"target": 3}})
    await ann.connect(one, table["id"])
    await bob.connect(two, table["id"])
    # A real server passes an oversized frame to the consumer (Daphne allows 1 MB), which refuses it.
    await ann.socket.send("x" * 20_000)
    answer = json.loads(await ann.socket.recv())
    while answer["type"] != "error":  # a state may come first (Bob's arrival wakes the table)
        answer = json.loads(await ann.socket.recv())
    assert answer["code"] == "too_large"
    await ann.send({"type": "sit", "seat": 0})
    # Ann sat through server one; Bob, on server two, sees it.
    await bob.until(lambda m: m["table"]["seats"][0]["name"] == "Ann")
    await bob.send({"type": "sit", "seat": 1})
    await ann.until(lambda m: m["table"]["seats"][1]["name"] == "Bob")
    await ann.send({"type": "bot", "seat": 2, "level": "random"})
    await ann.send({"type": "start"})
    await bob.until(lambda m: m["table"]["status"] == "playing")
    await ann.until(lambda m: m["table"]["status"] == "playing")
    checked = await play_human_turns(ann, bob, stop_when_bot_acts=True)
    assert checked >= 1

    # Both servers die while the bot's turn is pending (it waits 2 s).
    version = ann.state["version"]
    one.kill()
    two.kill()
    rows = log_rows(url, table["id"])
    assert rows[-1][1] == version  # every move the clients saw was committed; nothing more
    # One server comes back. Nobody is at the table, so its bot stays paused
    # (docs/protocol.md, "Tables that pause and end") ...
    one.start(BOT_PAUSE="0.05")
    await asyncio.sleep(1.5)
    assert table_version(url, table["id"]) == version, one.log()
    # ... until Ann comes back through it: the bot then plays on.
    ann.server = one
    await ann.connect(one, table["id"])
    deadline = time.monotonic() + 20
    # (Watch the database: the bot's move is the driver's, resumed by Ann's return.)
    while table_version(url, table["id"]) == version:
        assert time.monotonic() < deadline, one.log()
        await asyncio.sleep(0.2)
    two.start(BOT_PAUSE="0.05")
    # Bob comes back through the other server, and both play to the end.
    bob.server = two
    await bob.connect(two, table["id"])
    checked += await play_human_turns(ann, bob, stop_when_bot_acts=False)
    assert ann.state["table"]["status"] == "finished"
    final = await bob.until(lambda m: m["table"]["status"] == "finished")
    assert final["version"] == ann.state["version"] and final["view"]["result"]
    rows = log_rows(url, table["id"])
    seqs = [row[0] for row in rows]
    assert seqs == list(range(1, len(rows) + 1))
    assert [row[1] for row in rows] == list(range(rows[0][1], rows[0][1] + len(rows)))
    assert any(row[3] == "bot" for row in rows) and checked >= 3
    for person in (ann, bob):
        await person.socket.close()
