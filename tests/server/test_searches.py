"""The bots' searches run in a bounded pool of worker processes, never on the server's threads.

Hints, bot moves, stand-ins and timeouts all search there (``searches.py``). A hint
takes only spare capacity: while the pool is full, it is refused (``rate_limited``).
"""

from __future__ import annotations

import asyncio
import os
import statistics
import time

import pytest
from channels.db import database_sync_to_async

from cardtable.tables.autoplay import searches
from cardtable.tables.models import Table
from tests.server.conftest import Client
from tests.server.test_errors import playing_table
from tests.server.test_rate_limits import spoofed


async def to_act(table: Table, people: list, address: str = "127.0.0.1") -> tuple[str, int]:
    """The cookie of the player to act at a playing table, and their seat."""
    probe = await spoofed(table.pk, people[0][1], address).connect()
    seat = probe.state["to_act"][0]
    await probe.close()
    return people[seat][1], seat


async def answers(clients: list[Client], asked: int) -> list[str]:
    """Read until ``asked`` hint requests are answered; return each answer's ``hint`` or error code."""
    got: list[str] = []
    async with asyncio.timeout(60):
        while len(got) < asked:
            for client in clients:
                if not await client.comm.receive_nothing(timeout=0.02):
                    message = await client.receive()
                    if message["type"] in ("hint", "error"):
                        got.append("hint" if message["type"] == "hint" else message["code"])
    return got


@pytest.mark.django_db(transaction=True)
async def test_a_hint_is_refused_while_the_pool_is_full(settings) -> None:
    table, people = await database_sync_to_async(playing_table)()
    cookie, _ = await to_act(table, people)
    client = await Client(table.pk, cookie).connect()
    await searches.run(os.getpid)  # the workers are up
    busy = [searches.submit(time.sleep, 3) for _ in range(2 * settings.SEARCH_WORKERS)]
    await client.send({"type": "hint", "id": "h"})
    error = await client.error()
    assert (error["code"], error["id"]) == ("rate_limited", "h") and "busy" in error["message"]
    await asyncio.wrap_future(busy[-1])
    await client.send({"type": "hint"})
    assert (await client.until(lambda m: m["type"] in ("hint", "error")))["type"] == "hint"


@pytest.mark.django_db(transaction=True)
async def test_searches_run_in_worker_processes_not_on_the_servers_threads(settings) -> None:
    """Four hints search at once; the server's process spends almost none of its CPU on them.

    A search is CPU-bound Python. Run in a thread of this process, as it once was,
    its CPU was this process's, and it held the interpreter's lock that the event
    loop's thread and the database thread need: every hop between them waited for
    it (about 8 ms a hop, the switch interval and more, against well under 1 ms).
    The searches here are bounded by playouts, not time, so they cost the same CPU
    however busy the machine is.
    """
    assert await searches.run(os.getpid) != os.getpid()
    settings.RATE_LIMITS_ON = False
    settings.BOT_THINK_SECONDS = {**settings.BOT_THINK_SECONDS, "normal": 100.0}
    settings.BOT_PLAYOUT_SCALE = 4.0  # a few tenths of a second of CPU a search
    table, people = await database_sync_to_async(playing_table)()
    cookie, _ = await to_act(table, people)
    clients = [await Client(table.pk, cookie).connect() for _ in range(4)]
    await searches.run(os.getpid)  # the workers are up
    loop = asyncio.get_running_loop()
    started, cpu = loop.time(), time.process_time()
    for client in clients:
        await client.send({"type": "hint"})
    hops = []
    while not all(c.messages[-1]["type"] in ("hint", "error") for c in clients):
        t0 = loop.time()
        await database_sync_to_async(time.monotonic)()  # a hop to the database thread and back
        hops.append(loop.time() - t0)
        for client in clients:
            while not await client.comm.receive_nothing(timeout=0.001):
                await client.receive()
        assert loop.time() - started < 60
    spent = time.process_time() - cpu
    assert [c.messages[-1]["type"] for c in clients] == ["hint"] * 4
    assert spent < 0.5, f"this process spent {spent:.2f}s of CPU while four hints searched"
    hop = statistics.median(hops)
    assert hop < 0.003, f"a hop to the database thread took {hop * 1000:.1f} ms (median of {len(hops)})"
