"""Whole games of every game in games.GAMES, played through websockets by separate clients.

Each human seat is its own websocket client choosing random legal moves; one
seat is a server-driven random bot, and a spectator watches. Afterwards every
state message each client received is checked against the game rebuilt from the
move log: exactly its own seat's view, and no card from another seat's hand.
"""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest
from channels.db import database_sync_to_async

from cardtable.tables import events
from cardtable.tables.authority import seating
from cardtable.tables.models import Match, Table
from games import GAMES, get_game
from tests.server.conftest import Client, new_player
from tests.server.helpers import check_messages, random_move, roundtrip, short_options

pytestmark = pytest.mark.django_db(transaction=True)


async def play_randomly(client: Client, rng: random.Random) -> None:
    """Answer every state where this seat is to act with a random legal move, until the game ends."""
    sent_at = -1
    while True:
        message = await client.receive(timeout=60)
        if message["type"] == "error":
            # Only a race with another seat's message may refuse a move from legal_moves.
            assert message["code"] in ("stale_version", "not_your_turn"), message
            await client.send({"type": "sync"})
            continue
        if message["type"] != "state":
            continue
        if message["table"]["status"] == "finished":
            return
        if message["legal_moves"] and message["version"] != sent_at:
            sent_at = message["version"]
            move = random_move(message, rng)
            await client.send({"type": "move", "move": move, "version": message["version"], "id": sent_at})


async def watch(client: Client) -> None:
    """Read states until the game ends."""
    while (await client.next_state(timeout=60))["table"]["status"] != "finished":
        pass


@pytest.mark.parametrize("game_id", sorted(GAMES))
async def test_whole_game_over_websockets(game_id: str, settings: Any, monkeypatch: Any) -> None:
    # The seats answer as fast as the server does, far faster than a person: the
    # message allowance (WS_RATE) and the sync allowance (each refused move is
    # answered with a sync), both tested in test_rate_limits, are not what is tested here.
    settings.WS_RATE = settings.WS_BURST = 10_000.0
    settings.RATE_LIMITS_ON = False
    finished: list[events.MatchFinished] = []
    monkeypatch.setitem(events._handlers, events.MatchFinished, [finished.append])
    game = get_game(game_id)
    seats = game.info.default_players
    humans = max(1, seats - 1)
    players = [await new_player(f"P{i}") for i in range(humans)]
    table = await database_sync_to_async(seating.create_table)(
        players[0][0], game_id, seats, short_options(game_id)
    )
    clients = [await Client(table.pk, cookie).connect() for _, cookie in players]
    spectator = await Client(table.pk).connect()
    for index, client in enumerate(clients):
        await client.send({"type": "sit", "seat": index})
        await client.until(lambda m, i=index: m["type"] == "state" and m["you"]["seat"] == i)
    for index in range(humans, seats):
        await clients[0].send({"type": "bot", "seat": index, "level": "random"})
    await clients[0].until(
        lambda m: m["type"] == "state" and all(s["kind"] != "empty" for s in m["table"]["seats"])
    )
    await clients[0].send({"type": "start"})
    await asyncio.wait_for(
        asyncio.gather(
            *(play_randomly(c, random.Random(i)) for i, c in enumerate(clients)), watch(spectator)
        ),
        timeout=240,
    )

    table = await database_sync_to_async(Table.objects.get)(pk=table.pk)
    assert table.status == "finished"
    match = await database_sync_to_async(Match.objects.get)(table=table, number=1)
    assert match.result is not None and match.finished is not None
    assert finished == [events.MatchFinished(table.pk, match.pk)]
    final = clients[0].state
    assert final["view"]["result"] == match.result
    # The stored state is exactly the one rebuilt from the seed and the log.
    replayed = await database_sync_to_async(_last_state)(match)
    assert replayed == table.state
    received = {i: c.messages for i, c in enumerate(clients)}
    received[None] = spectator.messages
    checked = await database_sync_to_async(check_messages)(table.pk, received)
    assert checked > 10
    for client in [*clients, spectator]:
        await client.close()


def _last_state(match: Match) -> dict:
    """The game's final state rebuilt from its seed and log, as JSON."""
    from cardtable.tables.replay import replay

    game = get_game(match.game)
    *_, (_version, state) = replay(match)
    return roundtrip(game.to_json(state))
