"""The turn clock's timeout moves are thought about with no transaction open and no table lock held.

A timeout's stand-in searches in the pool and waits out its think time: seconds
on a busy machine. Done inside the table's transaction, that held SQLite's one
write lock (and the process's table lock) all along, so every other write of the
site waited, and one waited past its timeout: "database is locked"
(docs/security.md, "A socket closed with an internal error under load").
"""

from __future__ import annotations

import threading
from typing import Any

import pytest
from channels.db import database_sync_to_async
from django.db import connection
from django.utils import timezone

from cardtable.tables.authority import commit
from cardtable.tables.autoplay import turns
from cardtable.tables.autoplay.driver import driver
from cardtable.tables.models import Connection, MoveRecord, Table
from games import get_game
from tests.server.test_clock import advance, both, clocked_table  # noqa: F401 (advance: a fixture)

pytestmark = pytest.mark.django_db(transaction=True)


def lock_is_free() -> bool:
    """Whether another thread could take the process's table lock now (SQLite's, around each table write)."""
    free: list[bool] = []

    def probe() -> None:
        got = commit.sqlite_lock.acquire(blocking=False)
        if got:
            commit.sqlite_lock.release()
        free.append(got)

    thread = threading.Thread(target=probe)
    thread.start()
    thread.join()
    return free[0]


def first_legal(game_id: str, state_json: dict, seat: int) -> dict[str, Any]:
    game = get_game(game_id)
    return game.legal_moves(game.from_json(state_json), seat)[0]


def watch_thinking(monkeypatch: pytest.MonkeyPatch) -> list[tuple[bool, bool]]:
    """Replace the stand-in's search (both ways of waiting for it) and the pause; record, at each,
    whether the calling thread was in a transaction and whether the table lock was free."""
    seen: list[tuple[bool, bool]] = []

    def thinking_or_waiting() -> None:
        seen.append((connection.in_atomic_block, lock_is_free()))

    def thinking(game_id: str, state_json: dict, seat: int, level: str, seed: int) -> dict[str, Any]:
        thinking_or_waiting()
        return first_legal(game_id, state_json, seat)

    async def thinking_async(game_id: str, state_json: dict, seat: int, level: str, seed: int) -> dict:
        return thinking(game_id, state_json, seat, level, seed)

    monkeypatch.setattr(turns, "search_and_wait", thinking)
    monkeypatch.setattr(turns, "search", thinking_async)
    monkeypatch.setattr(
        turns, "pause", lambda seconds: seen.append((connection.in_atomic_block, lock_is_free()))
    )
    return seen


def test_expire_thinks_outside_any_transaction(monkeypatch: pytest.MonkeyPatch, advance) -> None:  # noqa: F811
    seen = watch_thinking(monkeypatch)
    table, _ = clocked_table(game="hearts")  # the pass: several late seats, one after the other
    late = list(get_game("hearts").to_act(get_game("hearts").from_json(table.state)))
    assert len(late) > 1
    Connection.objects.create(channel="watcher!1", table_id=table.pk, player=None, seen=timezone.now())
    advance(6)
    assert turns.expire(table.pk) == late
    assert seen == [(False, True)] * (2 * len(late))  # a search and a pause for each late seat
    moves = MoveRecord.objects.filter(by=MoveRecord.TIMEOUT).order_by("seq")
    assert [m.seat for m in moves] == late
    assert Table.objects.get(pk=table.pk).last_timeout == late


async def test_the_driver_s_timeout_holds_no_lock_while_it_thinks(monkeypatch, advance) -> None:  # noqa: F811
    seen = watch_thinking(monkeypatch)
    table, people = await database_sync_to_async(clocked_table)()
    ann, _ = await both(table, people)
    late, version = ann.state["to_act"][0], ann.state["version"]
    advance(6)
    state = await ann.until(lambda m: m["type"] == "state" and m["table"]["last_timeout"] == [late])
    assert state["version"] == version + 1
    assert seen and all(free for _, free in seen)
    assert not any(in_transaction for in_transaction, _ in seen)
    driver.reset()


def test_a_table_that_moved_on_while_the_stand_in_thought_gets_no_timeout_move(
    monkeypatch: pytest.MonkeyPatch,
    advance,  # noqa: F811
) -> None:
    table, people = clocked_table()
    Connection.objects.create(channel="watcher!1", table_id=table.pk, player=None, seen=timezone.now())
    seat = get_game(table.game).to_act(get_game(table.game).from_json(table.state))[0]
    mover = people[seat][0]

    def thinking(game_id: str, state_json: dict, index: int, level: str, seed: int) -> dict[str, Any]:
        from cardtable.tables.authority.moving import apply_move

        move = first_legal(game_id, state_json, index)
        apply_move(table.pk, move, table.version, player=mover)  # the seat moves at the last moment
        return move

    monkeypatch.setattr(turns, "search_and_wait", thinking)
    monkeypatch.setattr(turns, "pause", lambda seconds: None)
    advance(6)
    assert turns.expire(table.pk) == []
    assert not MoveRecord.objects.filter(by=MoveRecord.TIMEOUT).exists()
    assert Table.objects.get(pk=table.pk).version == table.version + 1
