"""Limits per player and per address hold across sockets, processes and restarts (docs/security.md).

Hints, new websockets, leaves and takeovers are counted per player or per address
in the ``limits`` cache, not per connection: a player's sockets share one
allowance, and a refusal is the protocol's ``rate_limited`` with the connection
kept open and nothing changed. The counts themselves: two clients of one Redis
share them, and while the store fails each process counts on its own.
"""

from __future__ import annotations

import os
import threading
from concurrent.futures import ThreadPoolExecutor

import pytest
from channels.db import database_sync_to_async
from django.core.cache import caches

from cardtable.tables.authority import seating
from cardtable.tables.models import Seat
from cardtable.tables.players import ratelimit
from tests.conftest import REDIS_URL
from tests.ops.harness import free_port
from tests.server.conftest import Client, make_player
from tests.server.test_errors import playing_table
from tests.server.test_rate_limits import spoofed
from tests.server.test_searches import answers, to_act
from tests.server.test_sockets import refused


def limits(settings, **kinds: dict) -> None:
    """Set the limits of these kinds for this test, e.g. ``hint={"player": (3, 3600)}``."""
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, **kinds}


@pytest.mark.django_db(transaction=True)
async def test_a_players_sockets_share_one_hint_allowance_and_a_new_socket_brings_none(settings) -> None:
    limits(settings, hint={"player": (3, 3600)})
    table, people = await database_sync_to_async(playing_table)()
    cookie, _ = await to_act(table, people)
    clients = [await Client(table.pk, cookie).connect() for _ in range(settings.WS_PER_TABLE)]
    for client in clients:
        for _ in range(2):
            await client.send({"type": "hint"})
    got = await answers(clients, 2 * len(clients))
    assert got.count("hint") == 3 and got.count("rate_limited") == 2 * len(clients) - 3
    # Reconnecting brings no fresh allowance; the connection stays open; the table is unchanged.
    await clients[0].close()
    again = await Client(table.pk, cookie).connect()
    await again.send({"type": "hint", "id": "h"})
    assert (await again.error())["code"] == "rate_limited"
    await again.send({"type": "sync"})
    assert (await again.next_state())["version"] == table.version


@pytest.mark.django_db(transaction=True)
async def test_hints_are_limited_per_address_across_players(settings) -> None:
    limits(settings, hint={"player": (3, 3600), "address": (4, 3600)})
    askers = []
    for _ in range(3):  # three tables, each with its player to act at one address
        table, people = await database_sync_to_async(playing_table)()
        cookie, _ = await to_act(table, people)
        askers.append(await spoofed(table.pk, cookie, "10.7.7.7").connect())
    for client in askers:
        for _ in range(2):
            await client.send({"type": "hint"})
    got = await answers(askers, 6)
    assert got.count("hint") == 4 and got.count("rate_limited") == 2


@pytest.mark.django_db(transaction=True)
async def test_new_websockets_are_limited_per_address(settings) -> None:
    limits(settings, connect={"address": (3, 3600)})
    table, people = await database_sync_to_async(playing_table)()
    for _ in range(3):
        await spoofed(table.pk, None, "10.8.8.8").connect()
    error = await refused(spoofed(table.pk, people[0][1], "10.8.8.8"))
    assert error["code"] == "rate_limited" and "connections" in error["message"]
    await spoofed(table.pk, people[0][1], "10.8.8.9").connect()  # another address is not held back


@pytest.mark.django_db(transaction=True)
async def test_leaving_is_limited_per_player(settings) -> None:
    limits(settings, leave={"player": (2, 3600)})
    ann, cookie = await database_sync_to_async(make_player)("Ann")
    table = await database_sync_to_async(seating.create_table)(ann, "agram", 2, {})
    client = await Client(table.pk, cookie).connect()
    for _ in range(2):
        await client.send({"type": "leave"})
        await client.until(lambda m: m["type"] == "state" and m["you"]["seat"] is None)
        await client.send({"type": "sit", "seat": 0})
        await client.until(lambda m: m["type"] == "state" and m["you"]["seat"] == 0)
    await client.send({"type": "leave", "id": "l3"})
    error = await client.error()
    assert (error["code"], error["id"]) == ("rate_limited", "l3")
    seat = await database_sync_to_async(Seat.objects.get)(table=table, index=0)
    assert seat.player_id == ann.pk  # still seated
    await client.send({"type": "sync"})
    assert (await client.next_state())["you"]["seat"] == 0


@pytest.mark.django_db(transaction=True)
async def test_taking_over_is_limited_per_player(settings) -> None:
    limits(settings, takeover={"player": (2, 3600)})
    table, people = await database_sync_to_async(playing_table)()
    ann = await Client(table.pk, people[0][1]).connect()
    for n in range(3):
        await ann.send({"type": "leave"})
        await ann.until(lambda m: m["type"] == "state" and m["you"]["seat"] is None)
        await ann.send({"type": "takeover", "seat": 0, "id": f"t{n}"})
        if n < 2:
            await ann.until(lambda m: m["type"] == "state" and m["you"]["seat"] == 0)
    error = await ann.error()
    assert (error["code"], error["id"]) == ("rate_limited", "t2")
    seat = await database_sync_to_async(Seat.objects.get)(table=table, index=0)
    assert seat.player_id is None and seat.left == "Ann"  # the bot plays on


def test_a_refused_action_takes_its_count_back(settings) -> None:
    allowance = ratelimit.Allowance([ratelimit.Limit("t:refund", 2, 3600)])
    for _ in range(5):  # taken, then refused by the service: nothing spent
        allowance.take("tries")
        allowance.refund()
    for _ in range(2):
        ratelimit.Allowance(allowance.limits).take("tries")
    with pytest.raises(Exception, match="too many tries"):
        ratelimit.Allowance(allowance.limits).take("tries")


def test_while_the_store_fails_each_process_counts_in_its_memory(settings, monkeypatch) -> None:
    monkeypatch.setattr(ratelimit, "_down_until", 0.0)  # and back after the test: the store is fine again
    settings.CACHES = {
        **settings.CACHES,
        "limits": {
            "BACKEND": "django.core.cache.backends.redis.RedisCache",
            "LOCATION": f"redis://127.0.0.1:{free_port()}/0",  # nothing listens there
            "OPTIONS": {"socket_timeout": 0.5, "socket_connect_timeout": 0.5},
        },
    }
    tries = []
    real_store = ratelimit._store
    monkeypatch.setattr(ratelimit, "_store", lambda: tries.append(1) or real_store())
    limit = ratelimit.Limit(f"t:down:{os.getpid()}:{id(settings)}", 3, 3600)
    for _ in range(3):
        ratelimit.Allowance([limit]).take("tries")
    with pytest.raises(Exception, match="too many tries"):
        ratelimit.Allowance([limit]).take("tries")
    assert len(tries) == 1  # the store is tried again only after RETRY_AFTER seconds


@pytest.mark.redis
def test_clients_of_one_redis_share_one_limit_even_racing(settings) -> None:
    prefix = f"cardtable-test-{os.getpid()}-{id(settings)}:limits"
    settings.CACHES = {
        **settings.CACHES,
        "limits": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL},
    }
    settings.CACHES["limits"]["KEY_PREFIX"] = prefix
    limit = ratelimit.Limit("t:race", 25, 3600)
    won = []
    start = threading.Barrier(8)

    def one_client() -> None:
        # Each thread has a cache client of its own, as each server process would.
        start.wait()
        for _ in range(10):
            try:
                ratelimit.Allowance([limit]).take("tries")
                won.append(1)
            except Exception:
                pass

    with ThreadPoolExecutor(8) as pool:
        for _ in range(8):
            pool.submit(one_client)
    assert len(won) == 25
    assert (
        caches["limits"].get(f"t:race:{int(ratelimit.now() // 3600)}") == 25
    )  # the refused gave theirs back
