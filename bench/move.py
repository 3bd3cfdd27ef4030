"""One move end to end, alone, in-process: the latency and where its CPU goes.

    python bench/move.py                      # embedded defaults: SQLite file, in-memory layer
    python bench/move.py --moves 400 --profile 25

Four guests sit at a Hearts table over the real ASGI application (Channels'
test communicator, no network), and one move at a time goes from a seat's
``move`` frame to the new state having reached all four seats. It prints the
latency percentiles of those moves and, with ``--profile``, a cProfile of the
same loop (the top functions by cumulative and by own time), so a change to
the move path can be judged by the work it removes. No server, Redis or
PostgreSQL is started; the SQLite file is temporary.
"""

from __future__ import annotations

import argparse
import asyncio
import cProfile
import json
import os
import pstats
import random
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


def setup_django(database_url: str | None, redis_url: str | None = None) -> None:
    """Configure Django for this process: a fresh SQLite file unless a database URL is given."""
    os.environ.update(
        DJANGO_SETTINGS_MODULE="cardtable.settings", DEBUG="0", ALLOWED_HOSTS="testserver", BOT_PAUSE="0"
    )
    os.environ.setdefault("SECRET_KEY", "bench-move-" + "x" * 50)
    os.environ.pop("REDIS_URL", None)
    if redis_url:
        os.environ.update(REDIS_URL=redis_url, CHANNEL_PREFIX=f"bench-move-{os.getpid()}")
    if database_url:
        os.environ["DATABASE_URL"] = database_url
    else:
        os.environ.pop("DATABASE_URL", None)
        os.environ["SQLITE_PATH"] = tempfile.mkstemp(suffix=".sqlite3")[1]
    import django

    django.setup()
    from django.conf import settings
    from django.core.management import call_command

    # One move after another as fast as the server answers is far above a socket's
    # message allowance (settings.WS_RATE), which is not what is measured here.
    settings.WS_RATE = settings.WS_BURST = 100_000.0

    call_command("migrate", verbosity=0)


def make_guest(name: str) -> tuple[int, str]:
    """Create a guest player with a session; return its id and cookie header."""
    from django.contrib.sessions.backends.db import SessionStore

    from cardtable.tables.models import Player
    from cardtable.tables.players.identity import SESSION_KEY

    player = Player.objects.create(name=name)
    session = SessionStore()
    session[SESSION_KEY] = player.pk
    session.create()
    return player.pk, f"sessionid={session.session_key}"


class Seat:
    """One seat's websocket, keeping the newest state it received."""

    def __init__(self, table_id: str, cookie: str) -> None:
        from channels.testing import WebsocketCommunicator

        from cardtable.asgi import application

        headers = [(b"origin", b"http://testserver"), (b"host", b"testserver"), (b"cookie", cookie.encode())]
        self.comm = WebsocketCommunicator(application, f"/ws/tables/{table_id}/", headers=headers)
        self.state: dict = {}

    async def state_after(self, version: int) -> dict:
        """Read messages until a state newer than ``version`` arrives."""
        while True:
            try:
                message = json.loads(await self.comm.receive_from(timeout=10))
            except TimeoutError:
                last = self.state.get("version")
                raise TimeoutError(f"no state after version {version} within 10 s (last: {last})") from None
            if message["type"] == "error":
                raise RuntimeError(message)
            if message["type"] == "state":
                self.state = message
                if message["version"] > version:
                    return message


async def play(moves: int, seed: int) -> tuple[list[float], float]:
    """Seat four guests, then time ``moves`` moves one at a time; return latencies and CPU seconds."""
    from channels.db import database_sync_to_async

    from cardtable.tables.authority import seating
    from cardtable.tables.models import Player

    guests = [await database_sync_to_async(make_guest)(f"m{i}") for i in range(4)]

    def new_table() -> str:
        rows = [Player.objects.get(pk=pk) for pk, _ in guests]
        table = seating.create_table(rows[0], "hearts", 4, None)
        for i, row in enumerate(rows):
            seating.sit(table.pk, row, i)
        seating.start(table.pk, rows[0])
        return table.pk

    rng = random.Random(seed)
    latencies: list[float] = []
    cpu = 0.0
    while len(latencies) < moves:
        table_id = await database_sync_to_async(new_table)()
        seats = [Seat(table_id, cookie) for _, cookie in guests]
        for seat in seats:
            await seat.comm.connect(timeout=10)
            await seat.state_after(-1)
        while len(latencies) < moves:
            version = max(s.state["version"] for s in seats)
            for seat in seats:
                while seat.state["version"] < version:
                    await seat.state_after(seat.state["version"])
            state = seats[0].state
            if state["table"]["status"] != "playing":
                break
            mover = seats[rng.choice(state["to_act"])]
            move = rng.choice(mover.state["legal_moves"])
            cpu0, t0 = time.process_time(), time.perf_counter()
            await mover.comm.send_to(text_data=json.dumps({"type": "move", "move": move, "version": version}))
            for seat in seats:
                await seat.state_after(version)
            latencies.append(time.perf_counter() - t0)
            cpu += time.process_time() - cpu0
        for seat in seats:
            await seat.comm.disconnect()
    return latencies, cpu


def print_threads_profile(yappi: Any, top: int, moves: int) -> None:
    """Print yappi's CPU time per move of the top functions, inclusive and own, over all threads."""
    stats = yappi.get_func_stats()
    for key, label in (("ttot", "inclusive"), ("tsub", "own")):
        print(f"CPU ms per move by function, {label}, all threads:")
        for row in stats.sort(key, "desc")[:top]:
            where = "/".join(row.module.split("/")[-2:])
            print(f"  {getattr(row, key) / moves * 1000:7.3f}  {row.name} ({where}:{row.lineno})")


def main() -> None:
    """Parse arguments, play, print the figures."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--moves", type=int, default=300)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--database-url", help="a PostgreSQL database to use instead of a SQLite file")
    parser.add_argument("--redis-url", help="the Redis channel layer instead of the in-memory one")
    parser.add_argument("--profile", type=int, metavar="N", help="also print cProfile's top N functions")
    parser.add_argument(
        "--threads",
        type=int,
        metavar="N",
        help="profile CPU time on every thread with yappi (pip install yappi) and print the top N functions",
    )
    args = parser.parse_args()
    setup_django(args.database_url, args.redis_url)
    asyncio.run(play(20, args.seed))  # warm up: imports, first connections
    profiler = cProfile.Profile() if args.profile else None
    if profiler:
        profiler.enable()
    if args.threads:
        import yappi

        yappi.set_clock_type("cpu")
        yappi.start()
    latencies, cpu = asyncio.run(play(args.moves, args.seed + 1))
    if profiler:
        profiler.disable()
    if args.threads:
        yappi.stop()
        print_threads_profile(yappi, args.threads, args.moves)
    ms = sorted(x * 1000 for x in latencies)
    print(
        f"{len(ms)} moves, one at a time, four seats: p50 {statistics.median(ms):.2f} ms, "
        f"p95 {ms[int(len(ms) * 0.95)]:.2f} ms, p99 {ms[int(len(ms) * 0.99)]:.2f} ms, "
        f"max {ms[-1]:.2f} ms; CPU {cpu / len(ms) * 1000:.2f} ms per move (this process, all threads' share)"
    )
    if profiler:
        stats = pstats.Stats(profiler).strip_dirs()
        stats.sort_stats("cumulative").print_stats(args.profile)
        stats.sort_stats("tottime").print_stats(args.profile)
    if not args.database_url:
        Path(os.environ["SQLITE_PATH"]).unlink(missing_ok=True)


if __name__ == "__main__":
    main()
