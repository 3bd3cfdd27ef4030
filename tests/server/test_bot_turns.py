"""The bot driver and ``playbots`` take turns through one function, and the driver
hears of changes as a listener: the transport (``broadcast``) knows nothing of bots."""

from __future__ import annotations

from typing import Any

import pytest

from cardtable.tables import events
from cardtable.tables.authority import seating
from cardtable.tables.autoplay import driver as bots
from cardtable.tables.errors import TableError
from cardtable.tables.live import broadcast
from cardtable.tables.models import MoveRecord, Player, Table

pytestmark = pytest.mark.django_db(transaction=True)


def _bot_table(game: str = "agram") -> Table:
    host = Player.objects.create(name="Host")
    table = seating.create_table(host, game, 2, {}, seated=False)
    for seat in range(2):
        seating.add_bot(table.pk, host, seat, "random")
    seating.start(table.pk, host)
    return Table.objects.get(pk=table.pk)


def test_the_driver_is_a_listener_of_table_changes() -> None:
    # Subscribed when the app started, after the fan-out; neither the authority nor
    # the transport imports the driver (tests/layout/test_imports.py).
    subscribed = events.handlers(events.TableChanged)
    assert subscribed == [broadcast.on_table_changed, bots.driver.on_table_changed]


def test_a_failing_listener_does_not_stop_the_others(monkeypatch: Any) -> None:
    heard: list[events.TableChanged] = []

    def broken(event: events.TableChanged) -> None:
        raise RuntimeError("boom")

    monkeypatch.setattr(events, "_handlers", {})
    events.subscribe(events.TableChanged, broken)
    events.subscribe(events.TableChanged, heard.append)
    events.subscribe(events.TableChanged, heard.append)  # once per listener
    events.emit(events.TableChanged("abc", 1))
    assert heard == [events.TableChanged("abc", 1)]


def test_play_pending_plays_the_game_out_with_the_drivers_turns() -> None:
    table = _bot_table()
    job = bots.next_job(table.pk)
    assert job is not None
    first = job.seats[0]
    expected = bots.choose(job.game, job.state, first[0], first[1], job.turn_seed(first[0]))
    bots.play_pending(table.pk)
    table.refresh_from_db()
    assert table.status == Table.FINISHED and bots.next_job(table.pk) is None
    record = MoveRecord.objects.filter(match__table=table).order_by("seq").first()
    assert record.move == expected and record.by == MoveRecord.BOT


def test_take_turn_looks_again_when_the_table_moved_on_and_raises_a_bots_bug() -> None:
    table = _bot_table()
    job = bots.next_job(table.pk)
    seat, level, by = job.seats[0]
    move = job.choose(seat, level)
    assert bots.take_turn(table.pk, job, seat, by, move) is True
    # The same job again: its version is stale now.
    assert bots.take_turn(table.pk, job, seat, by, move) is False
    fresh = bots.next_job(table.pk)
    seat, _, by = fresh.seats[0]
    with pytest.raises(TableError) as caught:
        bots.take_turn(table.pk, fresh, seat, by, {"play": "nonsense"})
    assert caught.value.code == "illegal_move"
