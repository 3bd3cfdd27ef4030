"""One seat per player per game: leave and takeover cannot reach another seat's hand.

docs/security.md, "Fixed after the second outside probe".

The probe: at a three-seat Agram game A holds seat 0 and B seat 1. B leaves;
A sends leave, takeover 1 (and got seat 1's six cards), leave, takeover 0, and
was back in seat 0 as host. Now a player who held a seat in a game may take
back only that seat, and the host stays the host through every seat change:
for the built-in games and the RECYCLE ones alike.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from channels.db import database_sync_to_async

from cardtable.dashboard import recycle_games
from cardtable.dashboard.models import StoredGame
from cardtable.tables.authority import departures, seating
from cardtable.tables.authority.state import state_message
from cardtable.tables.errors import TableError
from cardtable.tables.models import Match, Player, Table
from games.recycle import library
from tests.server.conftest import Client, make_player
from tests.server.test_errors import expect

pytestmark = pytest.mark.django_db(transaction=True)


def probe_table(game: str = "agram", players: int | None = 3) -> tuple[Table, list[tuple[Player, str]]]:
    """A started table: A (host) in seat 0, B in seat 1, random bots in the other seats."""
    a, b = make_player("Ann"), make_player("Bob")
    table = seating.create_table(a[0], game, players, {})
    seating.sit(table.pk, b[0], 1)
    for index in range(2, table.players):
        seating.add_bot(table.pk, a[0], index, "random")
    seating.start(table.pk, a[0])
    return Table.objects.get(pk=table.pk), [a, b]


def record(table_id: str) -> tuple[int | None, list[dict]]:
    """The table's host and its game's record of departures."""
    table = Table.objects.get(pk=table_id)
    return table.host_id, Match.objects.get(table=table, number=table.game_number).left


def refused(call, *args: object) -> str:
    """Call a service expecting a refusal that changes nothing; return the error's message."""
    table_id = args[0]
    before = (Table.objects.get(pk=table_id).version, record(table_id))
    with pytest.raises(TableError) as error:
        call(*args)
    assert error.value.code == "seat_taken", error.value.message
    assert (Table.objects.get(pk=table_id).version, record(table_id)) == before
    return error.value.message


async def test_the_probes_leave_and_takeover_sequence_no_longer_reaches_another_seat(settings) -> None:
    settings.BOT_PAUSE = 120  # the bots that replace A and B wait: the seats stay open to take over
    table, ((a, a_cookie), (b, b_cookie)) = await database_sync_to_async(probe_table)()
    ann = await Client(table.pk, a_cookie).connect()
    bob = await Client(table.pk, b_cookie).connect()
    await bob.send({"type": "leave"})
    await ann.until(lambda m: m["type"] == "state" and m["table"]["seats"][1]["left"] == "Bob")
    await ann.send({"type": "leave"})
    state = await ann.until(lambda m: m["type"] == "state" and m["table"]["seats"][0]["left"] == "Ann")
    # Nobody is seated now, yet the host is still A.
    assert state["you"] == {"seat": None, "host": True} and state["table"]["host"] == "Ann"
    error = await expect(ann, {"type": "takeover", "seat": 1}, "seat_taken", table.pk)
    assert "seat 0" in error["message"]
    await expect(ann, {"type": "leave"}, "not_seated", table.pk)  # the probe's next step: she holds none
    await ann.quiet()
    assert not [m for m in ann.messages if m["type"] == "state" and m["you"]["seat"] == 1]
    await ann.send({"type": "takeover", "seat": 0})
    back = await ann.until(lambda m: m["type"] == "state" and m["you"]["seat"] == 0)
    assert back["you"]["host"] and back["table"]["host"] == "Ann"
    # B may take back his own seat, and no other.
    await expect(bob, {"type": "takeover", "seat": 2}, "seat_taken", table.pk)
    await bob.send({"type": "takeover", "seat": 1})
    mine = await bob.until(lambda m: m["type"] == "state" and m["you"]["seat"] == 1)
    assert mine["table"]["host"] == "Ann" and not mine["you"]["host"]
    host, left = await database_sync_to_async(record)(table.pk)
    assert host == a.pk
    assert [(d["seat"], d["player"], d["taken_by"]) for d in left] == [(1, b.pk, b.pk), (0, a.pk, a.pk)]


@pytest.fixture
def recycle_agram() -> Iterator[str]:
    """The library's Agram stored as a RECYCLE game (four seats); return its game id."""
    StoredGame.objects.create(
        game_id="recycle_seat_agram", name="Seat Agram", text=library()["agram"].read_text(), players=4
    )
    yield "recycle_seat_agram"
    recycle_games.forget("recycle_seat_agram")


@pytest.mark.parametrize("game", ["agram", "recycle"])
def test_nobody_holds_or_has_held_two_seats_of_one_game(game: str, request: pytest.FixtureRequest) -> None:
    game_id = request.getfixturevalue("recycle_agram") if game == "recycle" else "agram"
    table, ((a, _), (b, _)) = probe_table(game_id, None if game == "recycle" else 3)
    carl, dan = make_player("Carl")[0], make_player("Dan")[0]
    seating.leave(table.pk, b)
    seating.leave(table.pk, a)
    # A, who held seat 0, cannot reach seat 1's hand: the refusal changes nothing.
    refused(seating.takeover, table.pk, a, 1)
    assert state_message(table.pk, a.pk)["you"]["seat"] is None
    assert "hand" not in state_message(table.pk, a.pk)["view"]
    # Carl, a newcomer, takes seat 1; once he has held it, seat 1 is the only one for him.
    seating.takeover(table.pk, carl, 1)
    assert state_message(table.pk, carl.pk)["you"] == {"seat": 1, "host": False}
    seating.leave(table.pk, carl)
    refused(seating.takeover, table.pk, carl, 0)
    refused(seating.takeover, table.pk, b, 0)  # B held seat 1
    seating.takeover(table.pk, carl, 1)  # his own seat back
    seating.takeover(table.pk, dan, 0)  # a newcomer may take A's seat
    refused(seating.takeover, table.pk, a, 0)  # held by Dan now
    host, left = record(table.pk)
    assert host == a.pk  # A left and others took seats: A is still the host
    assert Table.objects.get(pk=table.pk).host_id == a.pk
    assert state_message(table.pk, a.pk)["you"] == {"seat": None, "host": True}
    # Leaving and coming back again and again keeps one entry per seat and player.
    for _ in range(5):
        seating.leave(table.pk, carl)
        seating.takeover(table.pk, carl, 1)
    _, left = record(table.pk)
    assert sorted((d["seat"], d["player"]) for d in left) == [(0, a.pk), (1, b.pk), (1, carl.pk)]


def test_a_seat_changes_hands_a_bounded_number_of_times_a_game() -> None:
    table, (_, (b, _)) = probe_table()
    seating.leave(table.pk, b)
    takers = [make_player(name)[0] for name in ("Carl", "Dan", "Eve", "Fay")]
    for taker in takers[: departures.HOLDERS_PER_SEAT - 1]:  # B and three more have held seat 1
        seating.takeover(table.pk, taker, 1)
        seating.leave(table.pk, taker)
    message = refused(seating.takeover, table.pk, takers[-1], 1)
    assert "too often" in message
    seating.takeover(table.pk, b, 1)  # one who held it may still come back
    _, left = record(table.pk)
    assert len(left) == departures.HOLDERS_PER_SEAT
