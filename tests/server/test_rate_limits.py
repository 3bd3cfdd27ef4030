"""One client cannot fill the site (docs/security.md S5): limits per session and per address.

Tables created, guests created, open tables per player, sync and chat are
limited with ``rate_limited`` (HTTP 429 over HTTP); empty waiting tables
expire; the lobby lists the tables someone is at, players present first.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client as HttpClient
from django.utils import timezone

from cardtable.tables import lobby
from cardtable.tables.authority import seating
from cardtable.tables.models import ChatMessage, Connection, Player, Table
from tests.server.conftest import Client, make_player
from tests.server.test_errors import playing_table
from tests.support.http import post_json


@pytest.fixture(autouse=True)
def no_refill(settings) -> None:
    """The limits' counts as configured, in windows too long to roll over: no count hangs on timing."""
    settings.RATE_LIMITS = {
        kind: {who: (count, 3600) for who, (count, _) in limits.items()}
        for kind, limits in settings.RATE_LIMITS.items()
    }


def guest(name: str, address: str = "127.0.0.1") -> HttpClient:
    """A browser at ``address`` that has become a guest."""
    client = HttpClient(REMOTE_ADDR=address)
    assert post_json(client, "/api/session/", {"name": name}).status_code == 200
    return client


def limited(response: object) -> bool:
    """Whether the answer is the protocol's 429 rate_limited."""
    return response.status_code == 429 and response.json()["error"]["code"] == "rate_limited"


@pytest.mark.django_db
def test_one_session_cannot_create_tables_without_bound() -> None:
    ann = guest("Ann")
    made = [post_json(ann, "/api/tables/", {"game": "hearts"}) for _ in range(40)]
    assert [r.status_code for r in made[:5]] == [201] * 5
    assert all(limited(r) for r in made[5:])
    assert Table.objects.count() == 5


@pytest.mark.django_db
def test_a_player_hosts_a_bounded_number_of_open_tables(settings) -> None:
    settings.RATE_LIMITS = {}  # only the count of open tables applies here
    ann = guest("Ann")
    for _ in range(settings.OPEN_TABLES_PER_PLAYER):
        assert post_json(ann, "/api/tables/", {"game": "hearts"}).status_code == 201
    refused = post_json(ann, "/api/tables/", {"game": "hearts"})
    assert limited(refused) and "open tables" in refused.json()["error"]["message"]
    # A finished table no longer counts.
    Table.objects.filter(pk=Table.objects.first().pk).update(status=Table.FINISHED)
    assert post_json(ann, "/api/tables/", {"game": "hearts"}).status_code == 201


@pytest.mark.django_db
def test_one_address_cannot_create_tables_without_bound_from_many_sessions(settings) -> None:
    settings.OPEN_TABLES_PER_PLAYER = 100
    limit = settings.RATE_LIMITS["table"]["address"][0]
    answers = [post_json(guest(f"G{i}", "10.0.0.7"), "/api/tables/", {"game": "hearts"}) for i in range(9)]
    answers += [
        post_json(c, "/api/tables/", {"game": "agram"})
        for c in [guest(f"H{i}", "10.0.0.8") for i in range(9)]
    ]
    assert all(r.status_code == 201 for r in answers)  # two addresses, nine each: within both limits
    sessions = [guest(f"S{i}", "10.0.0.9") for i in range(5)]
    answers = [post_json(sessions[i % 5], "/api/tables/", {"game": "hearts"}) for i in range(30)]
    assert sum(r.status_code == 201 for r in answers) == limit
    assert all(limited(r) for r in answers[int(limit) :])


@pytest.mark.django_db
def test_one_address_creates_a_bounded_number_of_guests_and_renames_are_limited(settings) -> None:
    # A café's evening: forty friends behind one router all become guests...
    answers = [
        post_json(HttpClient(REMOTE_ADDR="10.1.1.1"), "/api/session/", {"name": f"G{i}"}) for i in range(70)
    ]
    assert [r.status_code for r in answers[:40]] == [200] * 40
    # ... but one address cannot make players without bound.
    allowed = settings.RATE_LIMITS["guest"]["address"][0]
    assert 40 <= allowed < 70
    assert all(limited(r) for r in answers[allowed:])
    assert Player.objects.count() == allowed
    assert (
        post_json(HttpClient(REMOTE_ADDR="10.1.1.2"), "/api/session/", {"name": "Elsewhere"}).status_code
        == 200
    )
    # Renames spend none of the guests' allowance, but have their own, per player.
    renames = settings.RATE_LIMITS["rename"]["player"][0]
    ann = guest("Ann", "10.1.1.3")
    answers = [post_json(ann, "/api/session/", {"name": f"Ann{i}"}) for i in range(renames + 3)]
    assert all(r.status_code == 200 for r in answers[:renames])
    assert all(limited(r) for r in answers[renames:])
    assert Player.objects.get(name__startswith="Ann").name == f"Ann{renames - 1}"  # refused: unchanged


def spoofed(table_id: str, cookie: str | None, address: str) -> Client:
    """A websocket client whose connection comes from ``address``."""
    client = Client(table_id, cookie)
    client.comm.scope["client"] = (address, 40000)
    return client


async def answered(client: Client) -> None:
    """Read until every message sent so far is answered: a last one's error, in order, comes after them."""
    await client.send({"type": "no such type", "id": "last"})
    await client.until(lambda m: m.get("id") == "last")


@pytest.mark.django_db(transaction=True)
async def test_many_fresh_guests_at_one_address_share_one_chat_allowance(settings) -> None:
    table, _ = await database_sync_to_async(playing_table)()
    cookies = [(await database_sync_to_async(make_player)(f"g{i}"))[1] for i in range(20)]
    clients = [await spoofed(table.pk, cookie, "10.2.2.2").connect() for cookie in cookies]
    codes = []
    for client in clients:
        for n in range(5):  # each guest within their own allowance (burst 5)
            await client.send({"type": "chat", "text": f"line {n}"})
    for client in clients:
        await answered(client)
        codes += [m.get("code") for m in client.messages if m["type"] == "error" and m.get("id") != "last"]
    posted = await database_sync_to_async(ChatMessage.objects.count)()
    burst = settings.RATE_LIMITS["chat"]["address"][0]
    assert posted == burst
    assert codes and set(codes) == {"rate_limited"}
    # Another address is not held back by this one.
    cookie = (await database_sync_to_async(make_player)("h"))[1]
    other = await spoofed(table.pk, cookie, "10.3.3.3").connect()
    await other.send({"type": "chat", "text": "hello"})
    assert (await other.until(lambda m: m["type"] in ("chat", "error")))["type"] == "chat"


@pytest.mark.django_db(transaction=True)
async def test_sync_is_limited_per_player_and_per_address(settings) -> None:
    table, people = await database_sync_to_async(playing_table)()
    ann = await spoofed(table.pk, people[0][1], "10.4.4.4").connect()
    for _ in range(30):
        await ann.send({"type": "sync"})
    await answered(ann)
    errors = [m for m in ann.messages if m["type"] == "error" and m.get("id") != "last"]
    burst = settings.RATE_LIMITS["sync"]["player"][0]
    assert len(errors) == 30 - burst
    assert {e["code"] for e in errors} == {"rate_limited"}
    # Spectators (no player) are held by their address's allowance.
    watchers = [await spoofed(table.pk, None, "10.5.5.5").connect() for _ in range(4)]
    for watcher in watchers:
        for _ in range(20):
            await watcher.send({"type": "sync"})
    refused = 0
    for watcher in watchers:
        await answered(watcher)
        refused += sum(m["type"] == "error" and m["code"] == "rate_limited" for m in watcher.messages)
    address_burst = settings.RATE_LIMITS["sync"]["address"][0]
    assert refused == 80 - address_burst


@pytest.mark.django_db
def test_the_lobby_lists_tables_someone_is_at_with_players_first(settings) -> None:
    settings.RATE_LIMITS, settings.OPEN_TABLES_PER_PLAYER = {}, 1000
    bob = guest("Bob")
    post_json(bob, "/api/tables/", {"game": "agram"})
    busy = Table.objects.get()
    Connection.objects.create(channel="bob-1", table=busy, player=Player.objects.get(), seen=timezone.now())
    flood = guest("Flood")
    for _ in range(120):  # newer than Bob's, nobody at them: not tables to join or watch
        assert post_json(flood, "/api/tables/", {"game": "hearts"}).status_code == 201
    watched = Table.objects.filter(game="hearts").order_by("created").first()
    Connection.objects.create(channel="watcher-1", table=watched, player=None, seen=timezone.now())
    listed = HttpClient().get("/api/tables/").json()
    assert [t["id"] for t in listed] == [busy.pk, watched.pk]  # a player there first, then a spectator's
    assert listed[0]["present"] == 1 and listed[1]["present"] == 0


@pytest.mark.django_db
def test_waiting_tables_nobody_is_at_expire(settings) -> None:
    ann, _ = make_player("Ann")
    old = timezone.now() - timedelta(seconds=settings.WAITING_TABLE_TTL + 1)
    seating.create_table(ann, "hearts")  # nobody ever at it
    watched = seating.create_table(ann, "hearts")
    seated = seating.create_table(ann, "agram", 2)
    seating.sit(seated.pk, ann, 0)
    fresh = seating.create_table(ann, "hearts")
    playing, _ = playing_table()
    Table.objects.exclude(pk=fresh.pk).update(updated=old)
    Connection.objects.create(channel="w-1", table=watched, player=None, seen=timezone.now())
    assert lobby.expire_idle() == 2  # the idle one, and the one its only player left long ago
    left = set(Table.objects.values_list("pk", flat=True))
    assert left == {watched.pk, fresh.pk, playing.pk}
    # Leaving a waiting table restarts its clock.
    Connection.objects.create(channel="w-2", table=fresh, player=ann, seen=timezone.now())
    Table.objects.filter(pk=fresh.pk).update(updated=old)
    from cardtable.tables.authority import presence

    presence.leave("w-2")
    assert lobby.expire_idle() == 0 and Table.objects.filter(pk=fresh.pk).exists()
