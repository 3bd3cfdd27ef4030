"""Leaving and taking over, paused and abandoned tables, the grace countdown and the returning summary."""

from __future__ import annotations

import asyncio
from datetime import datetime, timedelta

import pytest
from channels.db import database_sync_to_async
from django.test import Client as HttpClient
from django.utils import timezone

from cardtable.dashboard import live, stats
from cardtable.tables.authority import seating
from cardtable.tables.autoplay import ending
from cardtable.tables.models import Connection, Match, MoveRecord, Seat, Table
from tests.server.conftest import Client, make_player, new_player
from tests.server.test_errors import expect, playing_table

pytestmark = pytest.mark.django_db(transaction=True)


def bots_table(game: str = "agram") -> Table:
    """A table of bots only, started by a host who then goes (nobody is connected)."""
    host = make_player("Host")[0]
    table = seating.create_table(host, game, 2, {}, seated=False)
    for index in range(2):
        seating.add_bot(table.pk, host, index, "random")
    seating.start(table.pk, host)
    return Table.objects.get(pk=table.pk)


async def move_first(client: Client) -> None:
    """Send the client's first legal move."""
    state = client.state
    await client.send({"type": "move", "move": state["legal_moves"][0], "version": state["version"]})


def version_of(table_id: str) -> int:
    """The table's version now."""
    return Table.objects.get(pk=table_id).version


async def test_leaving_a_running_game_hands_the_seat_to_a_bot_and_records_it() -> None:
    table, people = await database_sync_to_async(playing_table)()
    ann = await Client(table.pk, people[0][1]).connect()
    bob = await Client(table.pk, people[1][1]).connect()
    await ann.quiet()
    await bob.send({"type": "leave"})
    state = await ann.until(lambda m: m["type"] == "state" and m["table"]["seats"][1]["left"] == "Bob")
    seat = state["table"]["seats"][1]
    assert seat["kind"] == "bot" and seat["level"] == "random" and seat["name"] == "Bot (random)"
    mine = await bob.until(lambda m: m["type"] == "state" and m["table"]["seats"][1]["left"] == "Bob")
    assert mine["you"]["seat"] is None  # Bob watches now
    # The bot plays Bob's seat to the end, with Ann moving whenever she is to act.
    while ann.state["table"]["status"] == "playing":
        if ann.state["legal_moves"]:
            await ann.send(
                {"type": "move", "move": ann.state["legal_moves"][0], "version": ann.state["version"]}
            )
        await ann.next_state(timeout=15)
    match = await database_sync_to_async(Match.objects.get)(table=table, number=1)
    assert [(d["seat"], d["name"]) for d in match.left] == [(1, "Bob")]
    assert match.result["left"] == [1]
    bys = await database_sync_to_async(lambda: set(match.moves.filter(seat=1).values_list("by", flat=True)))()
    assert "bot" in bys
    # Statistics: the game counts, but Bob's seat is not a human's ordinary loss or win.
    _, rows = await database_sync_to_async(stats.bot_level_results)()
    human = next(r for r in rows if r["level"] == "human")
    assert human["total"]["seats"] == 1  # Ann only
    assert next(r for r in rows if r["level"] == "left")["total"]["seats"] == 1


async def test_leave_before_the_game_is_stand_and_errors_change_nothing() -> None:
    ann, ann_cookie = await new_player("Ann")
    table = await database_sync_to_async(seating.create_table)(ann, "agram", 2, {})
    await database_sync_to_async(seating.sit)(table.pk, ann, 0)
    client = await Client(table.pk, ann_cookie).connect()
    await client.quiet()
    await client.send({"type": "leave"})
    state = await client.next_state()
    assert state["table"]["seats"][0]["kind"] == "empty" and state["table"]["seats"][0]["left"] is None
    await expect(client, {"type": "leave"}, "not_seated", table.pk)
    watcher = await Client(table.pk).connect()
    await expect(watcher, {"type": "leave"}, "no_player", table.pk)


async def test_another_player_takes_over_a_left_seat_and_plays_on(settings) -> None:
    settings.BOT_PAUSE = 30  # the bot that replaced Bob waits, so the seat is Carl's to take
    table, people = await database_sync_to_async(playing_table)()
    ann = await Client(table.pk, people[0][1]).connect()
    bob = await Client(table.pk, people[1][1]).connect()
    _, carl_cookie = await new_player("Carl")
    carl = await Client(table.pk, carl_cookie).connect()
    # Nobody left seat 1 yet, and Ann holds seat 0: neither can be taken over.
    await expect(carl, {"type": "takeover", "seat": 1}, "seat_taken", table.pk)
    await expect(carl, {"type": "takeover", "seat": 7}, "bad_message", table.pk)
    await bob.send({"type": "leave"})
    await carl.until(lambda m: m["type"] == "state" and m["table"]["seats"][1]["left"] == "Bob")
    await expect(ann, {"type": "takeover", "seat": 1}, "seat_taken", table.pk)  # Ann holds a seat
    await expect(await Client(table.pk).connect(), {"type": "takeover", "seat": 1}, "no_player", table.pk)
    await carl.send({"type": "takeover", "seat": 1})
    state = await carl.until(lambda m: m["type"] == "state" and m["you"]["seat"] == 1)
    seat = state["table"]["seats"][1]
    assert seat["name"] == "Carl" and seat["kind"] == "human" and seat["left"] is None
    match = await database_sync_to_async(Match.objects.get)(table=table, number=1)
    assert match.left[0]["name"] == "Bob" and match.left[0]["taken_by"] is not None
    await ann.quiet()
    mover = carl if carl.state["legal_moves"] else ann
    version = mover.state["version"]
    await mover.send({"type": "move", "move": mover.state["legal_moves"][0], "version": version})
    assert (await ann.until(lambda m: m["type"] == "state" and m["version"] > version))[
        "version"
    ] == version + 1


async def test_a_bots_only_table_with_nobody_connected_pauses_until_someone_comes() -> None:
    table = await database_sync_to_async(bots_table)()
    from cardtable.tables.autoplay.driver import driver

    driver.poke(table.pk)  # nothing runs: the driver has no loop until someone connects
    watcher = await Client(table.pk).connect()  # a spectator: the bots play
    await watcher.until(lambda m: m["type"] == "state" and m["version"] > table.version, timeout=10)
    await watcher.close()
    # The spectator's row goes, and the move in flight when they left lands: then all is still.
    for _ in range(200):
        task = driver.tasks.get(table.pk)
        gone = not await database_sync_to_async(Connection.objects.filter(table_id=table.pk).exists)()
        if gone and (task is None or task.done()):
            break
        await asyncio.sleep(0.05)
    paused = await database_sync_to_async(version_of)(table.pk)
    await asyncio.sleep(0.5)
    assert await database_sync_to_async(version_of)(table.pk) == paused  # no moves with nobody here
    assert (await database_sync_to_async(Table.objects.get)(pk=table.pk)).status == "playing"
    listed = await database_sync_to_async(lambda: HttpClient().get("/api/tables/").json())()
    assert table.pk not in {t["id"] for t in listed}
    rows = await database_sync_to_async(live.paused_tables)()
    assert [row["table"].pk for row in rows] == [table.pk]
    watcher = await Client(table.pk).connect()
    await watcher.until(lambda m: m["type"] == "state" and m["version"] > paused, timeout=10)


def test_tables_alone_too_long_end_as_abandoned(settings) -> None:
    settings.ABANDON_AFTER = 1800
    settings.ABANDON_FINISHED_AFTER = 86400
    now = timezone.now()
    playing = bots_table()
    fresh = bots_table()
    finished = bots_table()
    Table.objects.filter(pk=playing.pk).update(alone_since=now - timedelta(minutes=31))
    Table.objects.filter(pk=fresh.pk).update(alone_since=now - timedelta(minutes=29))
    Table.objects.filter(pk=finished.pk).update(status="finished", alone_since=now - timedelta(hours=23))
    assert ending.sweep() == [playing.pk]
    ended = Table.objects.get(pk=playing.pk)
    assert ended.status == "finished" and ended.ended == "abandoned" and ended.host is None
    match = Match.objects.get(table=ended, number=1)
    assert match.abandoned and match.result is None and match.finished is not None
    assert ending.sweep() == []  # once
    Table.objects.filter(pk=finished.pk).update(alone_since=now - timedelta(hours=25))
    assert ending.sweep() == [finished.pk]
    assert Table.objects.get(pk=finished.pk).ended == "abandoned"
    assert [row["table"].pk for row in live.ended_tables()] == sorted(
        [playing.pk, finished.pk], key=lambda pk: -Table.objects.get(pk=pk).updated.timestamp()
    )
    assert Table.objects.get(pk=fresh.pk).ended == ""


def test_a_table_with_someone_there_is_not_abandoned(settings) -> None:
    from cardtable.tables.authority import presence

    table = bots_table()
    presence.join("chan-1", table.pk, None)
    Table.objects.filter(pk=table.pk).update(alone_since=timezone.now() - timedelta(hours=2))
    assert ending.sweep() == []
    presence.leave("chan-1")
    assert Table.objects.get(pk=table.pk).alone_since is not None


async def test_the_grace_shows_as_a_deadline_and_the_returning_player_sees_what_was_played(settings) -> None:
    settings.DISCONNECT_GRACE = 0.5
    table, people = await database_sync_to_async(playing_table)()
    ann = await Client(table.pk, people[0][1]).connect()
    bob = await Client(table.pk, people[1][1]).connect()
    await ann.quiet()
    await bob.close()
    away = await ann.until(lambda m: m["type"] == "state" and m["table"]["seats"][1]["away_until"])
    until = datetime.fromisoformat(away["table"]["seats"][1]["away_until"])
    assert 0 < (until - timezone.now()).total_seconds() <= 0.5
    await ann.until(lambda m: m["type"] == "state" and m["table"]["seats"][1]["stand_in"], timeout=10)
    assert ann.state["table"]["seats"][1]["away_until"] is None
    # Ann plays until the stand-in has moved for Bob.
    for _ in range(40):
        played = await database_sync_to_async(
            lambda: list(MoveRecord.objects.filter(seat=1, by="stand_in").values_list("move", flat=True))
        )()
        if played or ann.state["table"]["status"] != "playing":
            break
        if ann.state["legal_moves"]:
            await ann.send(
                {"type": "move", "move": ann.state["legal_moves"][0], "version": ann.state["version"]}
            )
        await ann.next_state(timeout=10)
    assert played
    bob = await Client(table.pk, people[1][1]).connect()
    summary = await bob.until(lambda m: m["type"] == "stood_in")
    assert summary["seat"] == 1 and [m["move"] for m in summary["moves"]][: len(played)] == played
    assert all(m["by"] == "stand_in" for m in summary["moves"])
    assert not await database_sync_to_async(Seat.objects.filter(stand_in=True).exists)()
    # A player who was not away gets no summary.
    ann2 = await Client(table.pk, people[0][1]).connect()
    await ann2.quiet()
    assert not [m for m in ann2.messages if m["type"] == "stood_in"]
