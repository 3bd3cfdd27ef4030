"""Abuse figures: what one client can do to a running server, with the limits on.

    python bench/abuse.py [--storm 400] [--tables 2000] [--sync-sockets 50] [--syncs 60]

Starts its own Daphne (SQLite, rate limits on, a 2 s grace, a 1 s heartbeat) on
loopback and prints, for docs/security.md:

- storm: one seated player opens ``--storm`` websockets and resets each as soon
  as it is accepted; how many the server accepted, how long until the player's
  presence rows were gone and until a stand-in played for them;
- tables: ``--tables`` table creations from one session; how many were made and
  how many refused (429), and how long it took;
- sync: ``--sync-sockets`` spectator sockets each sending ``--syncs`` syncs;
  how many were refused, and ``GET /api/tables/`` median latency before and
  during the flood.

Only 127.0.0.1 is used, every loop is bounded, and the server is killed at the end.
"""

from __future__ import annotations

import argparse
import asyncio
import statistics
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.ops.harness import Conn, DaphneServer, Database, Player  # noqa: E402
from tests.ops.test_presence import _open_and_abort, _rows, two_seated  # noqa: E402

LIMIT_SECONDS = 120.0  # any one scenario gives up after this


async def storm(server: DaphneServer, db: Database, count: int) -> None:
    """A seated player's storm of aborted sockets."""
    ann, bob = Player(server.base), Player(server.base)
    await asyncio.to_thread(ann.login, "Ann")
    await asyncio.to_thread(bob.login, "Bob")
    table = await asyncio.to_thread(ann.create_table, "agram", 2)
    a, b = await two_seated(server, table, ann, bob)
    await a.close()
    t0 = time.perf_counter()
    tries = [_open_and_abort(server.port, table["ws"], ann.cookie_header()) for _ in range(count)]
    accepted = sum(await asyncio.wait_for(asyncio.gather(*tries), LIMIT_SECONDS))
    opened = time.perf_counter() - t0
    t0 = time.perf_counter()  # from here: how long after the storm ended
    rows_gone = stood_in = None
    await b.send({"type": "sync"})
    while time.perf_counter() - t0 < LIMIT_SECONDS and (rows_gone is None or stood_in is None):
        if rows_gone is None and await asyncio.to_thread(_rows, db, table["id"], ann.player["id"]) == 0:
            rows_gone = time.perf_counter() - t0
        if stood_in is None and b.state and b.state["table"]["seats"][0]["stand_in"]:
            stood_in = time.perf_counter() - t0
        await asyncio.sleep(0.05)
    print(
        f"storm: {count} sockets opened and reset in {opened:.1f}s ({accepted} handshakes answered; "
        f"at most 5 admitted at once, the others sent rate_limited); after the storm, rows gone within "
        f"{rows_gone or float('nan'):.1f}s and a stand-in within {stood_in or float('nan'):.1f}s (grace 2s)"
    )
    await b.close()


def _lobby_latency(base: str, samples: int = 10) -> float:
    times = []
    for _ in range(samples):
        t0 = time.perf_counter()
        with urllib.request.urlopen(base + "/api/tables/", timeout=30) as response:
            response.read()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def tables(server: DaphneServer, count: int) -> None:
    """Table creations from one session."""
    flood = Player(server.base)
    flood.login("Flood")
    t0 = time.perf_counter()
    codes = [flood.request("POST", "/api/tables/", {"game": "hearts"})[0] for _ in range(count)]
    took = time.perf_counter() - t0
    made, refused = codes.count(201), codes.count(429)
    print(
        f"tables: {count} POST /api/tables/ from one session in {took:.1f}s: "
        f"{made} made, {refused} refused (429), others {count - made - refused}"
    )


async def sync_flood(server: DaphneServer, sockets: int, syncs: int) -> None:
    """Spectators flooding ``sync`` while someone reads the lobby."""
    host = Player(server.base)
    await asyncio.to_thread(host.login, "Host")
    table = await asyncio.to_thread(host.create_table, "hearts", 4)
    quiet = await asyncio.to_thread(_lobby_latency, server.base)
    conns = [await Conn.open(server.ws_base, table["ws"], None) for _ in range(sockets)]

    async def flood(conn: Conn) -> None:
        for _ in range(syncs):
            await conn.send({"type": "sync"})

    flooding = asyncio.gather(*(flood(c) for c in conns))
    busy = await asyncio.to_thread(_lobby_latency, server.base)
    await asyncio.wait_for(flooding, LIMIT_SECONDS)
    await asyncio.sleep(1.0)
    refused = sum(m.get("code") == "rate_limited" for c in conns for m in c.messages)
    print(
        f"sync: {sockets} sockets x {syncs} syncs: {refused} refused (rate_limited) of {sockets * syncs}; "
        f"GET /api/tables/ median {quiet * 1000:.0f} ms quiet, {busy * 1000:.0f} ms during the flood"
    )
    for conn in conns:
        await conn.close()


async def run(args: argparse.Namespace) -> None:
    """Start a server and run the three scenarios."""
    env = {
        "SQLITE_PATH": str(Path(tempfile.mkdtemp(prefix="abuse-")) / "db.sqlite3"),
        "RATE_LIMITS": "1",
        "DISCONNECT_GRACE": "2",
        "CONNECTION_HEARTBEAT": "1",
        "BOT_PAUSE": "0.05",
        "STAND_IN_LEVEL": "random",
    }
    server = DaphneServer(env)
    server.migrate()
    server.start()
    try:
        await storm(server, Database(env), args.storm)
        await asyncio.to_thread(tables, server, args.tables)
        await sync_flood(server, args.sync_sockets, args.syncs)
    finally:
        server.kill()


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--storm", type=int, default=400)
    parser.add_argument("--tables", type=int, default=2000)
    parser.add_argument("--sync-sockets", type=int, default=50)
    parser.add_argument("--syncs", type=int, default=60)
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
