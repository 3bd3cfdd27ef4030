"""The hint: the normal bot's move for the asker's own seat, to that connection only."""

from __future__ import annotations

import pytest
from channels.db import database_sync_to_async

from cardtable.tables.authority import seating
from cardtable.tables.models import Table
from tests.server.conftest import Client, make_player

pytestmark = pytest.mark.django_db(transaction=True)


def two_humans_table() -> tuple[Table, list]:
    """An Agram table for two humans, started: Ann (host, seat 0) and Bob (seat 1)."""
    ann, bob = make_player("Ann"), make_player("Bob")
    table = seating.create_table(ann[0], "agram", 2, {})
    seating.sit(table.pk, bob[0], 1)
    seating.start(table.pk, ann[0])
    return Table.objects.get(pk=table.pk), [ann, bob]


async def test_a_hint_is_one_of_your_legal_moves_and_only_you_get_it(settings) -> None:
    settings.RATE_LIMITS = {**settings.RATE_LIMITS, "hint": {"player": (2, 3600)}}
    table, people = await database_sync_to_async(two_humans_table)()
    clients = [await Client(table.pk, cookie).connect() for _, cookie in people]
    states = [c.state for c in clients]  # each connect read its state
    to_act = states[0]["to_act"][0]
    mover, other = clients[to_act], clients[1 - to_act]
    legal = states[to_act]["legal_moves"]

    # The seat not to act is told so; a spectator has no player.
    await other.send({"type": "hint", "id": "h-0"})
    error = await other.error()
    assert (error["code"], error["id"]) == ("not_your_turn", "h-0")
    spectator = await Client(table.pk).connect()
    await spectator.send({"type": "hint"})
    assert (await spectator.error())["code"] == "no_player"

    await mover.send({"type": "hint", "id": "h-1"})
    hint = await mover.until(lambda m: m["type"] == "hint")
    assert hint["id"] == "h-1" and hint["move"] in legal
    # Nobody else hears of it, and the table did not change.
    await other.quiet()
    assert not [m for m in other.messages if m["type"] == "hint"]
    assert (await database_sync_to_async(Table.objects.get)(pk=table.pk)).version == table.version

    # A second within the burst is answered; a third is refused as too many.
    await mover.send({"type": "hint", "id": "h-2"})
    assert (await mover.until(lambda m: m["type"] == "hint"))["move"] in legal
    await mover.send({"type": "hint", "id": "h-3"})
    error = await mover.error()
    assert (error["code"], error["id"]) == ("rate_limited", "h-3")
