"""The turn clock over the websocket: deadlines, timeout moves, away after two, restarts and races.

Time is moved forward with ``advance`` (the clock's ``now`` plus an offset, and
the watched timers set again) instead of sleeping through a 5 s clock.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator
from datetime import datetime, timedelta

import pytest
from channels.db import database_sync_to_async
from django.db import connections
from django.test import Client as HttpClient
from django.utils import timezone

from cardtable.dashboard import recycle_games
from cardtable.dashboard.models import StoredGame
from cardtable.tables.authority import clocks, moving, seating
from cardtable.tables.autoplay import turns
from cardtable.tables.autoplay.driver import driver
from cardtable.tables.models import Connection, MoveRecord, Seat, Table
from games import get_game
from games.recycle import library
from tests.server.conftest import Client, make_player
from tests.server.test_recovery import log_is_whole, to_act

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def advance(monkeypatch: pytest.MonkeyPatch):
    """Move the turn clock forward by some seconds, at once."""
    offset = [0.0]
    real = clocks.now
    monkeypatch.setattr(clocks, "now", lambda: real() + timedelta(seconds=offset[0]))

    def forward(seconds: float) -> None:
        offset[0] += seconds
        driver.rearm_all()

    return forward


def clocked_table(clock: int = 5, bot: bool = False, game: str = "agram") -> tuple[Table, list]:
    """A started table with a clock: Ann (host) in seat 0, Bob (or a bot) in seat 1."""
    ann, bob = make_player("Ann"), make_player("Bob")
    count = 2 if game == "agram" else 4
    table = seating.create_table(ann[0], game, count, {}, clock)
    seating.sit(table.pk, ann[0], 0)
    if bot:
        seating.add_bot(table.pk, ann[0], 1, "random")
    else:
        seating.sit(table.pk, bob[0], 1)
    for index in range(2, count):
        seating.add_bot(table.pk, ann[0], index, "random")
    seating.start(table.pk, ann[0])
    return Table.objects.get(pk=table.pk), [ann, bob]


def timeouts() -> list[tuple[int, int]]:
    """(seat, version) of every move the clock made."""
    return list(
        MoveRecord.objects.filter(by=MoveRecord.TIMEOUT).order_by("id").values_list("seat", "version")
    )


async def both(table: Table, people: list) -> tuple[Client, Client]:
    """Connect Ann and Bob and read until both are quiet."""
    ann = await Client(table.pk, people[0][1]).connect()
    bob = await Client(table.pk, people[1][1]).connect()
    await ann.quiet()
    await bob.quiet()
    return ann, bob


def test_the_clock_is_chosen_at_creation_and_checked() -> None:
    ann, _ = make_player("Ann")
    client = HttpClient()
    session = client.session
    from cardtable.tables.players.identity import SESSION_KEY

    session[SESSION_KEY] = ann.pk
    session.save()
    for bad in (4, 301, "30", True, 12.5, -5):
        response = client.post(
            "/api/tables/", {"game": "agram", "clock": bad}, content_type="application/json"
        )
        assert response.status_code == 400 and response.json()["error"]["code"] == "bad_options", bad
    assert Table.objects.count() == 0
    made = client.post("/api/tables/", {"game": "agram", "clock": 15}, content_type="application/json")
    assert made.status_code == 201 and made.json()["clock"] == 15 and made.json()["deadline"] is None
    plain = client.post("/api/tables/", {"game": "agram"}, content_type="application/json").json()
    assert plain["clock"] == 0


async def test_a_deadline_runs_for_the_seat_to_act_and_restarts_with_each_move() -> None:
    table, people = await database_sync_to_async(clocked_table)()
    ann, bob = await both(table, people)
    deadline = datetime.fromisoformat(ann.state["table"]["deadline"])
    left = (deadline - timezone.now()).total_seconds()
    assert 3 < left <= 5 and ann.state["table"]["clock"] == 5
    mover = ann if ann.state["legal_moves"] else bob
    await asyncio.sleep(0.3)
    await mover.send(
        {"type": "move", "move": mover.state["legal_moves"][0], "version": mover.state["version"]}
    )
    after = await ann.until(lambda m: m["type"] == "state" and m["version"] > table.version)
    assert datetime.fromisoformat(after["table"]["deadline"]) > deadline
    assert after["table"]["last_timeout"] == []


async def test_when_the_deadline_passes_the_server_moves_for_the_late_seat(advance) -> None:
    # A minute's clock: the real seconds the setup takes under load stay well inside the margin.
    table, people = await database_sync_to_async(clocked_table)(clock=60)
    ann, bob = await both(table, people)
    late = ann.state["to_act"][0]
    version = ann.state["version"]
    advance(50)
    assert await bob.comm.receive_nothing(timeout=0.3)  # not yet: ten seconds are left
    assert await database_sync_to_async(timeouts)() == []
    advance(11)
    state = await bob.until(lambda m: m["type"] == "state" and m["version"] > version)
    assert state["table"]["last_timeout"] == [late] and state["view"]["last"]["seat"] == late
    assert await database_sync_to_async(timeouts)() == [(late, version + 1)]
    seat = await database_sync_to_async(Seat.objects.get)(table=table, index=late)
    assert seat.timeouts == 1 and not seat.stand_in  # one timeout: not away yet
    assert await database_sync_to_async(log_is_whole)(table.pk)


async def test_two_timeouts_in_a_row_make_a_seat_away_and_the_stand_in_plays_on(advance) -> None:
    table, people = await database_sync_to_async(clocked_table)(bot=True, game="hearts")
    ann = await Client(table.pk, people[0][1]).connect()
    for _ in range(2):  # Ann lets the clock run out twice
        while not ann.state["legal_moves"]:
            await ann.next_state()
        version = ann.state["version"]
        advance(6)
        await ann.until(
            lambda m, v=version: m["type"] == "state" and m["version"] > v and 0 in m["table"]["last_timeout"]
        )
    seat = await database_sync_to_async(Seat.objects.get)(table=table, index=0)
    assert seat.stand_in and seat.timeouts == 2
    await ann.until(lambda m: m["type"] == "state" and m["table"]["seats"][0]["stand_in"])
    assert ann.state["table"]["seats"][0]["connected"]
    # Away: the stand-in plays Ann's turns without waiting for the clock.
    before = len(await database_sync_to_async(timeouts)())
    for _ in range(200):
        if await database_sync_to_async(MoveRecord.objects.filter(by=MoveRecord.STAND_IN, seat=0).exists)():
            break
        await asyncio.sleep(0.05)
    assert await database_sync_to_async(MoveRecord.objects.filter(by=MoveRecord.STAND_IN, seat=0).exists)()
    assert len(await database_sync_to_async(timeouts)()) == before


async def test_a_human_move_ends_the_run_of_timeouts(advance) -> None:
    table, people = await database_sync_to_async(clocked_table)(bot=True)
    ann = await Client(table.pk, people[0][1]).connect()
    await ann.quiet()
    while not ann.state["legal_moves"]:
        await ann.next_state()
    advance(6)
    await ann.until(lambda m: m["type"] == "state" and m["table"]["last_timeout"] == [0])
    assert (await database_sync_to_async(Seat.objects.get)(table=table, index=0)).timeouts == 1
    while ann.state["table"]["status"] == "playing" and not ann.state["legal_moves"]:
        await ann.next_state()
    if ann.state["table"]["status"] != "playing":
        pytest.fail("the game ended before Ann's next turn")
    version = ann.state["version"]
    await ann.send({"type": "move", "move": ann.state["legal_moves"][0], "version": version})
    await ann.until(lambda m: m["type"] == "state" and m["version"] > version)
    seat = await database_sync_to_async(Seat.objects.get)(table=table, index=0)
    assert seat.timeouts == 0 and not seat.stand_in


def test_a_player_away_after_timeouts_has_the_seat_back_by_moving() -> None:
    table, people = clocked_table(bot=True)
    ann = people[0][0]
    if to_act(table.pk) == [1]:  # the bot leads: play its move (no driver runs here)
        current = Table.objects.get(pk=table.pk)
        game = get_game(current.game)
        move = game.legal_moves(game.from_json(current.state), 1)[0]
        moving.apply_move(table.pk, move, current.version, seat=1, by=MoveRecord.BOT)
    Seat.objects.filter(table=table, index=0).update(stand_in=True, timeouts=2)  # two timeouts made her away
    current = Table.objects.get(pk=table.pk)
    game = get_game(current.game)
    move = game.legal_moves(game.from_json(current.state), 0)[0]
    moving.apply_move(table.pk, move, current.version, player=ann)
    seat = Seat.objects.get(table=table, index=0)
    assert not seat.stand_in and seat.timeouts == 0


async def test_a_pending_deadline_survives_a_restart(advance) -> None:
    table, people = await database_sync_to_async(clocked_table)()
    ann, bob = await both(table, people)
    late = ann.state["to_act"][0]
    deadline = ann.state["table"]["deadline"]
    version = ann.state["version"]
    # The process dies: its timers and connections go; someone watches through another process.
    await ann.close()
    await bob.close()
    driver.reset()
    await database_sync_to_async(Connection.objects.create)(
        channel="other-process!1", table_id=table.pk, player=None, seen=timezone.now()
    )
    stored = await database_sync_to_async(Table.objects.get)(pk=table.pk)
    assert stored.deadline.isoformat() == deadline  # kept in the database
    advance(6)
    await driver.resume_all()  # the new process starts
    for _ in range(100):
        if await database_sync_to_async(timeouts)():
            break
        await asyncio.sleep(0.05)
    assert await database_sync_to_async(timeouts)() == [(late, version + 1)]


def _race(table_id: str, results: list, barrier: threading.Barrier) -> None:
    try:
        barrier.wait()
        results.append(turns.expire(table_id))
    finally:
        connections.close_all()


async def test_two_processes_racing_for_one_expired_deadline_make_one_timeout_move(advance) -> None:
    table, people = await database_sync_to_async(clocked_table)()
    ann, _ = await both(table, people)
    late = ann.state["to_act"][0]
    version = ann.state["version"]
    driver.reset()  # nobody here acts: only the two racers below
    advance(6)
    results: list = []
    barrier = threading.Barrier(2)
    racers = [threading.Thread(target=_race, args=(table.pk, results, barrier)) for _ in range(2)]
    for racer in racers:
        racer.start()
    for racer in racers:
        await asyncio.to_thread(racer.join, 20)
    assert sorted(results) == [[], [late]]
    assert await database_sync_to_async(timeouts)() == [(late, version + 1)]
    assert await database_sync_to_async(log_is_whole)(table.pk)


async def test_in_a_simultaneous_phase_the_clock_moves_for_every_late_seat(advance) -> None:
    table, people = await database_sync_to_async(clocked_table)(game="hearts")
    ann, bob = await both(table, people)
    assert sorted(ann.state["to_act"]) == [0, 1]  # the pass: the bots have passed
    await ann.send({"type": "move", "move": ann.state["legal_moves"][0], "version": ann.state["version"]})
    await bob.until(lambda m: m["type"] == "state" and m["to_act"] == [1])
    advance(6)
    state = await bob.until(lambda m: m["type"] == "state" and m["table"]["last_timeout"] == [1])
    assert 1 not in state["to_act"] or state["view"]["phase"] != "pass"
    assert [seat for seat, _ in await database_sync_to_async(timeouts)()] == [1]


async def test_a_table_without_a_clock_has_no_deadline(advance) -> None:
    table, people = await database_sync_to_async(clocked_table)(clock=0)
    ann, _ = await both(table, people)
    assert ann.state["table"]["deadline"] is None and ann.state["table"]["clock"] == 0
    advance(3600)
    assert await ann.comm.receive_nothing(timeout=0.3)
    assert await database_sync_to_async(to_act)(table.pk) == ann.state["to_act"]


@pytest.fixture
def stored_agram() -> Iterator[str]:
    """The library's Agram stored as a RECYCLE game staff added (four seats); return its id."""
    StoredGame.objects.create(
        game_id="recycle_clock_agram", name="Clock Agram", text=library()["agram"].read_text(), players=4
    )
    yield "recycle_clock_agram"
    recycle_games.forget("recycle_clock_agram")


async def test_the_clock_moves_for_a_late_seat_of_a_stored_recycle_game(advance, stored_agram) -> None:
    table, people = await database_sync_to_async(clocked_table)(game=stored_agram)
    ann, bob = await both(table, people)
    state = ann.state
    if state["to_act"][0] not in (0, 1):  # the bots in seats 2 and 3 play at once
        state = await ann.until(lambda m: m["type"] == "state" and m["to_act"] and m["to_act"][0] in (0, 1))
    late, version = state["to_act"][0], state["version"]
    advance(5.5)
    after = await bob.until(lambda m: m["type"] == "state" and m["table"]["last_timeout"] == [late])
    assert after["version"] > version and after["view"]["last"]["seat"] == late
    assert (late, version + 1) in await database_sync_to_async(timeouts)()
    assert await database_sync_to_async(log_is_whole)(table.pk)
