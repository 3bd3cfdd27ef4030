"""A table's deal cannot be searched for: 128 secret bits, never shown while the game runs.

docs/security.md S1: with a 31-bit seed a player found the seed of their game
from their own hand by trying every seed, and with it every hand of every deal.
"""

from __future__ import annotations

import json
import secrets

import pytest
from channels.db import database_sync_to_async
from django.contrib.auth.models import User
from django.test import Client as HttpClient

from cardtable.tables.authority import seating
from cardtable.tables.models import Match, Player, Table
from cardtable.tables.replay import replay
from games import get_game
from tests.server.conftest import Client, make_player

pytestmark = pytest.mark.django_db(transaction=True)


def started_table(game_id: str = "hearts") -> tuple[Table, list[tuple[Player, str]]]:
    """A table of ``game_id`` with a guest in every seat, started."""
    people = [make_player(name) for name in ("Ann", "Bob", "Cat", "Dan")]
    table = seating.create_table(people[0][0], game_id, 4, {})
    for index, (player, _) in enumerate(people):
        seating.sit(table.pk, player, index)
    seating.start(table.pk, people[0][0])
    return Table.objects.get(pk=table.pk), people


def test_a_tables_seed_is_drawn_from_at_least_128_secret_bits(monkeypatch: pytest.MonkeyPatch) -> None:
    """The seed comes from the OS's CSPRNG with 128 bits or more, and is stored and replayed exactly."""
    asked: list[int] = []
    draw = secrets.randbits

    def spy(bits: int) -> int:
        asked.append(bits)
        return draw(bits)

    monkeypatch.setattr(secrets, "randbits", spy)
    seeds = []
    for _ in range(8):
        table, _ = started_table()
        match = Match.objects.get(table=table)  # read back from the database
        seeds.append(match.seed)
        game = get_game(table.game)
        # The stored seed deals exactly the stored game, and the log replays it.
        assert game.to_json(game.new(4, dict(match.options), match.seed)) == table.state
        *_, (version, state) = replay(match)
        assert version == table.version and game.to_json(state) == table.state
    assert asked and min(asked) >= 128, f"seeds drawn from {asked} bits"
    # Eight seeds of 128 random bits all below 2**120 would happen once in 2**64 tries.
    assert max(seed.bit_length() for seed in seeds) > 120
    assert len(set(seeds)) == len(seeds)


def _pages(table_id: str, staff: User) -> list[str]:
    """Every page and API answer about a running table, as a guest, a seated player and staff see them."""
    match = Match.objects.get(table_id=table_id)
    guest, staffer = HttpClient(), HttpClient()
    staffer.force_login(staff)
    paths = [
        "/",
        "/api/tables/",
        f"/api/tables/{table_id}/",
        f"/t/{table_id}/",
        f"/replay/{table_id}/",
        f"/replay/{table_id}/1/",
        f"/api/tables/{table_id}/games/1/replay/",
    ]
    staff_paths = [
        "/staff/dashboard/",
        "/admin/tables/match/",
        f"/admin/tables/match/{match.pk}/change/",
        f"/admin/tables/table/{table_id}/change/",
        f"/admin/tables/moverecord/?match__id__exact={match.pk}",
    ]
    texts = [guest.get(path).content.decode() for path in paths]
    texts += [staffer.get(path).content.decode() for path in paths + staff_paths]
    return texts


async def test_no_message_or_page_of_a_running_game_carries_the_seed() -> None:
    table, people = await database_sync_to_async(started_table)()
    clients = [await Client(table.pk, cookie).connect() for _, cookie in people]
    clients.append(await Client(table.pk).connect())  # a spectator
    for client in clients:
        await client.send({"type": "sync"})
        await client.quiet()
    staff = await database_sync_to_async(User.objects.create_user)("staff", is_staff=True, is_superuser=True)
    texts = await database_sync_to_async(_pages)(table.pk, staff)
    texts += [json.dumps(message) for client in clients for message in client.messages]
    match = await database_sync_to_async(Match.objects.get)(table=table)
    assert len(texts) > 20 and all(message["type"] != "error" for c in clients for message in c.messages)
    for form in (str(match.seed), f"{match.seed:x}", f"{match.seed:X}"):
        leaks = [text[:80] for text in texts if form in text]
        assert not leaks, f"the seed appears in {leaks}"
