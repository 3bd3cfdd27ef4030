"""Drive a real server from outside: start Daphne (and Redis) as subprocesses, talk HTTP and websockets.

Used by the fault and fuzz tests in this folder and by `bench/load.py`. Everything
goes over loopback, as any outside client would: the JSON API of PROTOCOL.md for
identity and tables, then the table's websocket with the session cookie.
"""

from __future__ import annotations

import asyncio
import contextlib
import http.cookiejar
import json
import os
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.error
import urllib.parse
import urllib.request
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidMessage

from tests.support.daphne import ROOT, free_port, log_tail, start_daphne, stop

__all__ = ["ROOT", "free_port"]  # the ops tests and bench/load.py take them from here


def wait_port(port: int, timeout: float) -> bool:
    """Wait until something accepts TCP connections on 127.0.0.1:port."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        try:
            with socket.create_connection(("127.0.0.1", port), 0.2):
                return True
        except OSError:
            time.sleep(0.05)
    return False


@dataclass
class RedisServer:
    """A private redis-server on a free loopback port (never the system one on 6379)."""

    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None

    @property
    def url(self) -> str:
        """The URL for REDIS_URL."""
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        """Start it in the foreground of a child process and wait until it accepts connections."""
        self.proc = subprocess.Popen(
            [
                "redis-server",
                "--port",
                str(self.port),
                "--bind",
                "127.0.0.1",
                "--save",
                "",
                "--appendonly",
                "no",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        if not wait_port(self.port, 10):
            raise RuntimeError(f"redis-server did not start on port {self.port}")

    def stop(self) -> None:
        """Kill it (SIGKILL: no goodbye to clients, as in a crash) and reap it."""
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait(10)
        self.proc = None


@dataclass
class DaphneServer:
    """One Daphne process serving the project, with settings passed through the environment."""

    env: dict[str, str]
    port: int = field(default_factory=free_port)
    proc: subprocess.Popen | None = None
    log_path: Path | None = None
    # Daphne's own options, such as ["--proxy-headers"] (the docs' deployments run it with that).
    args: list[str] = field(default_factory=list)

    @property
    def base(self) -> str:
        """The site's HTTP base URL."""
        return f"http://127.0.0.1:{self.port}"

    @property
    def ws_base(self) -> str:
        """The site's websocket base URL."""
        return f"ws://127.0.0.1:{self.port}"

    def full_env(self) -> dict[str, str]:
        """The process environment: ours, then safe test defaults, then the caller's settings."""
        env = dict(os.environ)
        for name in ("DATABASE_URL", "REDIS_URL", "SQLITE_PATH"):
            env.pop(name, None)
        env.update(
            {
                "DJANGO_SETTINGS_MODULE": "cardtable.settings",
                "DEBUG": "0",
                "SECRET_KEY": "ops-test-secret-key-not-for-production-0123456789abcdef",
                "ALLOWED_HOSTS": "127.0.0.1,localhost",
                "SECURE_COOKIES": "0",
                "PYTHONUNBUFFERED": "1",
                # Every client of these tests is 127.0.0.1; the tests of the limits turn them on.
                "RATE_LIMITS": "0",
            }
        )
        env.update(self.env)
        return env

    def migrate(self) -> None:
        """Create or update the schema of the configured database."""
        done = subprocess.run(
            [sys.executable, "manage.py", "migrate", "--noinput"],
            cwd=ROOT,
            env=self.full_env(),
            capture_output=True,
            text=True,
            timeout=240,
        )
        if done.returncode != 0:
            raise RuntimeError(f"migrate failed ({done.returncode}):\n{done.stderr[-3000:]}")

    def start(self, timeout: float = 30) -> None:
        """Start Daphne and wait until it answers HTTP."""
        if self.log_path is None:
            self.log_path = Path(tempfile.mkstemp(prefix="daphne-", suffix=".log")[1])
        self.proc = start_daphne(self.port, self.full_env(), self.log_path, args=self.args, timeout=timeout)

    def kill(self, sig: int = signal.SIGKILL) -> None:
        """Send a signal (SIGKILL by default: no cleanup runs) and reap the process."""
        stop(self.proc, sig)
        self.proc = None

    def rss_kib(self) -> int | None:
        """The process's resident memory in KiB (None when it is not running)."""
        return process_rss_kib(self.proc.pid) if self.proc else None

    def log_tail(self, lines: int = 40) -> str:
        """The last lines Daphne printed (for failure messages)."""
        return log_tail(self.log_path, lines)


def process_rss_kib(pid: int) -> int | None:
    """VmRSS of a process from /proc, in KiB."""
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    except OSError:
        return None
    return None


def process_cpu_seconds(pid: int) -> float | None:
    """User plus system CPU seconds a process has used, from /proc."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class ApiError(Exception):
    """An HTTP answer outside 2xx, with its status and decoded body."""

    def __init__(self, status: int, body: Any) -> None:
        super().__init__(f"HTTP {status}: {body}")
        self.status = status
        self.body = body


class Player:
    """One browser: a cookie jar, the CSRF token, and the JSON API (blocking, urllib)."""

    def __init__(self, base: str) -> None:
        self.base = base
        self.jar = http.cookiejar.CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.csrf = ""
        self.player: dict | None = None

    def request(
        self, method: str, path: str, body: Any = None, *, csrf: bool = True, raw: bytes | None = None
    ) -> tuple[int, Any]:
        """Send one request; return (status, decoded JSON or text). Never raises for HTTP errors."""
        data = raw if raw is not None else (None if body is None else json.dumps(body).encode())
        req = urllib.request.Request(self.base + path, data=data, method=method)
        req.add_header("Content-Type", "application/json")
        req.add_header("Origin", self.base)
        req.add_header("Referer", self.base + "/")
        if csrf and self.csrf:
            req.add_header("X-CSRFToken", self.csrf)
        try:
            with self.opener.open(req, timeout=15) as resp:
                status, payload = resp.status, resp.read()
        except urllib.error.HTTPError as exc:
            status, payload = exc.code, exc.read()
        try:
            return status, json.loads(payload) if payload else None
        except ValueError:
            return status, payload.decode(errors="replace")

    def call(self, method: str, path: str, body: Any = None) -> Any:
        """Like request, but a non-2xx answer raises ApiError."""
        status, payload = self.request(method, path, body)
        if not 200 <= status < 300:
            raise ApiError(status, payload)
        return payload

    def login(self, name: str) -> dict:
        """Become a guest player: GET the CSRF token, POST the name."""
        self.csrf = self.call("GET", "/api/session/")["csrf_token"]
        self.player = self.call("POST", "/api/session/", {"name": name})["player"]
        for cookie in self.jar:
            if cookie.name == "csrftoken":
                self.csrf = cookie.value
        return self.player

    def create_table(self, game: str, players: int | None = None, options: dict | None = None) -> dict:
        """POST /api/tables/; this player becomes the host."""
        body: dict[str, Any] = {"game": game}
        if players is not None:
            body["players"] = players
        if options is not None:
            body["options"] = options
        return self.call("POST", "/api/tables/", body)

    def cookie_header(self) -> str:
        """The Cookie header a browser would send with the websocket handshake."""
        return "; ".join(f"{c.name}={c.value}" for c in self.jar)


class Conn:
    """One websocket at a table: a reader task keeps every message; waiters match on them."""

    def __init__(self, ws: ClientConnection, on_message: Callable[[Conn, dict], None] | None = None) -> None:
        self.ws = ws
        self.messages: list[dict] = []
        self.state: dict | None = None
        self.closed = asyncio.Event()
        self._changed = asyncio.Event()
        self._on_message = on_message
        # When the socket last handed bytes to the client, before websockets and json
        # parse them (bench/load.py times moves by it too): never before the last
        # message read arrived, perhaps after.
        self.arrived = 0.0
        delivered = ws.data_received

        def stamped(data: bytes) -> None:
            self.arrived = time.perf_counter()
            delivered(data)

        ws.data_received = stamped
        self._reader = asyncio.get_running_loop().create_task(self._read())

    @classmethod
    async def open(
        cls,
        ws_base: str,
        table_ws: str,
        player: Player | None,
        *,
        origin: str | None = None,
        on_message: Callable[[Conn, dict], None] | None = None,
    ) -> Conn:
        """Connect to a table's websocket as this player (or as a cookieless spectator)."""
        headers = {"Cookie": player.cookie_header()} if player else {}
        # origin "" sends no Origin header at all (as a non-browser client may).
        http_origin = origin if origin is not None else ws_base.replace("ws://", "http://", 1)
        ws = await connect(
            ws_base + table_ws,
            origin=http_origin or None,  # type: ignore[arg-type]
            additional_headers=headers,
            compression=None,
            open_timeout=20,
            ping_interval=None,
            max_size=2**22,
        )
        return cls(ws, on_message)

    async def _read(self) -> None:
        try:
            async for raw in self.ws:
                msg = json.loads(raw)
                if msg.get("type") == "state" and (
                    self.state is None or msg.get("version", 0) >= self.state.get("version", 0)
                ):
                    self.state = msg
                self.messages.append(msg)
                if self._on_message:
                    self._on_message(self, msg)
                self._changed.set()
        except Exception:
            pass
        finally:
            self.closed.set()
            self._changed.set()

    async def send(self, msg: dict | str | bytes) -> None:
        """Send a JSON object (or raw text/bytes, for hostile input); a closed socket is a ConnectionError."""
        try:
            await self.ws.send(msg if isinstance(msg, str | bytes) else json.dumps(msg))
        except ConnectionClosed as closed:
            raise ConnectionError(f"websocket closed: {closed}") from closed

    async def wait_for(self, pred: Callable[[dict], bool], timeout: float = 10, start: int = 0) -> dict:
        """The first message from index `start` on that matches; raise TimeoutError if none comes."""
        deadline = asyncio.get_running_loop().time() + timeout
        index = start
        while True:
            while index < len(self.messages):
                if pred(self.messages[index]):
                    return self.messages[index]
                index += 1
            if self.closed.is_set():
                raise ConnectionError(f"websocket closed while waiting; last messages: {self.messages[-3:]}")
            remaining = deadline - asyncio.get_running_loop().time()
            if remaining <= 0:
                raise TimeoutError(f"no matching message in {timeout}s; last messages: {self.messages[-3:]}")
            self._changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._changed.wait(), remaining)

    async def request(self, msg: dict, pred: Callable[[dict], bool], timeout: float = 10) -> dict:
        """Send a message and wait for the first later message that matches."""
        start = len(self.messages)
        await self.send(msg)
        return await self.wait_for(pred, timeout, start)

    async def close(self) -> None:
        """Close the socket and stop the reader."""
        with contextlib.suppress(Exception):
            await self.ws.close()
        self._reader.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._reader


def state_at_least(version: int) -> Callable[[dict], bool]:
    """A predicate: a state message of at least this version."""
    return lambda m: m.get("type") == "state" and m.get("version", -1) >= version


def is_error(m: dict) -> bool:
    """A predicate: an error message."""
    return m.get("type") == "error"


async def seat_table(
    server_base: str, ws_base: str, game: str, seats: int, prefix: str = "p"
) -> tuple[dict, list[Player], list[Conn]]:
    """Create a table of `game`, seat one guest per seat, start it; return (table, players, conns)."""
    players = [Player(server_base) for _ in range(seats)]
    await asyncio.gather(*(asyncio.to_thread(p.login, f"{prefix}{i}") for i, p in enumerate(players)))
    table = await asyncio.to_thread(players[0].create_table, game, seats)
    conns = [await _open_retrying(ws_base, table["ws"], p) for p in players]
    await sit_and_start(conns)
    return table, players, conns


async def sit_and_start(conns: list[Conn]) -> None:
    """Each connection sits in the seat of its place in ``conns``; the first (the host) starts the game."""
    for conn in conns:
        await conn.wait_for(lambda m: m.get("type") == "state", 30)
    for i, conn in enumerate(conns):
        await conn.request({"type": "sit", "seat": i}, lambda m, i=i: _seated(m, i) or is_error(m), 30)
        assert _seated(conn.state or {}, i), conn.messages[-1]
    started = await conns[0].request(
        {"type": "start"},
        lambda m: (m.get("type") == "state" and m["table"]["status"] == "playing") or is_error(m),
        30,
    )
    assert started.get("type") == "state", started


async def _open_retrying(ws_base: str, path: str, player: Player, tries: int = 3) -> Conn:
    """Open a websocket; a busy server may drop a handshake (Daphne's connect timeout), so try again."""
    for attempt in range(tries):
        try:
            return await Conn.open(ws_base, path, player)
        except (OSError, InvalidMessage, TimeoutError):
            if attempt == tries - 1:
                raise
            await asyncio.sleep(0.5 * (attempt + 1))
    raise AssertionError("unreachable")


def _seated(msg: dict, seat: int) -> bool:
    return msg.get("type") == "state" and msg.get("you", {}).get("seat") == seat


def latest_state(conns: list[Conn]) -> dict:
    """The newest state any of a table's connections holds."""
    return max((c.state for c in conns if c.state), key=lambda s: s["version"])


async def play_move(
    conns: list[Conn], rng: Any, timeout: float = 10, sent: list | None = None
) -> tuple[int, int, dict]:
    """Make one random legal move at a table of seated connections (conns[i] holds seat i).

    Returns (new version, seat, move) once the mover has received a state newer
    than the one it moved from: the move is then acknowledged. Raises TimeoutError,
    ConnectionError, or RuntimeError with the error code if the server refused it.
    `sent`, when given, gets (version moved from, seat, move) appended before the move is sent.
    """
    state = latest_state(conns)
    seats = [s for s in state["to_act"] if (conns[s].state or {}).get("version") == state["version"]]
    seats = [s for s in seats if conns[s].state["legal_moves"]]
    if not seats:
        raise RuntimeError(f"no seat can move at version {state['version']}")
    seat = rng.choice(seats)
    mover = conns[seat]
    move = rng.choice(mover.state["legal_moves"])
    version = mover.state["version"]
    if sent is not None:
        sent.append((version, seat, move))
    reply = await mover.request(
        {"type": "move", "move": move, "version": version, "id": f"m{version}"},
        lambda m: state_at_least(version + 1)(m) or is_error(m),
        timeout,
    )
    if reply["type"] == "error":
        raise RuntimeError(reply["code"])
    return reply["version"], seat, move


async def settle(conns: list[Conn], timeout: float = 10) -> int:
    """Wait until every connection holds the same newest version; return it."""
    deadline = asyncio.get_running_loop().time() + timeout
    while True:
        newest = latest_state(conns)["version"]
        if all(c.state and c.state["version"] == newest for c in conns):
            return newest
        if asyncio.get_running_loop().time() > deadline:
            raise TimeoutError(f"versions never agreed: {[c.state and c.state['version'] for c in conns]}")
        await asyncio.sleep(0.02)


class Database:
    """Read-only access to the server's tables from outside, by raw SQL (SQLite file or PostgreSQL URL)."""

    def __init__(self, env: dict[str, str]) -> None:
        self.url = env.get("DATABASE_URL")
        self.path = env.get("SQLITE_PATH")

    def query(self, sql: str, params: tuple = ()) -> list[tuple]:
        """Run one SELECT (written with %s placeholders) and return its rows."""
        if self.url:
            import psycopg

            with psycopg.connect(self.url) as conn:
                return conn.execute(sql, params).fetchall()
        import sqlite3

        conn = sqlite3.connect(self.path, timeout=20)
        try:
            return conn.execute(sql.replace("%s", "?"), params).fetchall()
        finally:
            conn.close()

    @staticmethod
    def _json(value: Any) -> Any:
        return json.loads(value) if isinstance(value, str | bytes) else value

    def table(self, table_id: str) -> dict:
        """The table row: version, status, game, players, state, game_number."""
        (row,) = self.query(
            "SELECT version, status, game, players, state, game_number FROM tables_table WHERE id = %s",
            (table_id,),
        )
        names = ("version", "status", "game", "players", "state", "game_number")
        return dict(zip(names, row, strict=True)) | {"state": self._json(row[4])}

    def match(self, table_id: str, number: int) -> dict:
        """One game of a table: its id, seed (stored as decimal text) and options."""
        (row,) = self.query(
            "SELECT id, seed, options, players FROM tables_match WHERE table_id = %s AND number = %s",
            (table_id, number),
        )
        return {"id": row[0], "seed": int(row[1]), "options": self._json(row[2]), "players": row[3]}

    def moves(self, match_id: int) -> list[dict]:
        """A game's move log in order: seq, seat, move, version, events."""
        rows = self.query(
            "SELECT seq, seat, move, version, events FROM tables_moverecord WHERE match_id = %s ORDER BY seq",
            (match_id,),
        )
        return [
            {"seq": r[0], "seat": r[1], "move": self._json(r[2]), "version": r[3], "events": self._json(r[4])}
            for r in rows
        ]

    def count(self, table: str) -> int:
        """Rows in one of the app's tables (a fixed name, never user input)."""
        return self.query(f"SELECT COUNT(*) FROM {table}")[0][0]


class FreshPostgres:
    """A new database on the local PostgreSQL for one test or run, dropped afterwards."""

    def __init__(self, admin_url: str, name: str) -> None:
        self.admin_url = admin_url
        self.name = name

    def __enter__(self) -> str:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')
            conn.execute(f'CREATE DATABASE "{self.name}"')
        return urllib.parse.urlparse(self.admin_url)._replace(path="/" + self.name).geturl()

    def __exit__(self, *exc: object) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


async def bot_table(server_base: str, ws_base: str, game: str, seats: int, level: str = "random") -> str:
    """Create a table whose every seat is a bot and start it; return its id (the host stays unseated)."""
    host = Player(server_base)
    await asyncio.to_thread(host.login, "host")
    table = await asyncio.to_thread(host.create_table, game, seats)
    conn = await Conn.open(ws_base, table["ws"], host)
    try:
        await conn.wait_for(lambda m: m.get("type") == "state")
        # The creator sits at seat 0 on creation (PROTOCOL.md): stand up to leave every seat to bots.
        reply = await conn.request(
            {"type": "stand"},
            lambda m: is_error(m) or (m.get("type") == "state" and m["you"]["seat"] is None),
        )
        assert reply["type"] == "state", reply
        for seat in range(seats):
            reply = await conn.request(
                {"type": "bot", "seat": seat, "level": level},
                lambda m, s=seat: (
                    is_error(m) or (m.get("type") == "state" and m["table"]["seats"][s]["kind"] == "bot")
                ),
            )
            assert reply["type"] == "state", reply
        reply = await conn.request(
            {"type": "start"},
            lambda m: is_error(m) or (m.get("type") == "state" and m["table"]["status"] != "waiting"),
        )
        assert reply["type"] == "state", reply
    finally:
        await conn.close()
    return table["id"]


def replay(db: Database, table_id: str) -> tuple[dict, list[dict]]:
    """Rebuild the current game of a table from its seed and move log; return (stored row, log).

    The caller compares the rebuilt state's JSON with the stored one: equal means the
    log holds exactly the moves that made the stored state, each once, in order.
    """
    from types import SimpleNamespace

    from cardtable.tables.replay import replay_moves
    from games import get_game

    row = db.table(table_id)
    match = db.match(table_id, row["game_number"])
    # The row is read first: moves logged after it (bots play on meanwhile) are not in it.
    log = [r for r in db.moves(match["id"]) if r["version"] <= row["version"]]
    records = [SimpleNamespace(**record) for record in log]
    *_, (_record, state, _new_deal) = replay_moves(
        row["game"], match["players"], match["options"], match["seed"], records
    )
    row["replayed"] = json.loads(json.dumps(get_game(row["game"]).to_json(state)))
    return row, log
