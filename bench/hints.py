"""Hint figures: what one player's hint flood does to a running server.

    python bench/hints.py [--seconds 20] [--sockets 5] [--samples 30] [--scenarios allowance searches]

Starts its own Daphne on loopback (SQLite, a fresh database each scenario) and
prints, for docs/security.md:

- allowance (rate limits on): one seated player asks for hints as fast as it can
  on ``--sockets`` websockets for ``--seconds``, closing a socket and opening a
  new one whenever it is refused (a fresh connection used to bring a fresh
  allowance); how many hints were answered, against the configured allowance;
- searches (rate limits off, so every hint is searched): the same player keeps
  ``--sockets`` hints searching at once; the median answer of ``GET /api/tables/``
  (the lobby) quiet and during the flood, and their ratio.

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

from tests.ops.harness import Conn, DaphneServer, Player  # noqa: E402
from tests.ops.test_presence import two_seated  # noqa: E402

LIMIT_SECONDS = 120.0  # any one wait gives up after this


def lobby_median(base: str, samples: int) -> float:
    """Median seconds of ``GET /api/tables/`` over ``samples`` requests, one after another."""
    times = []
    for _ in range(samples):
        t0 = time.perf_counter()
        with urllib.request.urlopen(base + "/api/tables/", timeout=60) as response:
            response.read()
        times.append(time.perf_counter() - t0)
        time.sleep(0.02)
    return statistics.median(times)


async def seated_asker(server: DaphneServer) -> tuple[Player, dict]:
    """Ann and Bob at a started Agram table; return the player to act and the table."""
    ann, bob = Player(server.base), Player(server.base)
    await asyncio.to_thread(ann.login, "Ann")
    await asyncio.to_thread(bob.login, "Bob")
    table = await asyncio.to_thread(ann.create_table, "agram", 2)
    a, b = await two_seated(server, table, ann, bob)
    seat = a.state["to_act"][0]
    await a.close()
    await b.close()
    return (ann, bob)[seat], table


async def ask(conn: Conn) -> str:
    """Send one hint request; return ``hint`` or the error's code."""
    reply = await conn.request(
        {"type": "hint"}, lambda m: m.get("type") in ("hint", "error"), timeout=LIMIT_SECONDS
    )
    return "hint" if reply["type"] == "hint" else reply["code"]


async def opened(server: DaphneServer, table: dict, player: Player) -> Conn | None:
    """A socket at the table, or ``None`` when the server refuses it (``rate_limited``, closed)."""
    conn = await Conn.open(server.ws_base, table["ws"], player)
    first = await conn.wait_for(lambda m: m.get("type") in ("state", "error"), LIMIT_SECONDS)
    if first["type"] == "state":
        return conn
    await conn.close()
    return None


async def allowance(server: DaphneServer, args: argparse.Namespace) -> None:
    """One player's reconnecting sockets asking for hints: how many are answered."""
    asker, table = await seated_asker(server)
    answered = refused = reconnects = connects_refused = 0
    stop = time.perf_counter() + args.seconds

    async def socket_loop() -> None:
        nonlocal answered, refused, reconnects, connects_refused
        conn = None
        while time.perf_counter() < stop:
            if conn is None:
                conn = await opened(server, table, asker)
                if conn is None:
                    connects_refused += 1
                    await asyncio.sleep(0.5)
                    continue
            try:
                code = await ask(conn)
            except ConnectionError:
                code = "closed"
            if code == "hint":
                answered += 1
                continue
            refused += 1
            await conn.close()  # and come back with a new connection
            reconnects += 1
            conn = None
        if conn is not None:
            await conn.close()

    await asyncio.gather(*(socket_loop() for _ in range(args.sockets)))
    print(
        f"allowance: one player, {args.sockets} reconnecting sockets, {args.seconds:.0f}s: "
        f"{answered} hints answered, {refused} refused, {reconnects} reconnects "
        f"({connects_refused} of them refused)"
    )


async def searches(server: DaphneServer, args: argparse.Namespace) -> None:
    """``--sockets`` hints searching at once, all the time, while the lobby is read."""
    asker, table = await seated_asker(server)
    warm = await Conn.open(server.ws_base, table["ws"], asker)
    assert await ask(warm) == "hint"  # the search workers are up
    await warm.close()
    quiet = await asyncio.to_thread(lobby_median, server.base, args.samples)
    answered = 0
    done = asyncio.Event()

    async def flood() -> None:
        nonlocal answered
        conn = await Conn.open(server.ws_base, table["ws"], asker)
        while not done.is_set():
            reply = await conn.request(
                {"type": "hint"}, lambda m: m.get("type") in ("hint", "error"), timeout=LIMIT_SECONDS
            )
            if reply["type"] == "hint":
                answered += 1
            elif "busy" in reply["message"]:  # the pool is full: ask again in a moment
                await asyncio.sleep(0.1)
            else:  # a per-connection limit, which RATE_LIMITS=0 left on: a new connection
                await conn.close()
                conn = await Conn.open(server.ws_base, table["ws"], asker)
        await conn.close()

    flooding = asyncio.gather(*(flood() for _ in range(args.sockets)))
    await asyncio.sleep(1.0)  # the searches are under way
    t0 = time.perf_counter()
    busy = await asyncio.to_thread(lobby_median, server.base, args.samples)
    took = time.perf_counter() - t0
    done.set()
    await asyncio.wait_for(flooding, LIMIT_SECONDS)
    print(
        f"searches: {args.sockets} hints searching at once ({answered} answered, "
        f"{answered / (took + 1.0):.1f}/s): GET /api/tables/ median {quiet * 1000:.0f} ms quiet, "
        f"{busy * 1000:.0f} ms during the flood ({busy / quiet:.1f}x)"
    )


async def run(args: argparse.Namespace) -> None:
    """Run each scenario on a server of its own."""
    chosen = {"allowance": (allowance, "1"), "searches": (searches, "0")}
    for name in args.scenarios:
        scenario, limits = chosen[name]
        env = {
            "SQLITE_PATH": str(Path(tempfile.mkdtemp(prefix="hints-")) / "db.sqlite3"),
            "RATE_LIMITS": limits,
        }
        server = DaphneServer(env)
        server.migrate()
        server.start()
        try:
            await scenario(server, args)
        finally:
            server.kill()


def main() -> None:
    """Parse the arguments and run."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--sockets", type=int, default=5)
    parser.add_argument("--samples", type=int, default=30)
    parser.add_argument(
        "--scenarios", nargs="+", choices=["allowance", "searches"], default=["allowance", "searches"]
    )
    asyncio.run(run(parser.parse_args()))


if __name__ == "__main__":
    main()
