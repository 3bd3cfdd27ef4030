"""A restart with everyone connected: `kill -9` of the one Daphne, a new one on its port, every socket back.

    python bench/load.py --restart --tables 250

Seats ``--tables`` tables of four guests on one Daphne (PostgreSQL, Redis), plays
a few moves at each (some still in flight when the process dies), kills the
process with SIGKILL and starts a new one on the same port. Every socket then
reconnects as the page does (``static/js/client.js``): 0.5 s doubling to 8 s
with ±25 % jitter after a failure, and after a refusal (close code 4503) the
server's ``retry_after`` with ±10 % jitter. It reports how many sockets got
their seat's state back and when the last did (from the moment the new process
accepted TCP connections), the handshakes tried and refused, then plays on at
every table and checks each table's move log: a move a seat saw acknowledged
that is not in the log is lost; a move in the log twice is duplicated; the
stored state must be the replay of the seed and the log.

``storm`` and ``RestartFigures`` are shared with tests/ops/test_storm.py.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import socket
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

from websockets.exceptions import InvalidHandshake, InvalidMessage

from tests.ops.harness import (
    Conn,
    DaphneServer,
    Database,
    Player,
    play_move,
    process_cpu_seconds,
    replay,
    seat_table,
    settle,
)

REFUSED = 4503
RESTARTING = 4012


@dataclass
class Seat:
    """One seat's browser: its player, its table, its socket, and the moves it saw acknowledged."""

    table: dict
    player: Player
    index: int
    conn: Conn | None = None
    acked: list[tuple[int, str]] = field(default_factory=list)  # (match number, the move as JSON)
    back_at: float | None = None  # seconds after the new process listened
    first_try: float | None = None  # seconds after the new process listened: its first handshake then
    tries: int = 0
    refusals: int = 0


@dataclass
class RestartFigures:
    """What one restart showed."""

    sockets: int
    back: int
    last_back: float  # seconds from the new process listening to the last socket's state
    p50_back: float
    tries: int
    refused: int
    lost: int
    duplicated: int
    replay_mismatches: int
    played_after: int  # tables that made a move after everyone was back
    load: tuple[float, float, float]
    curve: list[tuple[float, int]]  # (seconds, sockets back by then)
    server_cpu: float  # CPU seconds the new process spent from answering HTTP to the last socket back
    first_tries: tuple[float, float, float]  # the seats' first handshake after listening: median, 90 %, last
    clients_cpu: float  # CPU seconds this process (the 1,000 clients) used over the same time
    postgres_cpu: float  # CPU seconds every PostgreSQL process of the machine used over the same time

    def lines(self) -> list[str]:
        """The figures as a few lines of text."""
        curve = ", ".join(f"{n} by {t:g} s" for t, n in self.curve)
        return [
            f"sockets back with their state: {self.back} of {self.sockets}; median {self.p50_back:.1f} s, "
            f"last {self.last_back:.1f} s after the new process listened",
            f"  back over time: {curve}",
            f"handshakes tried {self.tries}, refused with a retry time {self.refused}; the new process "
            f"used {self.server_cpu:.1f} s of CPU meanwhile "
            f"({1000 * self.server_cpu / max(1, self.back):.1f} ms per socket back); the clients "
            f"{self.clients_cpu:.1f} s, PostgreSQL {self.postgres_cpu:.1f} s",
            "first handshake after the new process listened (the clients' backoff): median "
            + ", 90 % ".join(f"{t:.1f} s" for t in self.first_tries[:2])
            + f", last {self.first_tries[2]:.1f} s",
            f"moves lost {self.lost}, duplicated {self.duplicated}, tables whose log does not replay to "
            f"their state {self.replay_mismatches}; tables that played on after: {self.played_after}",
            "load average (1, 5, 15 min) at the end: " + ", ".join(f"{x:.2f}" for x in self.load),
        ]


async def seat_all(server: DaphneServer, tables: int, concurrency: int = 4) -> list[list[Seat]]:
    """Seat ``tables`` Hearts tables of four guests and start their games (a few at a time)."""
    sem = asyncio.Semaphore(concurrency)

    async def one(i: int) -> list[Seat]:
        async with sem:
            table, players, conns = await seat_table(
                server.base, server.ws_base, "hearts", 4, prefix=f"r{i}p"
            )
            return [Seat(table, p, s, c) for s, (p, c) in enumerate(zip(players, conns, strict=True))]

    return list(await asyncio.gather(*(one(i) for i in range(tables))))


def _match(conn: Conn) -> int:
    return (conn.state or {}).get("table", {}).get("game_number", 0)


async def play_some(table: list[Seat], moves: int, rng: random.Random) -> int:
    """Make ``moves`` acknowledged moves at a table; record each at its seat. Returns how many were made."""
    conns = [seat.conn for seat in table]
    made = 0
    for _ in range(moves):
        try:
            await settle(conns, 10)
            _version, index, move = await play_move(conns, rng, timeout=15)
        except (TimeoutError, ConnectionError, RuntimeError):
            continue
        table[index].acked.append((_match(conns[index]), json.dumps(move, sort_keys=True)))
        made += 1
    return made


async def send_in_flight(table: list[Seat], rng: random.Random) -> None:
    """Send one move without waiting for it: the kill may come before or after the server applies it."""
    conns = [seat.conn for seat in table]
    state = max((c.state for c in conns if c.state), key=lambda s: s["version"])
    for index in state["to_act"]:
        mine = conns[index].state
        if mine and mine["version"] == state["version"] and mine["legal_moves"]:
            move = rng.choice(mine["legal_moves"])
            # Not acknowledged: whether it counts is what the reconnected state says.
            table[index].acked.append((-1, json.dumps(move, sort_keys=True)))
            message = {"type": "move", "move": move, "version": mine["version"], "id": "inflight"}
            await conns[index].send(message)
            return


async def reconnect(
    seat: Seat, ws_base: str, listening: asyncio.Future, rng: random.Random, give_up: float
) -> None:
    """Come back as the page does until this seat holds a state from the new process (or ``give_up``)."""
    delay = 0.5
    loop = asyncio.get_running_loop()
    wait = delay * (0.75 + rng.random() * 0.5)
    while loop.time() < give_up:
        await asyncio.sleep(wait)
        seat.tries += 1
        if seat.first_try is None and listening.done():
            seat.first_try = time.monotonic() - listening.result()
        retry_after = None
        try:
            conn = await Conn.open(ws_base, seat.table["ws"], seat.player)
        except (OSError, InvalidHandshake, InvalidMessage, TimeoutError):
            conn = None
        if conn is not None:
            try:
                first = await conn.wait_for(lambda m: m.get("type") in ("state", "error"), 30)
            except (TimeoutError, ConnectionError):
                first = {}
            if first.get("type") == "state":
                seat.conn = conn
                seat.back_at = time.monotonic() - listening.result() if listening.done() else 0.0
                return
            retry_after = first.get("retry_after")
            with contextlib.suppress(TimeoutError):  # a refusal closes at once; anything else is cut short
                await asyncio.wait_for(conn.closed.wait(), 10)
            await conn.close()
            if retry_after is not None:
                seat.refusals += 1
        if retry_after is not None:  # refused: come back when the server said (client.js does the same)
            wait = float(retry_after) * (0.9 + rng.random() * 0.2)
        else:
            wait = delay * (0.75 + rng.random() * 0.5)
            delay = min(delay * 2, 8.0)


def postgres_cpu_seconds() -> float:
    """CPU seconds used so far by every live ``postgres`` process of the machine (from /proc)."""
    total = 0.0
    for stat in Path("/proc").glob("[0-9]*/comm"):
        try:
            if stat.read_text().strip() == "postgres":
                total += process_cpu_seconds(int(stat.parent.name)) or 0.0
        except OSError:
            continue
    return total


async def watch_listen(port: int, listening: asyncio.Future) -> None:
    """Resolve ``listening`` with the moment the port first accepts a TCP connection."""
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), 0.1):
                listening.set_result(time.monotonic())
                return
        except OSError:
            await asyncio.sleep(0.01)


def check_logs(db: Database, tables: list[list[Seat]]) -> tuple[int, int, int]:
    """Acknowledged moves missing from the log, moves logged twice, tables whose log replays wrong."""
    lost = duplicated = mismatched = 0
    for table in tables:
        table_id = table[0].table["id"]
        row = db.table(table_id)
        logged: Counter[tuple[int, int, str]] = Counter()
        for number in range(1, row["game_number"] + 1):
            match = db.match(table_id, number)
            for record in db.moves(match["id"]):
                logged[(number, record["seat"], json.dumps(record["move"], sort_keys=True))] += 1
        duplicated += sum(n - 1 for n in logged.values() if n > 1)
        for seat in table:
            for number, move in seat.acked:
                if number >= 0 and logged[(number, seat.index, move)] == 0:
                    lost += 1
        stored, _log = replay(db, table_id)
        if stored["replayed"] != stored["state"]:
            mismatched += 1
    return lost, duplicated, mismatched


async def storm(
    server: DaphneServer,
    tables: list[list[Seat]],
    *,
    give_up: float = 60.0,
    seed: int = 1,
    moves_after: int = 1,
) -> RestartFigures:
    """Kill the server, start a new one on its port, bring every seat back; measure, play on, check logs."""
    rng = random.Random(seed)
    for table in tables:
        await send_in_flight(table, rng)
    server.kill()
    for table in tables:
        for seat in table:
            if seat.conn is not None:
                await seat.conn.close()
                seat.conn = None
    loop = asyncio.get_running_loop()
    listening: asyncio.Future[float] = loop.create_future()
    watcher = asyncio.ensure_future(watch_listen(server.port, listening))
    end = loop.time() + give_up
    seats = [seat for table in tables for seat in table]
    clients = [
        asyncio.ensure_future(reconnect(seat, server.ws_base, listening, random.Random(rng.random()), end))
        for seat in seats
    ]
    await asyncio.to_thread(server.start, 60)
    cpu_before = process_cpu_seconds(server.proc.pid) or 0.0
    clients_before, postgres_before = time.process_time(), postgres_cpu_seconds()
    await watcher
    await asyncio.gather(*clients)
    cpu = (process_cpu_seconds(server.proc.pid) or 0.0) - cpu_before
    clients_cpu, postgres_cpu = time.process_time() - clients_before, postgres_cpu_seconds() - postgres_before
    times = sorted(seat.back_at for seat in seats if seat.back_at is not None)
    curve = [(t, sum(1 for x in times if x <= t)) for t in (2, 5, 10, 20, 40) if not times or t <= give_up]
    firsts = sorted(seat.first_try for seat in seats if seat.first_try is not None) or [float("nan")]
    played = 0
    whole = [table for table in tables if all(seat.conn is not None for seat in table)]
    results = await asyncio.gather(*(play_some(table, moves_after, rng) for table in whole))
    played = sum(1 for made in results if made > 0)
    for seat in seats:
        if seat.conn is not None:
            await seat.conn.close()
    db = Database(server.env)
    lost, duplicated, mismatched = await asyncio.to_thread(check_logs, db, tables)
    return RestartFigures(
        sockets=len(seats),
        back=len(times),
        last_back=times[-1] if times else float("nan"),
        p50_back=times[len(times) // 2] if times else float("nan"),
        tries=sum(seat.tries for seat in seats),
        refused=sum(seat.refusals for seat in seats),
        lost=lost,
        duplicated=duplicated,
        replay_mismatches=mismatched,
        played_after=played,
        load=os.getloadavg(),
        curve=curve,
        server_cpu=cpu,
        first_tries=(firsts[len(firsts) // 2], firsts[int(len(firsts) * 0.9)], firsts[-1]),
        clients_cpu=clients_cpu,
        postgres_cpu=postgres_cpu,
    )


async def run(env: dict[str, str], tables: int, give_up: float, seed: int) -> RestartFigures:
    """Start one Daphne with ``env``, seat the tables, play a little, restart it, print the figures."""
    os.environ.setdefault("DJANGO_SETTINGS_MODULE", "cardtable.settings")
    os.environ.setdefault("DEBUG", "1")  # this process only replays logs: no secret key needed
    import django

    django.setup()
    server = DaphneServer(env)
    server.migrate()
    server.start()
    try:
        started = time.perf_counter()
        print(f"seating {tables} Hearts tables of four guests ...", flush=True)
        seated = await seat_all(server, tables)
        print(f"{4 * tables} sockets seated in {time.perf_counter() - started:.1f} s", flush=True)
        rng = random.Random(seed)
        made = await asyncio.gather(*(play_some(table, 2, random.Random(rng.random())) for table in seated))
        print(f"{sum(made)} moves played before the restart; kill -9 now", flush=True)
        figures = await storm(server, seated, give_up=give_up, seed=seed)
    finally:
        server.kill()
    for line in figures.lines():
        print(line, flush=True)
    print(f"(the new process's log: {server.log_path})", flush=True)
    return figures
