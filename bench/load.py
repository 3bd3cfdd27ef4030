"""Load generator: many websocket players on loopback playing real games against one server.

    python bench/load.py --tables 250 --rates 100,200,400 --duration 30

By default it starts its own server: one Daphne process with the channel layer on
Redis (127.0.0.1:6379, a private key prefix) and a fresh PostgreSQL database on
127.0.0.1:5432 (created and dropped here). `--url` measures a server you started
instead (`--pid` then tells it whose memory and CPU to report).

Every table is a real game (Hearts by default, four guest players, each with its
own session and websocket). Each table makes one move at a time, at a pace that
adds up to the requested rate over all tables: a seat to act picks a random legal
move, and the move's latency is the time from sending it to the new state having
reached every seat of that table. For each rate it prints moves per second
achieved, p50/p95/p99/max latency, errors by code, timeouts, and the server's
memory and CPU. Only loopback addresses are used; every loop is bounded by
`--duration` and the run stops by itself.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import resource
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from urllib.parse import urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench import restart  # noqa: E402
from bench.profiles import SpyProfile, YappiProfile, server_shim  # noqa: E402
from bench.ratios import compare, repeated  # noqa: E402
from bench.reviewload import queue_reviews, reviews_line  # noqa: E402
from tests.ops.harness import (  # noqa: E402
    Conn,
    DaphneServer,
    Player,
    free_port,
    process_cpu_seconds,
    process_rss_kib,
    seat_table,
)

MOVE_TIMEOUT = 10.0


@dataclass
class Stats:
    """What one measurement window saw."""

    latencies: list[float] = field(default_factory=list)
    # The same moves timed to the last seat's bytes reaching this process, before it parses them.
    arrivals: list[float] = field(default_factory=list)
    cross: list[float] = field(default_factory=list)  # those at tables whose seats use both servers
    errors: Counter = field(default_factory=Counter)
    timeouts: int = 0
    games_finished: int = 0

    def reset(self) -> None:
        """Start a new window."""
        self.latencies.clear()
        self.arrivals.clear()
        self.cross.clear()
        self.errors.clear()
        self.timeouts = 0
        self.games_finished = 0


class TableRunner:
    """One table's four players: makes one move at a time and times its fan-out to every seat."""

    def __init__(self, conns: list[Conn], stats: Stats, rng: random.Random, cross: bool = False) -> None:
        self.conns = conns
        self.cross = cross  # its seats are split over the two servers
        self.stats = stats
        self.rng = rng
        self.pending_version: int | None = None
        self.pending_sent = 0.0
        self.seen: set[int] = set()
        self.arrived = 0.0  # the latest arrival of the seats' new states (Conn.arrived)
        self.done: asyncio.Future | None = None
        for seat, conn in enumerate(conns):
            conn._on_message = lambda c, m, seat=seat: self.on_message(seat, m, c.arrived)

    def on_message(self, seat: int, msg: dict, arrived: float = 0.0) -> None:
        """Called by each connection's reader for every message it receives (``arrived``: its bytes came)."""
        kind = msg.get("type")
        if kind == "state":
            if self.pending_version is not None and msg.get("version", -1) > self.pending_version:
                self.seen.add(seat)
                self.arrived = max(self.arrived, arrived)
                if len(self.seen) == len(self.conns) and self.done and not self.done.done():
                    self.done.set_result(time.perf_counter())
        elif kind == "error":
            self.stats.errors[msg.get("code", "?")] += 1
            if self.done and not self.done.done() and msg.get("id") is not None:
                self.done.set_exception(RuntimeError(msg.get("code")))

    def _latest(self) -> dict:
        return max((c.state for c in self.conns if c.state), key=lambda s: s["version"])

    async def step(self) -> None:
        """Make the next move (or start a rematch when the game is over) and wait for every seat."""
        state = self._latest()
        loop = asyncio.get_running_loop()
        self.done = loop.create_future()
        self.seen, self.arrived = set(), 0.0
        self.pending_version = state["version"]
        if state["table"]["status"] == "finished":
            self.stats.games_finished += 1
            await self.conns[0].send({"type": "rematch", "id": "rematch"})
            timed = False
        else:
            seats = [s for s in state["to_act"] if (self.conns[s].state or {}).get("legal_moves")]
            if not seats:
                await self.resync()
                return
            seat = self.rng.choice(seats)
            seat_state = self.conns[seat].state
            move = self.rng.choice(seat_state["legal_moves"])
            self.pending_sent = time.perf_counter()
            await self.conns[seat].send(
                {"type": "move", "move": move, "version": seat_state["version"], "id": "m"}
            )
            timed = True
        try:
            finished = await asyncio.wait_for(self.done, MOVE_TIMEOUT)
            if timed:
                self.stats.latencies.append(finished - self.pending_sent)
                self.stats.arrivals.append(self.arrived - self.pending_sent)
                if self.cross:
                    self.stats.cross.append(finished - self.pending_sent)
        except TimeoutError:
            self.stats.timeouts += 1
            await self.resync()
        except RuntimeError:
            await self.resync()
        finally:
            self.pending_version = None

    async def resync(self) -> None:
        """Ask every seat for the state again and give the answers a moment to arrive."""
        for conn in self.conns:
            with contextlib.suppress(Exception):
                await conn.send({"type": "sync"})
        await asyncio.sleep(0.5)


def percentile(values: list[float], q: float) -> float:
    """The q-th percentile (0..100) by nearest rank; NaN for no values."""
    if not values:
        return float("nan")
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, round(q / 100 * len(ordered) + 0.5) - 1))
    return ordered[rank]


class OwnPostgres:
    """A private PostgreSQL cluster on a free port (initdb in a temporary folder), removed afterwards.

    Its server processes are this script's children, so they share its scheduling
    priority (`nice`); the system's PostgreSQL is neither used nor touched.
    """

    BIN = Path("/usr/lib/postgresql/15/bin")

    def __init__(self) -> None:
        import tempfile

        self.folder = Path(tempfile.mkdtemp(prefix="cardtable-pg-"))
        self.port = free_port()
        self.proc: subprocess.Popen | None = None

    def _as_postgres(self, *args: str) -> list[str]:
        # PostgreSQL refuses to run as root; run it as the postgres user when we are root.
        return ["runuser", "-u", "postgres", "--", *args] if os.geteuid() == 0 else list(args)

    def __enter__(self) -> str:
        import shutil

        if os.geteuid() == 0:
            shutil.chown(self.folder, "postgres", "postgres")
        data = str(self.folder / "data")
        subprocess.run(
            self._as_postgres(str(self.BIN / "initdb"), "-D", data, "-U", "postgres", "--auth=trust"),
            check=True,
            capture_output=True,
        )
        self.proc = subprocess.Popen(
            self._as_postgres(
                str(self.BIN / "postgres"),
                "-D",
                data,
                "-p",
                str(self.port),
                "-k",
                str(self.folder),
                "-c",
                "listen_addresses=127.0.0.1",
                "-c",
                "max_connections=200",
            ),
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            done = subprocess.run(
                [str(self.BIN / "pg_isready"), "-h", "127.0.0.1", "-p", str(self.port)], capture_output=True
            )
            if done.returncode == 0:
                return f"postgres://postgres@127.0.0.1:{self.port}/postgres"
            time.sleep(0.2)
        raise RuntimeError("the private PostgreSQL did not start")

    def __exit__(self, *exc: object) -> None:
        import shutil

        if self.proc and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(30)
        shutil.rmtree(self.folder, ignore_errors=True)


class Postgres:
    """A fresh database on the local PostgreSQL, dropped afterwards."""

    def __init__(self, admin_url: str) -> None:
        self.admin_url = admin_url
        self.name = f"cardtable_bench_{os.getpid()}"

    def __enter__(self) -> str:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{self.name}"')
        return urlparse(self.admin_url)._replace(path="/" + self.name).geturl()

    def __exit__(self, *exc: object) -> None:
        import psycopg

        with psycopg.connect(self.admin_url, autocommit=True) as conn:
            conn.execute(f'DROP DATABASE IF EXISTS "{self.name}" WITH (FORCE)')


def crosses(i: int, args: argparse.Namespace) -> bool:
    """Whether table ``i``'s seats are split over the two servers (its moves cross between them)."""
    if not args.other_ws:
        return False
    return args.split == "seat" or (args.cross_every > 0 and i % args.cross_every == 0)


async def setup_tables(base: str, ws_base: str, args: argparse.Namespace) -> list[list[Conn]]:
    """Seat every table, a few at a time (the setup is not what is measured).

    With a second server (``args.other_ws``), ``--split table`` seats every
    odd table wholly on it, as a proxy that routes a table's sockets by its URL
    would, and ``--split seat`` none: then every table that ``crosses`` moves
    its odd seats' sockets to the other server, so its moves cross between the
    processes.
    """
    sem = asyncio.Semaphore(args.setup_concurrency)
    done = 0

    async def one(i: int) -> list[Conn]:
        nonlocal done
        async with sem:
            here, there = (base, ws_base), (args.other_base, args.other_ws)
            if args.other_ws and args.split == "table" and i % 2:
                here, there = there, here
            table, players, conns = await seat_table(*here, args.game, args.seats, prefix=f"t{i}p")
            if crosses(i, args):
                for seat in range(1, len(conns), 2):
                    await conns[seat].close()
                    conns[seat] = await Conn.open(there[1], table["ws"], players[seat])
                    await conns[seat].wait_for(lambda m: m.get("type") == "state", 30)
            done += 1
            if done % 50 == 0:
                print(f"  {done} tables seated", flush=True)
            return conns

    return await asyncio.gather(*(one(i) for i in range(args.tables)))


@contextlib.contextmanager
def generator_on(core: int | None) -> Iterator[None]:
    """Keep this process on CPU ``core`` inside the block (``None``: leave it be), then as before.

    Servers started later must not inherit the pin, so it ends with the block.
    """
    if core is None:
        yield
        return
    before = os.sched_getaffinity(0)
    os.sched_setaffinity(0, {core})
    print(f"this generator keeps to CPU {core}", flush=True)
    try:
        yield
    finally:
        os.sched_setaffinity(0, before)


def pin(pid: int, core: int) -> None:
    """Keep every thread of process ``pid`` on CPU ``core`` (threads it starts later inherit it)."""
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(ProcessLookupError):
            os.sched_setaffinity(int(task.name), {core})


def memory_line(pid: int | None) -> str:
    """The server's resident memory, or a note that it is not known."""
    rss = process_rss_kib(pid) if pid else None
    return f"{rss / 1024:.0f} MiB" if rss else "unknown (pass --pid)"


def server_cpu(pids: list[int]) -> float | None:
    """CPU seconds used so far by the server processes together (None when not known)."""
    seconds = [process_cpu_seconds(pid) for pid in pids]
    return sum(seconds) if seconds and None not in seconds else None  # type: ignore[arg-type]


def _clocks(pids: list[int]) -> tuple[float | None, float, float]:
    """The servers' CPU seconds, ours, and the wall clock, read together."""
    return server_cpu(pids), time.process_time(), time.perf_counter()


async def measure(runners: list[TableRunner], stats: Stats, rate: float, args: argparse.Namespace) -> dict:
    """Play at `rate` moves/s in total for the warm-up plus the window; return the window's figures.

    A dispatcher hands out a move every 1/rate seconds to the next table that has
    no move in flight (open loop). When every table is busy it waits, so a server
    that cannot keep up shows as fewer moves per second than asked for, as well as
    in the latency.
    """
    ready: asyncio.Queue[TableRunner] = asyncio.Queue()
    for runner in random.Random(args.seed).sample(runners, len(runners)):
        ready.put_nowait(runner)
    in_flight: set[asyncio.Task] = set()

    async def one(runner: TableRunner) -> None:
        try:
            await runner.step()
        finally:
            ready.put_nowait(runner)

    loop = asyncio.get_running_loop()
    start = loop.time()
    measuring_from = start + args.warmup
    until = measuring_from + args.duration
    next_at, measuring = start, False
    pids = [args.pid, *args.other_pids] if args.pid else []
    cpu0 = own0 = t0 = None
    profilers: list[YappiProfile | SpyProfile] = []
    while loop.time() < until:
        if not measuring and loop.time() >= measuring_from:
            measuring = True
            stats.reset()
            cpu0, own0, t0 = _clocks(pids)
            if args.profile == "yappi" and pids:
                profilers = [YappiProfile(pid, args.yappi_out) for pid in pids]
            elif args.profile == "py-spy" and pids:
                profilers = [SpyProfile(pids[0], args.duration)]
        try:
            runner = await asyncio.wait_for(ready.get(), max(0.01, until - loop.time()))
        except TimeoutError:
            break
        await asyncio.sleep(max(0.0, next_at - loop.time()))
        next_at = max(next_at + 1 / rate, loop.time() - 1.0)  # catch up after a stall, by at most 1 s
        task = asyncio.create_task(one(runner))
        in_flight.add(task)
        task.add_done_callback(in_flight.discard)
    if t0 is None:
        cpu0, own0, t0 = _clocks(pids)
    elapsed = time.perf_counter() - t0
    cpu1 = server_cpu(pids)
    lat, cross, arrivals = list(stats.latencies), list(stats.cross), list(stats.arrivals)
    if in_flight:  # let the last moves land before the next window
        await asyncio.wait(in_flight, timeout=MOVE_TIMEOUT + 2)
    cpu = (cpu1 - cpu0) if cpu0 is not None and cpu1 is not None else None
    cpu_per_move = cpu / len(lat) * 1000 if cpu is not None and lat else None
    return {
        "rate": rate,
        "moves_per_s": len(lat) / elapsed,
        "p50": percentile(lat, 50) * 1000,
        "p95": percentile(lat, 95) * 1000,
        "p99": percentile(lat, 99) * 1000,
        "max": max(lat) * 1000 if lat else float("nan"),
        "mean": statistics.fmean(lat) * 1000 if lat else float("nan"),
        "arrived_p50": percentile(arrivals, 50) * 1000,
        "arrived_p99": percentile(arrivals, 99) * 1000,
        "cross": len(cross),
        "cross_p50": percentile(cross, 50) * 1000,
        "cross_p99": percentile(cross, 99) * 1000,
        "errors": dict(stats.errors),
        "timeouts": stats.timeouts,
        "games": stats.games_finished,
        "server_cpu": cpu / elapsed * 100 if cpu is not None else None,
        "cpu_per_move": cpu_per_move,
        "profile": _profiles(profilers, len(lat), cpu_per_move),
        "client_cpu": (time.process_time() - own0) / elapsed * 100,
        "rss": memory_line(args.pid),
    }


def _profiles(
    profilers: list[YappiProfile | SpyProfile], moves: int, cpu_per_move: float | None
) -> str | None:
    """Each profiled server's summary; with several, each process's share of ``cpu_per_move`` is not split."""
    if not profilers:
        return None
    if len(profilers) == 1:
        return profilers[0].summary(moves, cpu_per_move)
    return "\n".join(
        f"  -- server {i + 1} (pid {p.pid}):\n" + p.summary(moves, None) for i, p in enumerate(profilers)
    )


def print_row(r: dict) -> None:
    """One line per rate."""
    cpu = f"{r['server_cpu']:5.0f}%" if r["server_cpu"] is not None else "    ?"
    per_move = f"{r['cpu_per_move']:6.2f}" if r["cpu_per_move"] is not None else "     ?"
    print(
        f"{r['rate']:7.0f} {r['moves_per_s']:9.1f} {r['p50']:7.1f} {r['p95']:7.1f} {r['p99']:7.1f} "
        f"{r['max']:7.1f} {cpu} {per_move} {r['client_cpu']:5.0f}% {r['rss']:>9} {r['games']:5d} "
        f"{r['timeouts']:4d} {r['errors'] or '-'}",
        flush=True,
    )
    print(
        f"  timed to the last seat's bytes arriving, before this process parses them: "
        f"p50 {r['arrived_p50']:.1f} ms, p99 {r['arrived_p99']:.1f} ms",
        flush=True,
    )
    if r["cross"]:
        print(
            f"  of which {r['cross']} at tables split over both servers: p50 {r['cross_p50']:.1f} ms, "
            f"p99 {r['cross_p99']:.1f} ms",
            flush=True,
        )
    if r["profile"]:
        print(r["profile"], flush=True)


def place(server: DaphneServer, core: int | None) -> None:
    """Keep a started server on CPU ``core`` (``None``: let it float), and say which, with its figures."""
    if core is not None:
        pin(server.proc.pid, core)
    where = "floating" if core is None else f"on CPU {core}"
    print(f"started daphne pid {server.proc.pid} on {server.base}, {where} (log {server.log_path})")


async def run(args: argparse.Namespace) -> list[dict]:
    """Set up the tables, then measure each requested rate in turn; return each rate's figures."""
    base = args.url.rstrip("/")
    ws_base = base.replace("http", "ws", 1)
    t0 = time.perf_counter()
    probe = Player(base)
    await asyncio.to_thread(probe.call, "GET", "/api/games/")
    print(f"seating {args.tables} tables of {args.game} x {args.seats} seats ...", flush=True)
    rss_before = memory_line(args.pid)
    tables = await setup_tables(base, ws_base, args)
    sockets = sum(len(t) for t in tables)
    print(
        f"{sockets} sockets open at {len(tables)} tables in {time.perf_counter() - t0:.1f}s; "
        f"server memory {rss_before} before, {memory_line(args.pid)} now",
        flush=True,
    )
    stats = Stats()
    rng = random.Random(args.seed)
    runners = [
        TableRunner(conns, stats, random.Random(rng.random()), crosses(i, args))
        for i, conns in enumerate(tables)
    ]
    print(
        f"\n{'target':>7} {'moves/s':>9} {'p50ms':>7} {'p95ms':>7} {'p99ms':>7} {'maxms':>7} "
        f"{'srvCPU':>6} {'ms/mv':>6} {'cliCPU':>6} {'srvRSS':>9} {'games':>5} {'tout':>4} errors"
    )
    results = []
    for rate in args.rates:
        # This generator holds 1,000 sockets and their states: a full collection of its
        # heap stops its loop for 0.1 to 0.5 s, which would show as the server's latency.
        # So it collects between windows, not in them.
        gc.collect()
        gc.disable()
        try:
            result = await measure(runners, stats, rate, args)
        finally:
            gc.enable()
        results.append(result)
        print_row(result)
        if result["moves_per_s"] < 0.8 * rate and result["p99"] > args.p99_limit:
            print("  saturated: stopping the ramp", flush=True)
            break
    ok = [r for r in results if r["p99"] <= args.p99_limit and r["moves_per_s"] >= 0.95 * r["rate"]]
    best = max(ok, key=lambda r: r["moves_per_s"]) if ok else None
    print(
        f"\nhighest rate sustained with p99 <= {args.p99_limit:g} ms: "
        + (f"{best['moves_per_s']:.0f} moves/s (target {best['rate']:g})" if best else "none of those tried")
    )
    short = [r for r in results if r["moves_per_s"] < 0.95 * r["rate"]]
    print(
        "saturation point: "
        + (
            f"asked for {short[0]['rate']:g} moves/s, achieved {short[0]['moves_per_s']:.1f}"
            if short
            else f"not reached (every rate up to {results[-1]['rate']:g} moves/s was achieved)"
        ),
        flush=True,
    )
    for conns in tables:
        for conn in conns:
            await conn.close()
    return results


def count_queries(game_id: str, moves: int = 40, database_url: str | None = None) -> None:
    """Print the SQL queries one move costs: making it, telling every seat, and the bot driver's look.

    Runs in this process against a throwaway SQLite file (BEGIN and COMMIT
    counted), through the same service and state functions the consumer calls;
    no server is started. A move on the version this process last committed
    (a human's, a bot's, a stand-in's) is one guarded UPDATE plus the log row's
    INSERT in one transaction (on PostgreSQL one statement in autocommit); the
    locked way (an admin's move, a clocked table, anything the guard refuses)
    reads the table first. Telling the seats needs no query in the process that
    made the move (it holds the snapshot) nor in the others (the wake carries
    it); a ``sync`` or a reconnect reads the table and its match's last move
    number, so the first move after it is made on the known version too. The bot driver looks at the
    move's committed snapshot: nothing to do at a table without a bot or a
    stand-in, and at one with a bot only "is anyone here" (the match's seed is
    read once per match and process).

    With ``database_url`` (``--count-queries --postgres-url URL``: a fresh
    database beside it) the same on PostgreSQL, BEGIN and COMMIT counted too
    (Django logs them as queries).
    """
    import tempfile

    os.environ.update(
        DJANGO_SETTINGS_MODULE="cardtable.settings",
        DEBUG="1",
        SQLITE_PATH=tempfile.mkstemp(suffix=".sqlite3")[1],
    )
    os.environ.pop("DATABASE_URL", None)
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    os.environ.pop("REDIS_URL", None)
    import django

    django.setup()
    from django.core.management import call_command
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    from cardtable.tables.authority import moving, presence, seating, state
    from cardtable.tables.autoplay import turns
    from cardtable.tables.models import Player as PlayerRow
    from games import get_game

    call_command("migrate", verbosity=0)
    seats = get_game(game_id).info.default_players
    rows = [PlayerRow.objects.create(name=f"q{i}") for i in range(seats)]
    people = seating.create_table(rows[0], game_id, seats, None)
    for i, row in enumerate(rows):
        seating.sit(people.pk, row, i)
    seating.start(people.pk, rows[0])
    robots = seating.create_table(rows[0], game_id, seats, None, seated=False)
    for i in range(seats):
        seating.add_bot(robots.pk, rows[0], i, "random")
    seating.start(robots.pk, rows[0])
    rng = random.Random(1)
    keys = ("known", "bot", "locked", "here", "there", "sync", "driver", "driver_bot")
    counts: dict[str, list[int]] = {key: [] for key in keys}

    def driver_look(table_id: str) -> None:
        """What the bot driver does after a move (bots.BotDriver.poke and _look), synchronously."""
        change = state.latest(table_id)  # the snapshot the move committed (its TableChanged carries it)
        if change is None or state.seated_by_people(change):
            return
        if turns.server_turns(change):
            if turns.known_seed(change.match[0]) is None:
                turns.match_seed(change.match[0])
            presence.anyone_here(table_id)

    for n in range(moves):
        bots_move = n % 2 == 1
        table_id = robots.pk if bots_move else people.pk
        if n % 6 == 3:
            state.forget(table_id)  # now and then the first move after a read (it knows the match)
        snap = state.latest(table_id) or state.snapshot(table_id)
        seat = rng.choice(state.message_for(snap, None)["to_act"])
        move = rng.choice(list(get_game(game_id).legal_moves(snap.state, seat)))
        # Now and then a move the locked way: as an admin's, a clocked table's, or one the guard refused.
        way = "locked" if n % 6 == 0 else "bot" if bots_move else "known"
        with CaptureQueriesContext(connection) as applied:
            if way == "locked":
                moving.apply_move(table_id, move, snap.version, seat=seat, by="admin")
            elif bots_move:
                moving.apply_move(table_id, move, snap.version, seat=seat, by="bot")
            else:
                moving.apply_move(table_id, move, snap.version, player=rows[seat])
        counts[way].append(len(applied))
        with CaptureQueriesContext(connection) as here:
            new = state.latest(table_id)  # what this process's connections are given (state.announce)
            for row in rows:
                state.message_for(new, row.pk)
        counts["here"].append(len(here))
        with CaptureQueriesContext(connection) as there:
            carried = state.from_wake(new.to_wake())  # another process, from the wake
            for row in rows:
                state.message_for(carried, row.pk)
        counts["there"].append(len(there))
        with CaptureQueriesContext(connection) as looked:
            driver_look(table_id)
        counts["driver_bot" if bots_move else "driver"].append(len(looked))
        with CaptureQueriesContext(connection) as synced:
            state.state_message(table_id, rows[0].pk)
        counts["sync"].append(len(synced))

    def mean(key: str) -> float:
        return statistics.fmean(counts[key]) if counts[key] else float("nan")

    where = "PostgreSQL" if database_url else "SQLite"
    print(f"{game_id}, {seats} seats, {moves} moves ({where}: BEGIN and COMMIT counted):")
    print(f"  to make a human move on the version this process knows: {mean('known'):.1f}")
    print(f"  to make a bot's move on the version this process knows: {mean('bot'):.1f}")
    if not database_url:
        print("    (on PostgreSQL one statement in autocommit: --count-queries --postgres-url URL)")
    print(f"  to make a move the locked way (admin, clock, refused):   {mean('locked'):.1f}")
    print(f"  to tell every seat in the process that made it:          {mean('here'):.1f}")
    print(f"  to tell every seat in another process (from the wake):   {mean('there'):.1f}")
    print(f"  a sync or reconnect (the table, then its match):         {mean('sync'):.1f}")
    print(f"  the bot driver's look, table without bot or stand-in:    {mean('driver'):.1f}")
    print(f"  the bot driver's look, table with bots (anyone here?):   {mean('driver_bot'):.1f}")
    print(f"  queries per move, usual case:                            {mean('known') + mean('driver'):.1f}")
    Path(os.environ["SQLITE_PATH"]).unlink(missing_ok=True)


def main() -> None:
    """Parse arguments, start a server unless --url is given, run the load."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--url", help="measure this server (default: start one Daphne with Redis)")
    parser.add_argument("--pid", type=int, help="the server's process id, for memory and CPU figures")
    parser.add_argument("--tables", type=int, default=250)
    parser.add_argument("--seats", type=int, default=4)
    parser.add_argument("--game", default="hearts")
    parser.add_argument(
        "--rates", default="100,200", help="comma-separated total move rates (moves/s), measured in turn"
    )
    parser.add_argument("--duration", type=float, default=20.0, help="seconds measured per rate")
    parser.add_argument("--warmup", type=float, default=3.0, help="seconds played before each window")
    parser.add_argument("--p99-limit", type=float, default=50.0, help="the latency target, ms")
    parser.add_argument("--setup-concurrency", type=int, default=4)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--redis-url",
        default="redis://127.0.0.1:6379/0",
        help="for the server this starts ('none': the in-memory channel layer, one process only)",
    )
    parser.add_argument(
        "--processes",
        default="1",
        help="Daphne processes sharing the database and Redis (see --split); '1,2' runs both, one "
        "after the other, and prints two's figures as ratios to one's",
    )
    parser.add_argument(
        "--repeat",
        type=int,
        default=1,
        metavar="N",
        help="run the layouts of --processes N times each, alternating, on fresh servers and database; "
        "with 1,2 print each figure's median two/one ratio against the noise between runs (bench/ratios.py)",
    )
    parser.add_argument(
        "--pin",
        action="store_true",
        help="keep each server this starts on a core of its own (the first on core 0, the second on 1), "
        "as docs/deploy.md runs one Daphne per core",
    )
    parser.add_argument(
        "--generator-core",
        type=int,
        metavar="N",
        help="keep this load generator on CPU N while it measures (with --pin and one server: 1, the "
        "core the server leaves, so a woken generator never preempts the server mid-write)",
    )
    parser.add_argument(
        "--split",
        choices=("table", "seat"),
        default="table",
        help="with two processes: 'table' puts every odd table's sockets on the second, as a proxy "
        "routing by the table's URL would, and splits one table in --cross-every over both; 'seat' "
        "puts every table's odd seats on the second, so every move crosses between them",
    )
    parser.add_argument(
        "--cross-every",
        type=int,
        default=10,
        metavar="N",
        help="with --split table, every Nth table has its odd seats on the other process (0: none)",
    )
    parser.add_argument(
        "--profile",
        nargs="?",
        const="yappi",
        choices=("yappi", "py-spy"),
        help="print where the (first) server's CPU went in each window, per move: yappi in a server "
        "this starts (the default, CPU clock), or py-spy from outside (also for --url)",
    )
    parser.add_argument(
        "--postgres-url",
        default="postgres://postgres@127.0.0.1:5432/postgres",
        help="admin URL; a fresh database is created beside it ('sqlite' for a SQLite file instead, "
        "'own' for a private PostgreSQL cluster started here)",
    )
    parser.add_argument(
        "--count-queries", action="store_true", help="only print the SQL queries a move costs, in-process"
    )
    parser.add_argument(
        "--server-env",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a setting for the server this starts (repeatable), e.g. CONNECTION_HEARTBEAT=60",
    )
    parser.add_argument(
        "--reviews",
        type=int,
        default=0,
        metavar="N",
        help="queue the reviews of N whole Hearts games with a person before the server starts: its "
        "review worker runs them while the load is measured (bench/reviewload.py)",
    )
    parser.add_argument(
        "--restart",
        action="store_true",
        help="instead of a load: seat --tables tables, kill -9 the server, start a new one on its port and "
        "report how every socket comes back (bench/restart.py)",
    )
    parser.add_argument(
        "--give-up", type=float, default=120.0, help="with --restart: seconds the sockets keep trying"
    )
    parser.add_argument(
        "--parallel-db",
        action="store_true",
        help="experiment: run the server's database calls on a thread pool instead of Channels' one thread",
    )
    args = parser.parse_args()
    if args.count_queries:
        if "--postgres-url" not in " ".join(sys.argv) or args.postgres_url == "sqlite":
            count_queries(args.game)
        else:
            with Postgres(args.postgres_url) as url:
                count_queries(args.game, database_url=url)
        return
    args.other_base, args.other_ws, args.other_pids = None, None, []
    args.processes = sorted({int(n) for n in args.processes.split(",")})
    if not set(args.processes) <= {1, 2}:
        parser.error("--processes takes 1, 2 or 1,2")
    if args.processes != [1] and (args.url or args.redis_url == "none" or args.postgres_url == "sqlite"):
        parser.error("--processes 2 starts its own servers on PostgreSQL and Redis")
    args.rates = [float(r) for r in args.rates.split(",")]
    cores = os.sched_getaffinity(0)
    if args.generator_core is not None and args.generator_core not in cores:
        parser.error(f"--generator-core takes one of this machine's CPUs: {sorted(cores)}")
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, min(hard, 65536)), hard))
    if args.restart:
        restart_run(args)
        return
    if args.url and args.profile == "yappi":
        parser.error("--profile yappi needs a server this starts; use --profile py-spy with --url")
    if args.url:
        host = urlparse(args.url).hostname or ""
        if not (host == "localhost" or host.startswith("127.") or host == "::1"):
            parser.error("load is only ever sent to a loopback address")
        with generator_on(args.generator_core):
            asyncio.run(run(args))
        return
    if args.repeat < 1:
        parser.error("--repeat takes a positive number of runs")
    runs: dict[int, list[list[dict]]] = {count: [] for count in args.processes}
    for turn in range(args.repeat):
        for count in args.processes:
            if args.repeat > 1:
                print(f"\n##### run {turn + 1} of {args.repeat}", flush=True)
            runs[count].append(serve_and_run(args, count))
    if args.repeat > 1:
        repeated(runs)
    elif len(runs) > 1:
        compare({count: results[0] for count, results in runs.items()})


def restart_run(args: argparse.Namespace) -> None:
    """``--restart``: a fresh database and a private Redis prefix, then bench/restart.py's run."""
    with Postgres(args.postgres_url) as url:
        env = {
            "CHANNEL_PREFIX": f"bench{os.getpid()}restart",
            "BOT_PAUSE": "0",
            "DISCONNECT_GRACE": "3600",
            "DATABASE_URL": url,
            "REDIS_URL": args.redis_url,
        }
        env.update(item.split("=", 1) for item in args.server_env)
        asyncio.run(restart.run(env, args.tables, args.give_up, args.seed))


def serve_and_run(args: argparse.Namespace, processes: int) -> list[dict]:
    """Start ``processes`` Daphnes on a fresh database (and Redis), run the load, stop them."""
    print(f"\n=== {processes} Daphne process{'es' if processes > 1 else ''} ===", flush=True)
    args.other_base, args.other_ws, args.other_pids = None, None, []
    with contextlib.ExitStack() as stack:
        env = {
            "CHANNEL_PREFIX": f"bench{os.getpid()}x{processes}",
            "BOT_PAUSE": "0",
            "DISCONNECT_GRACE": "3600",
        }
        if args.redis_url != "none":
            env["REDIS_URL"] = args.redis_url
        if args.postgres_url == "sqlite":
            env["SQLITE_PATH"] = f"/tmp/cardtable-bench-{os.getpid()}.sqlite3"
            stack.callback(lambda: Path(env["SQLITE_PATH"]).unlink(missing_ok=True))
        else:
            admin = args.postgres_url
            if admin == "own":
                admin = stack.enter_context(OwnPostgres())
            env["DATABASE_URL"] = stack.enter_context(Postgres(admin))
        env.update(item.split("=", 1) for item in args.server_env)
        if args.parallel_db or args.profile == "yappi":
            yappi = args.profile == "yappi"
            env["PYTHONPATH"] = server_shim(stack, parallel_db=args.parallel_db, yappi=yappi)
            args.yappi_out = Path(tempfile.mkdtemp(prefix="cardtable-yappi-")) / "profile.txt"
            stack.callback(shutil.rmtree, args.yappi_out.parent, True)
            env["CARDTABLE_YAPPI_OUT"] = str(args.yappi_out)
        server = DaphneServer(env)
        server.migrate()
        if args.reviews:
            queue_reviews(server.full_env(), args.reviews)
        server.start()
        stack.callback(server.kill)
        place(server, 0 if args.pin else None)
        args.url, args.pid = server.base, server.proc.pid
        if processes > 1:
            other = DaphneServer(env)
            other.start()
            stack.callback(other.kill)
            place(other, 1 % (os.cpu_count() or 1) if args.pin else None)
            args.other_base, args.other_ws, args.other_pids = other.base, other.ws_base, [other.proc.pid]
        with generator_on(args.generator_core):  # the servers are started: they keep their cores
            results = asyncio.run(run(args))
        if args.reviews:
            print(reviews_line(server.full_env(), server.proc.pid), flush=True)
        return results


if __name__ == "__main__":
    main()
