"""The table's read compiled once (cardtable/tables/authority/compiled.py): the same rows as Django's own."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from cardtable.tables.authority import presence, state
from cardtable.tables.authority.compiled import Compiled
from cardtable.tables.models import Connection, Seat
from tests.server.test_errors import playing_table

pytestmark = pytest.mark.django_db


def _facts(seats: list[Seat]) -> list[tuple]:
    """Every column of each seat, its player and its table (with the host), and the annotation."""

    def row(instance) -> tuple | None:
        if instance is None:
            return None
        return tuple(getattr(instance, f.attname) for f in instance._meta.concrete_fields)

    return [(row(s), row(s.player), row(s.table), row(s.table.host), s.live) for s in seats]


@pytest.mark.parametrize("with_state", [False, True])
def test_the_compiled_read_gives_what_the_queryset_gives_for_each_table_and_time(with_state: bool) -> None:
    first, people = playing_table()
    second, _ = playing_table(bot=True)
    ann = people[0][0]
    Connection.objects.create(channel="c1", table=first, player=ann, seen=timezone.now(), process="p")
    build = state._load_query(with_state)
    compiled = state._LOAD[with_state]
    for table in (first, second, first):
        for since in (presence.live_since(), timezone.now() + timedelta(seconds=5)):
            expected = _facts(list(build(table.pk, since)))
            assert _facts(compiled.run(table.pk, since)) == expected
    # The values reach the statement: the other table's seats, and who is live at each time.
    assert [s.table_id for s in compiled.run(second.pk, presence.live_since())] == [second.pk] * 2
    assert [s.live for s in compiled.run(first.pk, presence.live_since())] == [True, False]
    assert [s.live for s in compiled.run(first.pk, timezone.now() + timedelta(seconds=5))] == [False, False]
    assert compiled.run("no such table", presence.live_since()) == []


def test_the_compiled_read_is_one_logged_statement() -> None:
    table, _ = playing_table()
    state.load(table.pk, with_state=True)  # compiled by now
    with CaptureQueriesContext(connection) as captured:
        table_row, seats, live = state.load(table.pk, with_state=True)
    assert len(captured.captured_queries) == 1
    assert table_row.pk == table.pk and [s.index for s in seats] == [0, 1] and live == set()


def test_an_example_that_does_not_reach_the_statement_is_refused() -> None:
    compiled = Compiled(lambda table_id: Seat.objects.filter(table_id="fixed"), "example")
    with pytest.raises(ValueError, match="each example must reach the SQL"):
        compiled.run("t1")


def test_a_new_connection_gets_the_tables_own_last_lines_under_each_speakers_name_now() -> None:
    from cardtable.tables.authority import chat
    from cardtable.tables.models import ChatMessage

    first, people = playing_table()
    second, _ = playing_table()
    ann = people[0][0]
    for number in range(chat.HISTORY + 3):
        ChatMessage.objects.create(table=first, player=ann, seat=0, name="Ann", text=f"line {number}")
    ChatMessage.objects.create(table=second, player=ann, seat=0, name="Ann", text="elsewhere")
    ann.name = "Annie"
    ann.save(update_fields=["name"])
    lines = chat.chat_history(first.pk)
    assert [line["text"] for line in lines] == [f"line {n}" for n in range(3, chat.HISTORY + 3)]
    assert {line["name"] for line in lines} == {"Annie"}
    assert [line["text"] for line in chat.chat_history(second.pk)] == ["elsewhere"]


def test_a_connects_seat_guest_and_table_reads_compiled_give_what_their_querysets_give() -> None:
    from cardtable.tables.live import arrival
    from cardtable.tables.players import identity

    first, people = playing_table()
    second, _ = playing_table(bot=True)
    (ann, _), (bob, _) = people
    for table in (first, second):
        for player in (ann, bob):
            expected = _facts_of(presence._seat_of(table.pk, player.pk))
            assert _facts_of(presence._SEAT_OF.run(table.pk, player.pk)) == expected
    assert [s.index for s in presence._SEAT_OF.run(first.pk, bob.pk)] == [1]
    assert presence._SEAT_OF.run(second.pk, bob.pk) == []  # a bot sits there
    for player_id in (ann.pk, bob.pk, -5):
        assert _facts_of(identity._GUEST.run(player_id)) == _facts_of(identity._guest(player_id))
    bob.former = True  # a deleted account's player is no session's any more
    bob.save(update_fields=["former"])
    assert identity._GUEST.run(bob.pk) == [] and [p.pk for p in identity._GUEST.run(ann.pk)] == [ann.pk]
    assert [t.pk for t in arrival._TABLE_IDS.run(second.pk)] == [second.pk]
    assert arrival._TABLE_IDS.run("no such table") == []


def _facts_of(rows) -> list[tuple]:
    """Every loaded column of each row and of the table it carries, if it carries one."""

    def loaded(instance) -> tuple:
        return tuple(instance.__dict__.get(f.attname) for f in instance._meta.concrete_fields)

    return [(loaded(r), loaded(r.table) if "table" in r._state.fields_cache else None) for r in rows]


def test_the_session_store_reads_a_live_session_and_forgets_an_expired_or_malformed_key() -> None:
    from django.contrib.sessions.backends.db import SessionStore as DjangoStore
    from django.contrib.sessions.models import Session

    from cardtable.tables.players.sessions import SessionStore

    live = SessionStore()
    live["player_id"] = 42
    live.save()
    other = SessionStore()
    other["player_id"] = 7
    other.save()
    expired = SessionStore()
    expired["player_id"] = 9
    expired.save()
    Session.objects.filter(pk=expired.session_key).update(expire_date=timezone.now() - timedelta(seconds=1))
    for key, player in ((live.session_key, 42), (other.session_key, 7), (live.session_key, 42)):
        store = SessionStore(key)
        assert store.get("player_id") == player and store.session_key == key
        assert dict(store.items()) == dict(DjangoStore(key).items())
    for key in (expired.session_key, "x" * 32, "short"):
        store = SessionStore(key)
        assert store.get("player_id") is None and store.session_key is None
    with CaptureQueriesContext(connection) as captured:
        assert SessionStore(live.session_key).get("player_id") == 42
    assert len(captured.captured_queries) == 1


def test_the_running_matchs_compiled_read_gives_its_id_and_last_move_number() -> None:
    import random

    from django.db.models import Max

    from cardtable.tables.models import Match, Table
    from tests.server.helpers import play

    def expected(table: Table) -> tuple[int, int] | None:
        matches = Match.objects.filter(table_id=table.pk, number=table.game_number)
        row = matches.annotate(last_seq=Max("moves__seq")).values_list("pk", "last_seq").first()
        return (row[0], row[1] or 0) if row is not None else None

    first, _ = playing_table()
    second, _ = playing_table()
    assert state._match_of(first) == expected(first) and state._match_of(first)[1] == 0
    play(second.pk, random.Random(3), moves=5)
    second.refresh_from_db()
    assert state._match_of(second) == expected(second) and state._match_of(second)[1] == 5
    assert state._match_of(first) == expected(first)  # each table's own match
    second.game_number += 1  # no such match (yet)
    assert state._match_of(second) is None


def test_a_connects_compiled_writes_write_what_djangos_would() -> None:
    from cardtable.tables.models import Table

    first, people = playing_table()
    second, _ = playing_table()
    ann = people[0][0]
    seen = timezone.now()
    presence._CONNECTED.run("c1", first.pk, ann.pk, seen, "host:1:a")
    presence._CONNECTED.run("c2", second.pk, None, seen, "host:1:a")  # a spectator's: no player
    rows = {c.channel: (c.table_id, c.player_id, c.seen, c.process) for c in Connection.objects.all()}
    assert rows == {"c1": (first.pk, ann.pk, seen, "host:1:a"), "c2": (second.pk, None, seen, "host:1:a")}
    Table.objects.filter(pk__in=[first.pk, second.pk]).update(alone_since=seen)
    assert presence._NOT_ALONE.run(first.pk) == 1 and presence._NOT_ALONE.run(first.pk) == 0
    assert list(Table.objects.order_by("pk").values_list("pk", "alone_since")) == sorted(
        [(first.pk, None), (second.pk, seen)]
    )
    Seat.objects.update(away_since=seen, stand_in=True, timeouts=2)
    ann_seat = Seat.objects.get(table=first, player=ann)
    assert presence._SEAT_BACK.run(ann_seat.pk) == 1
    backs = {s.pk: (s.away_since, s.stand_in, s.timeouts) for s in Seat.objects.all()}
    assert backs.pop(ann_seat.pk) == (None, False, 0)
    assert set(backs.values()) == {(seen, True, 2)}  # no other seat
