"""Reconnects, missed wakes, absent players, and a server restart: the database is the truth."""

from __future__ import annotations

import asyncio

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from cardtable.tables.authority import moving, state
from cardtable.tables.autoplay.driver import driver
from cardtable.tables.live import broadcast, fanout
from cardtable.tables.models import Connection, MoveRecord, Seat, Table
from cardtable.tables.replay import replay
from games import get_game
from tests.server.conftest import Client
from tests.server.test_errors import playing_table

pytestmark = pytest.mark.django_db(transaction=True)


def move_for(table_id: str, seat: int) -> tuple[dict, int]:
    """A legal move for ``seat`` and the table's version."""
    table = Table.objects.get(pk=table_id)
    game = get_game(table.game)
    return game.legal_moves(game.from_json(table.state), seat)[0], table.version


def to_act(table_id: str) -> list[int]:
    """Who is to act at the table now."""
    table = Table.objects.get(pk=table_id)
    game = get_game(table.game)
    return game.to_act(game.from_json(table.state))


def log_is_whole(table_id: str) -> bool:
    """The log is numbered 1..n without gap or repeat, and replaying it gives the stored state."""
    table = Table.objects.get(pk=table_id)
    game = get_game(table.game)
    match = table.matches.get(number=table.game_number)
    seqs = list(match.moves.values_list("seq", flat=True))
    *_, (version, final) = replay(match)
    return (
        seqs == list(range(1, len(seqs) + 1))
        and version == table.version
        and game.to_json(final) == table.state
    )


def moves_by() -> list[tuple[int, str]]:
    """(seat, by) of every logged move."""
    return list(MoveRecord.objects.order_by("id").values_list("seat", "by"))


async def wait_until_ann_acts(ann: Client) -> None:
    """Read Ann's states until she is to act or the game is over."""
    while not (ann.state["legal_moves"] or ann.state["table"]["status"] == "finished"):
        await ann.next_state(timeout=15)


async def test_a_reconnecting_client_gets_what_it_missed() -> None:
    table, people = await database_sync_to_async(playing_table)()
    ann = await Client(table.pk, people[0][1]).connect()
    bob = await Client(table.pk, people[1][1]).connect()
    await bob.close()
    mover = (await database_sync_to_async(to_act)(table.pk))[0]
    move, version = await database_sync_to_async(move_for)(table.pk, mover)
    await database_sync_to_async(moving.apply_move)(table.pk, move, version, seat=mover)
    await ann.until(lambda m: m["type"] == "state" and m["version"] == version + 1)
    bob = await Client(table.pk, people[1][1]).connect()
    assert bob.state["version"] == version + 1
    assert bob.state["view"]["last"] == {"seat": mover, "move": move}
    assert bob.state["you"]["seat"] == 1


async def test_a_missed_wake_is_repaired_by_sync(monkeypatch: pytest.MonkeyPatch) -> None:
    table, people = await database_sync_to_async(playing_table)()
    ann = await Client(table.pk, people[0][1]).connect()
    await ann.quiet()
    monkeypatch.setattr(broadcast, "_send", lambda *args: None)  # the channel layer loses the wake
    monkeypatch.setattr(fanout.Hub, "publish", lambda *args: None)  # and so does the process's hub
    mover = (await database_sync_to_async(to_act)(table.pk))[0]
    move, version = await database_sync_to_async(move_for)(table.pk, mover)
    await database_sync_to_async(moving.apply_move)(table.pk, move, version, seat=mover)
    assert await ann.comm.receive_nothing(timeout=0.3)
    assert ann.state["version"] == version
    await ann.send({"type": "sync"})
    assert (await ann.next_state())["version"] == version + 1


async def test_a_bot_stands_in_for_an_absent_human_until_they_return(settings) -> None:
    settings.DISCONNECT_GRACE = 0.3
    table, people = await database_sync_to_async(playing_table)()
    ann = await Client(table.pk, people[0][1]).connect()
    bob = await Client(table.pk, people[1][1]).connect()
    await ann.until(lambda m: m["type"] == "state" and m["table"]["seats"][1]["connected"])
    await bob.close()
    seat = await ann.until(lambda m: m["type"] == "state" and m["table"]["seats"][1]["stand_in"], timeout=15)
    assert seat["table"]["seats"][1]["connected"] is False
    # The stand-in plays Bob's turns, so the game moves on without him.
    await wait_until_ann_acts(ann)
    if (1, "stand_in") not in await database_sync_to_async(moves_by)():  # Ann was to act first
        await ann.send({"type": "move", "move": ann.state["legal_moves"][0], "version": ann.state["version"]})
        await ann.next_state()
        await wait_until_ann_acts(ann)
    bys = await database_sync_to_async(moves_by)()
    assert (1, "stand_in") in bys and all(by == "human" for s, by in bys if s == 0)
    bob = await Client(table.pk, people[1][1]).connect()
    assert bob.state["table"]["seats"][1]["stand_in"] is False and bob.state["table"]["seats"][1]["connected"]
    assert not await database_sync_to_async(Seat.objects.filter(stand_in=True).exists)()
    # Back in his seat, Bob's turn waits for Bob.
    await ann.quiet()
    if ann.state["table"]["status"] == "playing" and ann.state["legal_moves"]:
        await ann.send({"type": "move", "move": ann.state["legal_moves"][0], "version": ann.state["version"]})
        await ann.next_state()
        await bob.quiet()
        if bob.state["legal_moves"]:
            version = bob.state["version"]
            await asyncio.sleep(0.5)
            assert (await database_sync_to_async(Table.objects.get)(pk=table.pk)).version == version


async def test_after_a_restart_a_pending_bot_turn_resumes_from_the_database(settings) -> None:
    settings.BOT_PAUSE = 60  # the bot's turn is pending when the "process" dies
    table, people = await database_sync_to_async(playing_table)(bot=True)
    ann = await Client(table.pk, people[0][1]).connect()
    if ann.state["legal_moves"]:
        await ann.send({"type": "move", "move": ann.state["legal_moves"][0], "version": ann.state["version"]})
        await ann.until(lambda m: m["type"] == "state" and m["to_act"] == [1])
    await asyncio.sleep(0.1)
    version = (await database_sync_to_async(Table.objects.get)(pk=table.pk)).version
    assert await database_sync_to_async(to_act)(table.pk) == [1]
    # The process dies: every scheduled turn, cached state and connection is gone,
    # and a dead connection's row is left behind.
    await ann.close()
    driver.reset()
    state._STATES.clear()
    await database_sync_to_async(Connection.objects.create)(
        channel="dead-process!1", table_id=table.pk, player=people[0][0], seen="2000-01-01T00:00:00Z"
    )
    # Someone watches through another, living process (with nobody there the bots would wait).
    await database_sync_to_async(Connection.objects.create)(
        channel="other-process!1", table_id=table.pk, player=None, seen=timezone.now()
    )
    settings.BOT_PAUSE = 0
    await driver.resume_all()
    for _ in range(100):  # the bot plays until it is Ann's turn (it may win a trick and lead again)
        after = await database_sync_to_async(Table.objects.get)(pk=table.pk)
        if after.version > version and (
            after.status == "finished" or await database_sync_to_async(to_act)(table.pk) == [0]
        ):
            break
        await asyncio.sleep(0.05)
    assert after.version > version
    resumed = await database_sync_to_async(
        lambda: list(MoveRecord.objects.filter(version__gt=version).values_list("by"))
    )()
    assert resumed and set(resumed) == {("bot",)}
    assert await database_sync_to_async(log_is_whole)(table.pk)
    assert not await database_sync_to_async(Connection.objects.filter(channel="dead-process!1").exists)()
    ann = await Client(table.pk, people[0][1]).connect()
    assert ann.state["version"] == after.version
    assert ann.state["table"]["status"] == "finished" or ann.state["legal_moves"]


async def test_rematch_starts_a_new_game_with_the_same_seats() -> None:
    table, people = await database_sync_to_async(playing_table)(bot=True)
    ann = await Client(table.pk, people[0][1]).connect()
    while ann.state["table"]["status"] != "finished":
        if ann.state["legal_moves"]:
            await ann.send(
                {"type": "move", "move": ann.state["legal_moves"][0], "version": ann.state["version"]}
            )
        await ann.next_state()
    await ann.send({"type": "rematch"})
    fresh = await ann.until(lambda m: m["type"] == "state" and m["table"]["status"] == "playing")
    assert fresh["table"]["game_number"] == 2 and "result" not in fresh["view"]
    assert [s["kind"] for s in fresh["table"]["seats"]] == ["human", "bot"]
    assert await database_sync_to_async(lambda: Table.objects.get(pk=table.pk).matches.count())() == 2
