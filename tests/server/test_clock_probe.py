"""The turn clock against leave and takeover, and the timing of its moves.

docs/security.md, "Fixed after the second outside probe".

The probe: on a 5 s clock the seat to act sent ``leave`` then ``takeover`` of
its own seat every 3 s for 40 s; every change restarted the deadline, so the
clock never moved for it, and ``Match.left`` grew by one entry per leave. The
clock is stopped and moved forward with ``advance`` instead of sleeping
through it.
"""

from __future__ import annotations

import time
from datetime import datetime, timedelta

import pytest
from channels.db import database_sync_to_async
from django.utils import timezone

from cardtable.tables.authority import clocks, seating, staff
from cardtable.tables.autoplay import turns
from cardtable.tables.autoplay.driver import driver
from cardtable.tables.models import Connection, Match, MoveRecord, Seat, Table
from games import get_game
from tests.server.conftest import make_player
from tests.server.test_clock import both, clocked_table
from tests.server.test_recovery import to_act

pytestmark = pytest.mark.django_db(transaction=True)


@pytest.fixture
def advance(monkeypatch: pytest.MonkeyPatch):
    """Stop the turn clock, and move it forward by some seconds at once.

    Stopped, so a slow machine's own time cannot move a deadline between the
    test's steps: only ``advance`` passes time on the clock.
    """
    now = [clocks.now()]
    monkeypatch.setattr(clocks, "now", lambda: now[0])

    def forward(seconds: float) -> None:
        now[0] += timedelta(seconds=seconds)
        driver.rearm_all()

    return forward


def deadline_of(table_id: str) -> datetime | None:
    """The table's deadline as stored."""
    return Table.objects.get(pk=table_id).deadline


def test_leave_and_takeover_keep_the_turns_deadline_and_the_seats_timeouts() -> None:
    table, people = clocked_table(clock=5)
    (ann, _), (bob, _) = people
    carl = make_player("Carl")[0]
    deadline = deadline_of(table.pk)
    assert deadline is not None
    Seat.objects.filter(table=table).update(timeouts=1)  # each seat has let the clock run out once
    seating.leave(table.pk, ann)
    assert deadline_of(table.pk) == deadline
    seating.takeover(table.pk, ann, 0)
    assert deadline_of(table.pk) == deadline
    assert Seat.objects.get(table=table, index=0).timeouts == 1  # her own count, back with her
    seating.leave(table.pk, bob)
    seating.takeover(table.pk, carl, 1)
    assert deadline_of(table.pk) == deadline
    assert Seat.objects.get(table=table, index=1).timeouts == 0  # Bob's count is not Carl's
    assert Table.objects.get(pk=table.pk).version == table.version + 4


def test_staff_putting_a_bot_in_or_removing_a_player_keep_the_turns_deadline() -> None:
    table, _ = clocked_table(clock=5)
    deadline = deadline_of(table.pk)
    staff.put_bot(table.pk, 1, "random")
    assert deadline_of(table.pk) == deadline
    staff.remove_player(table.pk, 0)
    assert deadline_of(table.pk) == deadline
    assert Table.objects.get(pk=table.pk).version == table.version + 2


async def test_the_probes_leave_and_takeover_loop_no_longer_holds_off_the_clock(advance, settings) -> None:
    settings.BOT_PAUSE = 120  # the bot that replaces the looper never moves in between
    table, people = await database_sync_to_async(clocked_table)(clock=5)
    ann, bob = await both(table, people)
    looper = ann.state["to_act"][0]  # the seat to act loops; the other seat plays at once
    me, other = (ann, bob) if looper == 0 else (bob, ann)
    deadlines = {me.state["table"]["deadline"]}
    loops = 0
    for _ in range(14):  # 3 s apart: 42 s of a 5 s clock
        current = await database_sync_to_async(Table.objects.get)(pk=table.pk)
        if current.status != Table.PLAYING:
            break
        version = current.version
        if looper in await database_sync_to_async(to_act)(table.pk):
            await me.send({"type": "leave"})
            left = await me.until(lambda m, v=version: m["type"] == "state" and m["version"] > v)
            assert left["table"]["seats"][looper]["left"]
            assert left["table"]["deadline"] == current.deadline.isoformat()
            await me.send({"type": "takeover", "seat": looper})
            back = await me.until(lambda m: m["type"] == "state" and m["you"]["seat"] == looper)
            # A seat changing hands is not a new turn: the deadline stands.
            assert back["table"]["deadline"] == current.deadline.isoformat()
            loops += 1
        else:
            if other.state["version"] < version:
                await other.until(lambda m, v=version: m["type"] == "state" and m["version"] >= v)
            move = other.state["legal_moves"][0]
            await other.send({"type": "move", "move": move, "version": version})
            await me.until(lambda m, v=version: m["type"] == "state" and m["version"] > v)
        deadlines.add(me.state["table"]["deadline"])
        version = me.state["version"]
        advance(3)
        passed = await database_sync_to_async(deadline_of)(table.pk)
        if passed is not None and passed <= clocks.now():  # the clock moves for the late seat
            timeout = await me.until(lambda m, v=version: m["type"] == "state" and m["version"] > v)
            assert timeout["table"]["last_timeout"] == [looper]
            deadlines.add(timeout["table"]["deadline"])
    moves = await database_sync_to_async(lambda: list(MoveRecord.objects.values_list("seat", "by")))()
    timeouts = [seat for seat, by in moves if by == MoveRecord.TIMEOUT]
    assert loops >= 4 and len(timeouts) >= 3 and set(timeouts) == {looper}
    assert [by for seat, by in moves if seat != looper]  # the other player got to move
    # Only moves set a new deadline: never a leave or a takeover.
    assert len(deadlines) <= len(moves) + 1
    match = await database_sync_to_async(Match.objects.get)(table=table, number=1)
    assert len(match.left) == 1 and match.left[0]["seat"] == looper  # one entry, however many loops


def test_a_timeout_move_takes_the_stand_ins_think_time_whatever_the_position(settings, monkeypatch) -> None:
    settings.BOT_THINK_SECONDS = {"normal": 0.25, "hard": 1.0}
    settings.STAND_IN_LEVEL = "normal"
    draws: list[tuple[float, float]] = []  # (when, think time drawn)
    waits: list[tuple[float, float]] = []  # (when, wait asked)
    legal_counts: list[int] = []

    def instant(game_id: str, state_json: dict, seat: int, level: str, seed: int) -> dict:
        game = get_game(game_id)
        legal = game.legal_moves(game.from_json(state_json), seat)
        legal_counts.append(len(legal))
        return legal[0]

    def drawn(level: str) -> float:
        think = real_think(level)
        draws.append((time.monotonic(), think))
        return think

    offset = [0.0]
    real_think = turns.think_time
    monkeypatch.setattr(turns, "search_and_wait", instant)  # the stand-in answers at once: only the pad
    monkeypatch.setattr(turns, "think_time", drawn)
    monkeypatch.setattr(turns, "pause", lambda seconds: waits.append((time.monotonic(), seconds)))
    monkeypatch.setattr(clocks, "now", lambda: timezone.now() + timedelta(seconds=offset[0]))
    table, _ = clocked_table(clock=5)
    Connection.objects.create(channel="watcher!1", table_id=table.pk, player=None, seen=timezone.now())
    while Table.objects.get(pk=table.pk).status == Table.PLAYING:
        offset[0] += 6  # past the deadline: the clock moves for the seat to act
        assert turns.expire(table.pk)
    assert 1 in legal_counts and max(legal_counts) > 1  # both kinds of position timed out
    assert len(waits) == len(draws) == len(legal_counts)
    for (drawn_at, think), (asked_at, wait) in zip(draws, waits, strict=True):
        # Drawn from [budget, 1.25 budget] whatever the position; the move waits out what the choice left
        # (within 50 ms: the two clock readings are a little apart on a loaded machine).
        assert 0.25 <= think <= 0.25 * 1.25
        assert asked_at - drawn_at + wait == pytest.approx(max(think, asked_at - drawn_at), abs=0.05)
