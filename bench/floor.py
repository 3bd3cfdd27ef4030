"""The floor under `bench/load.py`'s figures: Daphne and the load generator alone, no game, no database.

    python bench/floor.py --rates 10,250

It starts Daphne on a bare ASGI app (this file's ``application``): four
websockets share a group, and a frame from any of them is answered with a
frame of about the size of a Hearts state (3 KB) to all four. Then it opens
--tables groups of four sockets on loopback and, at each rate, sends a frame
every 1/rate seconds to the next group and times it until all four answers
have arrived, as `bench/load.py` times a move. What the card table adds to a
move (the consumer, the game, the database's commit, building each seat's
message) lies above these figures.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.ops.harness import free_port, wait_port  # noqa: E402

GROUPS: dict[str, list[Any]] = {}
ANSWER = json.dumps({"type": "state", "pad": "x" * 3000})
TAG = 20  # the answer starts with the first TAG characters of the frame it answers


async def application(scope: dict, receive: Any, send: Any) -> None:
    """Serve one websocket of the group named by its path: every frame is answered to the whole group."""
    if scope["type"] != "websocket":
        return
    group = GROUPS.setdefault(scope["path"], [])
    await receive()  # websocket.connect
    await send({"type": "websocket.accept"})
    group.append(send)
    try:
        while (event := await receive())["type"] != "websocket.disconnect":
            answer = (event.get("text") or "")[:TAG] + ANSWER
            for member in list(group):
                await member({"type": "websocket.send", "text": answer})
    finally:
        group.remove(send)


async def measure(url: str, tables: int, rate: float, duration: float) -> list[float]:
    """Send ``rate`` frames a second for ``duration`` seconds; return each one's time to all four answers."""
    from websockets.asyncio.client import connect

    groups = [
        [await connect(f"{url}/g{t}", compression=None, ping_interval=None) for _ in range(4)]
        for t in range(tables)
    ]
    times: list[float] = []

    async def one(conns: list[Any], number: int) -> None:
        tag = f"{number:0{TAG}d}"
        started = time.perf_counter()
        await random.choice(conns).send(tag)
        for conn in conns:
            while not (await conn.recv()).startswith(tag):
                pass
        times.append(time.perf_counter() - started)

    tasks, number, end = [], 0, time.perf_counter() + duration
    while time.perf_counter() < end:
        number += 1
        tasks.append(asyncio.create_task(one(groups[number % tables], number)))
        await asyncio.sleep(1 / rate)
    await asyncio.gather(*tasks)
    for conns in groups:
        for conn in conns:
            await conn.close()
    return times[len(times) // 10 :]  # the first tenth warms up


def main() -> None:
    """Start the bare Daphne, measure each rate, print p50 and p99."""
    parser = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    parser.add_argument("--rates", default="10,250", help="comma-separated frames per second, in turn")
    parser.add_argument(
        "--tables", type=int, default=250, help="groups of four sockets (default 1,000 sockets)"
    )
    parser.add_argument("--duration", type=float, default=20.0, help="seconds per rate")
    args = parser.parse_args()
    port = free_port()
    daphne = subprocess.Popen(
        [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(port), "bench.floor:application"],
        cwd=ROOT,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        if not wait_port(port, 20):
            sys.exit("daphne did not start")
        for rate in (float(r) for r in args.rates.split(",")):
            ms = sorted(
                t * 1000
                for t in asyncio.run(measure(f"ws://127.0.0.1:{port}", args.tables, rate, args.duration))
            )
            p50, p99 = statistics.median(ms), ms[int(len(ms) * 0.99)]
            print(
                f"{rate:6g} frames/s, {args.tables * 4} sockets: to all four answers "
                f"p50 {p50:.2f} ms, p99 {p99:.2f} ms ({len(ms)} frames)",
                flush=True,
            )
    finally:
        daphne.kill()
        daphne.wait()


if __name__ == "__main__":
    main()
