"""The known-version move: a move made on this process's newest snapshot, without reading the table.

The table row is changed by an UPDATE guarded by the version and the seating
the snapshot showed, together with the log row's INSERT; if the table moved
on, nothing is written and the move goes the locked way (``moving.apply_move``).
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from cardtable.tables.authority import state as state_builder
from cardtable.tables.authority.commit import announce, no_lock, sqlite_lock
from cardtable.tables.events import MoveCommitting, emit
from cardtable.tables.models import MoveRecord, Player, Table
from games import get_game
from games.engine import GameError


def apply_on_known(
    table_id: str, move: Any, version: int, player: Player | None, seat: int | None, by: str
) -> int | None:
    """Make a move on this process's newest snapshot of the table, without reading it first.

    A human's move names the ``player``; a bot's or a stand-in's the ``seat``,
    which the snapshot must show played by a bot, or by a stand-in (a returning
    human takes the seat back by changing ``Table.seating``, which the guard sees).

    Used only when that snapshot is the version the mover saw and the move checks
    out on it; the table row is then changed by an UPDATE guarded by that
    version and by ``Table.seating`` (who plays each seat), together with the
    log row's INSERT (``_write_known``), so if the table moved on in the
    meantime (another process, a racing move, a stand-in taking or giving back
    a seat) nothing is written and ``None`` sends the move the locked way,
    which reads the table and gives the right answer. Returns the new version
    when the move was made.
    """
    snap = state_builder.latest(table_id)
    if (
        snap is None
        or snap.match is None
        or snap.version != version
        or snap.status != Table.PLAYING
        # A clocked table's move restarts its clock and may clear a seat's timeouts,
        # and a human's move clears the last timeout: the locked way does those.
        or snap.clock
        or snap.table["last_timeout"]
    ):
        return None
    if player is not None:
        if player.pk not in snap.players:
            return None
        seat = snap.players.index(player.pk)
    elif isinstance(seat, int) and 0 <= seat < len(snap.players):
        shown = snap.table["seats"][seat]
        if not (shown["level"] if by == MoveRecord.BOT else shown["stand_in"]):
            return None  # the locked way says why (a stand-in whose human is back)
    else:
        return None
    game = get_game(snap.game)
    to_act = game.to_act(snap.state)
    if seat not in to_act:
        return None
    state = game.clone(snap.state)  # the snapshot's state is shared and never changed
    said = game.move_words(state, seat, move)
    try:
        events = game.apply(state, seat, move)
    except GameError:
        return None  # the locked way gives the error, checked against the table as it is
    if game.is_over(state):
        return None  # the last move of a game: its result (and who left) is the locked way's
    match_id, last_seq = snap.match
    state_json = game.to_json(state)
    row = (match_id, last_seq + 1, seat, move, by, version + 1, list(to_act), list(events), said)
    new = replace(snap, version=version + 1, state_json=state_json, state=state, match=row[:2])
    emit(MoveCommitting(new))  # the hub builds the seats' frames while the database commits
    if not _write_known(table_id, version, snap.seating, state_json, row):
        return None
    transaction.on_commit(lambda: announce(new))  # at once outside a transaction: it has committed
    return version + 1


_KNOWN_SQL: dict[str, tuple[str, str]] = {}


def _known_sql(vendor: str) -> tuple[str, str]:
    """The guarded UPDATE and the log row's INSERT as SQL text, made once per database vendor.

    On PostgreSQL they are one statement (the INSERT reads the UPDATE's
    ``RETURNING``), so in autocommit both commit or neither does without a
    BEGIN and a COMMIT of their own; the second text is then empty.
    """
    if vendor in _KNOWN_SQL:
        return _KNOWN_SQL[vendor]
    quote = connection.ops.quote_name

    def col(model: Any, name: str) -> str:
        return quote(model._meta.get_field(name).column)

    update = (
        f"UPDATE {quote(Table._meta.db_table)} SET {col(Table, 'state')} = %s, "
        f"{col(Table, 'version')} = %s, {col(Table, 'updated')} = %s "
        f"WHERE {col(Table, 'id')} = %s AND {col(Table, 'version')} = %s "
        f"AND {col(Table, 'seating')} = %s AND {col(Table, 'status')} = %s"
    )
    names = ("match", "seq", "seat", "move", "by", "version", "to_act", "events", "said", "at")
    columns = ", ".join(col(MoveRecord, name) for name in names)
    marks = ", ".join(["%s"] * len(names))
    insert = f"INSERT INTO {quote(MoveRecord._meta.db_table)} ({columns})"
    if vendor == "postgresql":
        sql = (f"WITH moved AS ({update} RETURNING 1) {insert} SELECT {marks} FROM moved RETURNING 1", "")
    else:
        sql = (update, f"{insert} VALUES ({marks})")
    _KNOWN_SQL[vendor] = sql
    return sql


def _write_known(table_id: str, version: int, seating: int, state_json: Any, row: tuple) -> bool:
    """Write a known-version move: the guarded UPDATE of the table and its log row, both or neither.

    ``row`` is the log row (match id, seq, seat, move, by, version, to_act,
    events, said). Raw SQL, no ORM: the JSON values are encoded as their JSONFields
    encode them (``adapt_json_value``), and the times as the DateTimeFields do.
    Returns whether the move was written: the guard found the table at
    ``version`` and ``seating`` and the log had no move numbered as this one (an
    ``IntegrityError`` writes nothing either).
    """
    ops = connection.ops
    now = ops.adapt_datetimefield_value(timezone.now())
    match_id, seq, seat, move, by, new_version, to_act, events, said = row
    guard_params = [ops.adapt_json_value(state_json, None), version + 1, now]
    guard_params += [table_id, version, seating, Table.PLAYING]
    row_params = [match_id, seq, seat, ops.adapt_json_value(move, None), by, new_version]
    row_params += [ops.adapt_json_value(to_act, None), ops.adapt_json_value(events, None)]
    row_params += [ops.adapt_json_value(said, None), now]
    update, insert = _known_sql(connection.vendor)
    try:
        if connection.vendor == "postgresql":
            from cardtable.tables.authority.prepared import (
                prepared_cursor,  # psycopg: loaded on PostgreSQL only
            )

            # Outside a transaction, one statement in autocommit; inside one (tests, a
            # caller's atomic block) a savepoint, so a refusal leaves the transaction usable.
            outer = transaction.atomic() if connection.in_atomic_block else no_lock()
            with outer, prepared_cursor(connection) as cursor:
                cursor.execute(update, guard_params + row_params)
                return cursor.fetchone() is not None
        with sqlite_lock, transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(update, guard_params)  # BEGIN IMMEDIATE before it: the write lock
            if cursor.rowcount != 1:
                return False
            cursor.execute(insert, row_params)
            return True
    except IntegrityError:  # the log says otherwise than the snapshot: let the locked way look
        return False
