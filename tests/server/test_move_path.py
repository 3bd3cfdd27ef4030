"""The move path without reads: the committed snapshot reaches every seat, and a guarded write.

The process that made a move tells its connections from the snapshot it holds;
a wake carries that snapshot to other processes; a human move on the version
this process knows is one UPDATE guarded by that version, and when the table
moved on behind the process's back the guard writes nothing and the locked
way answers.
"""

from __future__ import annotations

import asyncio
import json
import time
from dataclasses import replace
from datetime import timedelta
from typing import Any

import pytest
from channels.db import database_sync_to_async
from channels.layers import get_channel_layer
from django.db.models import F
from django.utils import timezone

from cardtable.tables.authority import known as known_move
from cardtable.tables.authority import moving, presence, seating, state
from cardtable.tables.autoplay.driver import driver
from cardtable.tables.errors import TableError
from cardtable.tables.live import broadcast, consumers, fanout
from cardtable.tables.models import Match, MoveRecord, Seat, Table
from games import get_game
from tests.server.conftest import Client, make_player

pytestmark = pytest.mark.django_db(transaction=True)


def hearts_table() -> tuple[Table, list]:
    """A started four-seat Hearts table of humans, with their session cookies."""
    people = [make_player(f"P{i}") for i in range(4)]
    table = seating.create_table(people[0][0], "hearts", 4, None)
    for index, (player, _) in enumerate(people):
        seating.sit(table.pk, player, index)
    seating.start(table.pk, people[0][0])
    return Table.objects.get(pk=table.pk), people


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Count the connections' reads of a table (``state.snapshot`` through ``consumers`` and the hub)."""
    seen: list[str] = []

    def counted(table_id: str) -> state.Snapshot:
        seen.append(table_id)
        return state.snapshot(table_id)

    monkeypatch.setattr(consumers, "snapshot", counted)
    monkeypatch.setattr(fanout, "snapshot", counted)
    return seen


async def seated_clients(table: Table, people: list) -> list[Client]:
    clients = [await Client(table.pk, cookie).connect() for _, cookie in people]
    for client in clients:
        await client.quiet()
    return clients


async def play_one(clients: list[Client]) -> tuple[int, int]:
    """Make a legal move from a seat to act; wait until every seat has the new version."""
    version = clients[0].state["version"]
    mover = next(c for c in clients if c.state["legal_moves"])
    await mover.send({"type": "move", "move": mover.state["legal_moves"][0], "version": version})
    for client in clients:
        await client.until(lambda m: m["type"] == "state" and m["version"] == version + 1)
    return version, clients.index(mover)


async def test_a_move_reaches_every_seat_of_its_process_without_a_read(reads: list[str]) -> None:
    table, people = await database_sync_to_async(hearts_table)()
    clients = await seated_clients(table, people)
    reads.clear()
    for _ in range(3):  # the first goes the locked way, the next ones on the known version
        await play_one(clients)
    assert reads == []
    for client, (player, _) in zip(clients, people, strict=True):
        fresh = await database_sync_to_async(state.state_message)(table.pk, player.pk)
        assert client.state == json.loads(json.dumps(fresh))  # what a read would have built, for this seat
    hands = {str(client.state["view"]["hand"]) for client in clients}
    assert len(hands) == 4  # each seat got its own view


async def test_a_known_move_s_frames_are_built_while_it_commits_and_sent_only_after(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    table, people = await database_sync_to_async(hearts_table)()
    clients = await seated_clients(table, people)
    await play_one(clients)  # the locked way: from now on this process knows the version
    built: list[int] = []
    at_write: list[tuple[bool, int]] = []
    real_frame_for, real_write = consumers.TableConsumer.frame_for, known_move._write_known

    def counted_frame_for(self: consumers.TableConsumer, snap: state.Snapshot) -> str:
        built.append(snap.version)
        return real_frame_for(self, snap)

    def slow_write(*args: Any) -> bool:
        time.sleep(0.1)  # the database committing: the event loop is free meanwhile
        hub = fanout.running()
        waiting = sum(client.comm.output_queue.qsize() for client in clients)
        at_write.append((hub is not None and table.pk in hub._prepared, waiting))
        return real_write(*args)

    monkeypatch.setattr(consumers.TableConsumer, "frame_for", counted_frame_for)
    monkeypatch.setattr(known_move, "_write_known", slow_write)
    version, _ = await play_one(clients)
    assert at_write == [(True, 0)]  # built during the write, and nothing sent before the commit
    assert built == [version + 1] * 4  # once per seat, by the hub
    for client, (player, _) in zip(clients, people, strict=True):
        fresh = await database_sync_to_async(state.state_message)(table.pk, player.pk)
        assert client.state == json.loads(json.dumps(fresh))  # this seat's own view, as a read builds it


async def test_frames_built_for_a_write_the_guard_refuses_are_never_sent() -> None:
    table, people = await database_sync_to_async(hearts_table)()
    clients = await seated_clients(table, people)
    await play_one(clients)
    version = clients[0].state["version"]
    # Another process moved the table on, and its wake never came here: the guard refuses.
    await database_sync_to_async(Table.objects.filter(pk=table.pk).update)(version=F("version") + 1)
    mover = next(client for client in clients if client.state["legal_moves"])
    await mover.send({"type": "move", "move": mover.state["legal_moves"][0], "version": version, "id": "m"})
    assert (await mover.error())["code"] == "stale_version"
    hub = fanout.running()
    assert hub is not None
    prepared, frames = hub._prepared[table.pk]  # the refused move's frames were built ...
    assert prepared.version == version + 1 and len(frames) == 4
    for client in clients:
        await client.quiet()
        assert all(m["version"] <= version for m in client.messages if m["type"] == "state")  # ... not sent
    # The table's real version reaches every seat from a read, never the refused move's frame.
    await database_sync_to_async(broadcast.table_changed)(table.pk, version + 1)
    for client, (player, _) in zip(clients, people, strict=True):
        got = await client.until(lambda m: m["type"] == "state" and m["version"] == version + 1)
        fresh = await database_sync_to_async(state.state_message)(table.pk, player.pk)
        assert got == json.loads(json.dumps(fresh)) != json.loads(frames[player.pk])
    assert table.pk not in hub._prepared


async def test_a_wake_from_another_process_carries_the_snapshot_and_needs_no_read(reads: list[str]) -> None:
    table, people = await database_sync_to_async(hearts_table)()
    clients = await seated_clients(table, people)
    snap = await database_sync_to_async(state.snapshot)(table.pk)
    carried = snap.to_wake()  # JSON text, as it crosses Redis
    assert isinstance(carried, str) and state.from_wake(carried) == snap
    reads.clear()
    message: dict[str, Any] = {"type": "table.changed", "version": snap.version, "wake": "elsewhere-1"}
    await get_channel_layer().group_send(broadcast.group_name(table.pk), {**message, "snapshot": carried})
    for client in clients:
        await client.next_state()
    assert reads == []
    for client, (player, _) in zip(clients, people, strict=True):
        assert client.state == json.loads(json.dumps(state.message_for(snap, player.pk)))
    # A wake without one (a presence change, a seat change) still reads the table, once.
    await get_channel_layer().group_send(broadcast.group_name(table.pk), {**message, "wake": "elsewhere-2"})
    for client in clients:
        await client.next_state()
    assert reads == [table.pk]


def test_a_move_on_a_version_the_table_left_behind_writes_nothing() -> None:
    table, people = hearts_table()
    snap = state.snapshot(table.pk)
    game_state = state.message_for(snap, None)
    seat = game_state["to_act"][0]
    move = state.message_for(snap, people[seat][0].pk)["legal_moves"][0]
    moving.apply_move(table.pk, move, snap.version, player=people[seat][0])
    known = state.latest(table.pk)
    assert known is not None and known.match is not None and known.version == snap.version + 1
    # Another process changes the table and its wake never arrives here.
    Table.objects.filter(pk=table.pk).update(version=F("version") + 1)
    before = Table.objects.get(pk=table.pk)
    logged = MoveRecord.objects.count()
    mover = next(i for i in state.message_for(known, None)["to_act"])
    legal = state.message_for(known, people[mover][0].pk)["legal_moves"]
    with pytest.raises(TableError) as refused:
        moving.apply_move(table.pk, legal[0], known.version, player=people[mover][0])
    assert refused.value.code == "stale_version"
    after = Table.objects.get(pk=table.pk)
    assert (after.version, after.state) == (before.version, before.state)
    assert MoveRecord.objects.count() == logged


async def test_the_in_memory_layer_sweeps_expired_messages_at_most_once_a_second(monkeypatch) -> None:
    from channels import layers as channels_layers

    from cardtable.tables.live.layers import InMemoryChannelLayer

    sweeps: list[float] = []
    original = channels_layers.InMemoryChannelLayer._clean_expired

    def counted(self: Any) -> None:
        sweeps.append(1)
        original(self)

    monkeypatch.setattr(channels_layers.InMemoryChannelLayer, "_clean_expired", counted)
    layer = InMemoryChannelLayer(expiry=0.01)
    await layer.group_add("g", "specific.inmemory!a")
    for _ in range(5):
        await layer.group_send("g", {"type": "x"})
    assert len(sweeps) == 1  # five sends, one sweep
    await asyncio.sleep(0.05)  # the messages have expired
    layer._swept -= layer.SWEEP_EVERY  # a second later
    await layer.group_send("g", {"type": "y"})
    assert len(sweeps) == 2
    assert "specific.inmemory!a" not in layer.groups.get("g", {})  # an expired message drops its channel


def test_a_wake_carries_a_state_holding_integers_wider_than_msgpack_takes() -> None:
    import msgpack

    table, _ = hearts_table()
    snap = state.snapshot(table.pk)
    wide = replace(snap, state_json={**snap.state_json, "seed": 2**70})
    carried = msgpack.unpackb(msgpack.packb({"snapshot": wide.to_wake()}))["snapshot"]  # as Redis carries it
    assert state.from_wake(carried).state_json["seed"] == 2**70


def test_the_known_move_writes_its_json_as_the_orm_would_and_reads_back_the_same() -> None:
    """Raw SQL on the known version: the JSON columns read back through the ORM as the values written."""
    table, _ = hearts_table()
    match = Match.objects.get(table=table, number=table.game_number)
    state_json = {"wide": 2**70, "text": 'Zoë \u2028 ♠ "quoted"', "half": 0.5, "nested": [None, True, {}]}
    move = {"cards": ["QS", "Ä"], "n": -3}
    events = [{"type": "pass", "seat": 1, "cards": ["2C"]}]
    before = timezone.now()
    said = {"words": ["Draw from stock", None], "items": [[], ["card"]]}
    row = (match.pk, 1, 1, move, MoveRecord.HUMAN, table.version + 1, (1, 2), events, said)
    assert known_move._write_known(table.pk, table.version, table.seating, state_json, row)
    after = Table.objects.get(pk=table.pk)
    assert after.state == state_json and after.version == table.version + 1 and after.updated >= before
    logged = MoveRecord.objects.get(match=match, seq=1)
    assert (logged.seat, logged.move, logged.by, logged.version) == (1, move, "human", table.version + 1)
    assert (logged.to_act, logged.events, logged.said) == ([1, 2], events, said)
    assert before <= logged.at <= timezone.now()


def test_the_known_move_writes_both_rows_or_neither() -> None:
    table, _ = hearts_table()
    match = Match.objects.get(table=table, number=table.game_number)
    row = (match.pk, 1, 1, {"cards": []}, MoveRecord.HUMAN, table.version + 1, [1], [], None)
    MoveRecord.objects.create(match=match, seq=1, seat=0, move={}, version=table.version, to_act=[0])
    # The log already holds move 1: the INSERT fails, so the guarded UPDATE must not stand either.
    assert not known_move._write_known(table.pk, table.version, table.seating, {"x": 1}, row)
    # A stand-in's change since the snapshot (seating), or another version: the guard writes nothing.
    row = (match.pk, 2, 1, {"cards": []}, MoveRecord.HUMAN, table.version + 1, [1], [], None)
    assert not known_move._write_known(table.pk, table.version, table.seating + 1, {"x": 1}, row)
    assert not known_move._write_known(table.pk, table.version - 1, table.seating, {"x": 1}, row)
    after = Table.objects.get(pk=table.pk)
    assert (after.version, after.state) == (table.version, table.state)
    assert list(MoveRecord.objects.values_list("seq", flat=True)) == [1]


async def test_a_stand_in_set_behind_the_process_s_back_still_plays_the_turn_a_known_move_hands_it(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The bot driver skips its look after a move that shows no bot and no stand-in: that must be exact.

    Another process lets a stand-in take seat 3 (its wake never reaches this
    process, whose newest snapshot still shows seat 3 played by its human);
    then seat 1 moves on the version this process knows, and seat 3 is to act.
    The stand-in's move must be played, not left waiting for a look that never comes.
    """
    table, people = await database_sync_to_async(hearts_table)()
    await database_sync_to_async(presence.join)("watcher!1", table.pk, people[0][0].pk)  # someone is here
    driver.ensure_started()
    await driver.resuming
    snap = await database_sync_to_async(state.snapshot)(table.pk)
    assert sorted(state.message_for(snap, None)["to_act"]) == [0, 1, 2, 3]  # the pass: everyone acts
    first = state.message_for(snap, people[0][0].pk)["legal_moves"][0]
    await database_sync_to_async(moving.apply_move)(table.pk, first, snap.version, player=people[0][0])
    known = state.latest(table.pk)
    assert known is not None and known.match is not None and 3 in state.message_for(known, None)["to_act"]

    def stand_in_elsewhere() -> bool:
        Seat.objects.filter(table=table, index=3).update(away_since=timezone.now() - timedelta(hours=1))
        with monkeypatch.context() as elsewhere:  # the other process's wake and listeners stay there
            elsewhere.setattr(broadcast, "table_changed", lambda *args, **kwargs: None)
            return presence.grace_expired(table.pk, 3)

    assert await database_sync_to_async(stand_in_elsewhere)()
    assert state.latest(table.pk) is known and not known.table["seats"][3]["stand_in"]
    second = state.message_for(known, people[1][0].pk)["legal_moves"][0]
    await database_sync_to_async(moving.apply_move)(table.pk, second, known.version, player=people[1][0])

    def stood_in() -> bool:
        return MoveRecord.objects.filter(match__table=table, seat=3, by=MoveRecord.STAND_IN).exists()

    for _ in range(100):
        if await database_sync_to_async(stood_in)():
            break
        await asyncio.sleep(0.05)
    assert await database_sync_to_async(stood_in)(), "the stand-in's turn was left unplayed"


def test_a_stand_in_s_move_on_the_known_version_is_dropped_once_its_human_is_back() -> None:
    table, people = hearts_table()
    Seat.objects.filter(table=table, index=2).update(away_since=timezone.now() - timedelta(hours=1))
    assert presence.grace_expired(table.pk, 2)
    known = state.snapshot(table.pk)  # this process knows the stand-in plays seat 2
    first = state.message_for(known, people[0][0].pk)["legal_moves"][0]
    moving.apply_move(table.pk, first, known.version, player=people[0][0])  # the locked way: a read before
    known = state.latest(table.pk)
    assert known is not None and known.match is not None and known.table["seats"][2]["stand_in"]
    game = get_game("hearts")
    move = game.legal_moves(known.state, 2)[0]
    # The human comes back through another process: this one hears nothing of it.
    with pytest.MonkeyPatch.context() as elsewhere:
        elsewhere.setattr(broadcast, "table_changed", lambda *args, **kwargs: None)
        presence.join("back!1", table.pk, people[2][0].pk)
    logged = MoveRecord.objects.count()
    with pytest.raises(TableError) as refused:
        moving.apply_move(table.pk, move, known.version, seat=2, by=MoveRecord.STAND_IN)
    assert refused.value.code == "not_your_turn"
    assert MoveRecord.objects.count() == logged
    assert Table.objects.get(pk=table.pk).version == known.version


async def test_bots_play_from_the_committed_snapshots_on_the_known_version(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """At a table of bots the driver reads the table once, then goes by the snapshots its moves commit."""
    from cardtable.tables.autoplay import driver as bots

    def bot_table() -> Table:
        host, _ = make_player("Host")
        table = seating.create_table(host, "hearts", 4, None, seated=False)
        for index in range(4):
            seating.add_bot(table.pk, host, index, "random")
        seating.start(table.pk, host)
        presence.join("watcher!1", table.pk, None)  # someone watches: the bots play
        return table

    table = await database_sync_to_async(bot_table)()
    looks: list[str] = []
    locked: list[dict] = []  # the moves that went the locked way
    real_next_job, real_apply_locked = bots.next_job, moving.apply_locked
    monkeypatch.setattr(bots, "next_job", lambda table_id: looks.append(table_id) or real_next_job(table_id))

    def counted_locked(*args: Any, **kwargs: Any) -> int:
        locked.append(args[5])  # apply_locked(table, game, state, match, seat, move, by, ...)
        return real_apply_locked(*args, **kwargs)

    monkeypatch.setattr(moving, "apply_locked", counted_locked)

    def made() -> list[str]:
        return list(MoveRecord.objects.filter(match__table=table).values_list("by", flat=True))

    driver.ensure_started()
    for _ in range(200):
        if len(await database_sync_to_async(made)()) >= 20:
            break
        await asyncio.sleep(0.05)
    driver.reset()
    made_by = await database_sync_to_async(made)()
    assert len(made_by) >= 20 and set(made_by) == {"bot"}
    assert looks == [table.pk]  # the driver read the table once, when it started
    # A pass's four moves go the locked way (the first after a read, then three on a
    # version the first left behind), and so does a game's last move (its result);
    # every other card is played on the known version. The bots may play on past the
    # twentieth move before the driver stops (a slow machine: the next hand, or more).
    finished = await database_sync_to_async(lambda: Table.objects.get(pk=table.pk).status)() == Table.FINISHED
    plays = [move for move in locked if "pass" not in move]
    assert len(locked) >= 4 and len(plays) == int(finished)


async def test_the_driver_does_not_look_after_a_move_at_a_table_of_people(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from cardtable.tables.autoplay import driver as bots

    table, people = await database_sync_to_async(hearts_table)()
    driver.ensure_started()
    await driver.resuming
    looks: list[str] = []
    real_next_job = bots.next_job
    monkeypatch.setattr(bots, "next_job", lambda table_id: looks.append(table_id) or real_next_job(table_id))
    drives: list[str] = []
    real_drive = driver._drive
    monkeypatch.setattr(
        driver, "_drive", lambda table_id, *args: drives.append(table_id) or real_drive(table_id, *args)
    )
    for _ in range(3):  # the first the locked way, then on the known version
        snap = state.latest(table.pk) or await database_sync_to_async(state.snapshot)(table.pk)
        seat = state.message_for(snap, None)["to_act"][0]
        move = state.message_for(snap, people[seat][0].pk)["legal_moves"][0]
        await database_sync_to_async(moving.apply_move)(table.pk, move, snap.version, player=people[seat][0])
    await asyncio.sleep(0.1)
    assert looks == [] and drives == []  # three moves, not even a task to look
    # A change without a committed snapshot (here a seat's presence) is still looked at.
    await database_sync_to_async(presence.join)("watcher!1", table.pk, people[1][0].pk)
    await asyncio.sleep(0.1)
    assert looks == drives == [table.pk]


def test_a_read_that_missed_a_stand_in_s_change_does_not_replace_the_newer_snapshot() -> None:
    table, _ = hearts_table()
    older = state.snapshot(table.pk)
    newer = replace(older, seating=older.seating + 1)  # the same version after a stand-in's change
    state.remember(newer)
    state.remember(older)  # a read that started before that change, finishing after it
    assert state.latest(table.pk) is newer


def test_the_first_move_after_a_read_needs_no_locked_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """A read (a connect, a restarted process) knows the match, so the next move is the guarded write."""
    table, people = hearts_table()
    state.forget(table.pk)
    snap = state.snapshot(table.pk)
    match = Match.objects.get(table=table, number=table.game_number)
    assert snap.match == (match.pk, 0)

    def no_lock(table_id: str) -> None:
        raise AssertionError("the move went the locked way")

    monkeypatch.setattr(moving, "locked_table", no_lock)
    seat = state.message_for(snap, None)["to_act"][0]
    move = state.message_for(snap, people[seat][0].pk)["legal_moves"][0]
    assert moving.apply_move(table.pk, move, snap.version, player=people[seat][0]) == snap.version + 1
    assert MoveRecord.objects.filter(match=match).count() == 1
    # Read again after that move: the number read is the last move's.
    state.forget(table.pk)
    assert state.snapshot(table.pk).match == (match.pk, 1)
