"""The table's authority: every change to a table goes through a function here.

Each operation runs in one transaction that locks the table row, checks the
request in the protocol's order of precedence (``errors.CODES``), asks the game
module, saves, and after commit wakes the table's connections and the bot driver.
``apply_move`` is the one path for every move: human, bot, stand-in and admin.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from typing import Any

from django.conf import settings
from django.db import IntegrityError, connection, transaction
from django.db.models import Max
from django.utils import timezone

from cardtable.tables import broadcast, clocks, names
from cardtable.tables import state as state_builder
from cardtable.tables.errors import TableError
from cardtable.tables.models import Match, MoveRecord, Player, Seat, Table, new_seed
from games import get_game
from games.bots import LEVELS
from games.engine import GameError

# SQLite has no row locks (select_for_update is a no-op there), so one process
# serialises its table transactions itself. PostgreSQL locks the table row.
_sqlite_lock = threading.RLock()


@contextmanager
def locked_table(table_id: str) -> Iterator[Table]:
    """Yield the table row locked for update inside a transaction; raise if it does not exist."""
    guard = _sqlite_lock if connection.vendor == "sqlite" else _no_lock()
    with guard, transaction.atomic():
        try:
            # The host comes along (its name is in every state message); only the table row is locked.
            yield Table.objects.select_for_update(of=("self",)).select_related("host").get(pk=table_id)
        except Table.DoesNotExist:
            raise TableError("not_found", f"there is no table {table_id!r}") from None


@contextmanager
def _no_lock() -> Iterator[None]:
    yield


def save_changed(
    table: Table,
    fields: list[str],
    *,
    keep_deadline: bool = False,
    clear_timeout: bool = True,
    match: tuple[int, int] | None = None,
) -> int:
    """Add one to the table's version, save, and wake everyone after commit.

    The turn clock restarts with every change of a running clocked game, except
    when ``keep_deadline`` (a move in a simultaneous phase that leaves the others
    still to act: their deadline stands). ``last_timeout`` stays through the
    bots' moves that follow a timeout (so a client that skips versions still
    sees it) and is cleared by a human's move or any change to the seats.
    """
    table.version += 1
    clocks.restart(table, keep_deadline)
    if clear_timeout and "last_timeout" not in fields:
        table.last_timeout = []
    table.save(update_fields=[*set(fields), "deadline", "last_timeout", "version", "updated"])
    table_id, version, deadline = table.pk, table.version, table.deadline
    if match is None:
        transaction.on_commit(lambda: broadcast.table_changed(table_id, version))
    else:  # a move: its snapshot goes with the wake (one read of the seats here, none per process)
        seats, live = state_builder.seats_with_presence(table_id)
        snap = state_builder.build(table, seats, live, match)
        transaction.on_commit(lambda: _announce(snap))
    if table.clock:
        transaction.on_commit(lambda: clocks.deadline_changed(table_id, deadline))
    return version


def seats_of(table: Table) -> list[Seat]:
    """Return the table's seats in order, their players loaded."""
    return list(table.seats.select_related("player").order_by("index"))


def seat_at(table: Table, seats: list[Seat], index: object) -> Seat:
    """Return the seat at ``index``; raise ``bad_message`` when it names no seat of the table."""
    if isinstance(index, bool) or not isinstance(index, int) or not 0 <= index < table.players:
        raise TableError("bad_message", f"seat must be a number from 0 to {table.players - 1}")
    return seats[index]


def check_level(level: object) -> None:
    """Raise ``bad_message`` unless ``level`` names a bot level."""
    if level not in LEVELS:
        raise TableError("bad_message", f"level must be one of {', '.join(LEVELS)}")


def _require_player(player: Player | None) -> Player:
    if player is None:
        raise TableError("no_player", "choose a name first (POST /api/session/)")
    return player


def _require_host(table: Table, player: Player) -> None:
    if table.host_id != player.pk:
        raise TableError("not_host", "only the table's host may do that")


def _require_status(table: Table, status: str, doing: str) -> None:
    if table.status != status:
        raise TableError(
            "wrong_status", f"you can {doing} only while the table is {status}, not {table.status}"
        )


def create_table(
    player: Player | None,
    game_id: object,
    players: object = None,
    options: object = None,
    clock: object = None,
    seated: bool = True,
) -> Table:
    """Create a waiting table; ``player`` becomes its host, seated at seat 0, the other seats empty.

    ``clock`` is the seconds each turn may take: 0 or ``None`` for none, else
    ``clocks.MIN_CLOCK`` to ``clocks.MAX_CLOCK``. ``seated=False`` leaves every
    seat empty: a host who only watches (bot-only games).
    """
    player = _require_player(player)
    seconds = clocks.check_clock(clock)
    try:
        game = get_game(game_id)
        count = game.info.check_players(players)  # type: ignore[arg-type]
        if options is not None and not isinstance(options, dict):
            raise GameError("options must be a JSON object")
        resolved = game.info.resolve_options(options)  # type: ignore[arg-type]
    except GameError as error:
        raise TableError("bad_options", str(error)) from None
    with transaction.atomic():
        table = Table.objects.create(
            game=game.info.id,
            players=count,
            options=resolved,
            host=player,
            clock=seconds,
            alone_since=timezone.now(),  # nobody has connected yet
        )
        # The creator sits down at once: a table made to play at is one's own seat.
        Seat.objects.bulk_create(
            Seat(table=table, index=i, player=player if seated and i == 0 else None) for i in range(count)
        )
    return table


def sit(table_id: str, player: Player | None, index: object) -> int:
    """Seat ``player`` in an empty seat; return the new version."""
    with locked_table(table_id) as table:
        seats = seats_of(table)
        seat = seat_at(table, seats, index)
        player = _require_player(player)
        if seat.player_id == player.pk and table.status == Table.WAITING:
            # Sitting where one sits already (the creator, seated on creation) changes nothing.
            return save_changed(table, [])
        if seat.kind != "empty":
            raise TableError("seat_taken", f"seat {seat.index} is taken")
        if any(s.player_id == player.pk for s in seats):
            raise TableError("seat_taken", "you already hold a seat at this table")
        _require_status(table, Table.WAITING, "sit down")
        seat.player = player
        seat.save(update_fields=["player"])
        return save_changed(table, [])


def stand(table_id: str, player: Player | None) -> int:
    """Take ``player`` out of their seat before the game starts."""
    with locked_table(table_id) as table:
        player = _require_player(player)
        seat = _own_seat(table, player)
        _require_status(table, Table.WAITING, "stand up")
        seat.player = None
        seat.away_since, seat.stand_in = None, False
        seat.save(update_fields=["player", "away_since", "stand_in"])
        return save_changed(table, [])


def leave(table_id: str, player: Player | None) -> int:
    """Leave your seat: before a game it is ``stand``; during or after one a bot plays it on.

    The bot is the stand-in level's; the seat shows who left (``Seat.left``) and
    the game's record notes the departure (``Match.left``), so its result is not
    counted as an ordinary loss. A host who leaves hands the table to the next
    seated human.
    """
    with locked_table(table_id) as table:
        player = _require_player(player)
        seat = _own_seat(table, player)
        if table.status == Table.WAITING:
            seat.player = None
            seat.away_since, seat.stand_in, seat.timeouts = None, False, 0
            seat.save(update_fields=["player", "away_since", "stand_in", "timeouts"])
            return save_changed(table, [])
        if table.ended:
            raise TableError("wrong_status", "the table has ended")
        match = Match.objects.filter(table=table, number=table.game_number).first()
        if match is not None and match.result is None:
            moves = match.moves.count()
            departure = {"seat": seat.index, "player": player.pk, "name": player.name, "moves": moves}
            match.left = [*match.left, departure]
            match.save(update_fields=["left"])
        seat.player, seat.bot_level, seat.left = None, settings.STAND_IN_LEVEL, player.name
        seat.away_since, seat.stand_in, seat.timeouts = None, False, 0
        seat.save(update_fields=["player", "bot_level", "left", "away_since", "stand_in", "timeouts"])
        if table.host_id == player.pk:
            heir = table.seats.filter(player__isnull=False).order_by("index").first()
            table.host_id = heir.player_id if heir else None
        return save_changed(table, ["host"])


def takeover(table_id: str, player: Player | None, index: object) -> int:
    """A player without a seat here takes over the seat a bot plays for someone who left."""
    with locked_table(table_id) as table:
        seats = seats_of(table)
        seat = seat_at(table, seats, index)
        player = _require_player(player)
        if any(s.player_id == player.pk for s in seats):
            raise TableError("seat_taken", "you already hold a seat at this table")
        if not seat.left or seat.kind != "bot":
            raise TableError("seat_taken", f"seat {seat.index} is not open to take over (nobody left it)")
        if table.status != Table.PLAYING or table.ended:
            raise TableError("wrong_status", f"take over a seat during a game (the table is {table.status})")
        match = Match.objects.filter(table=table, number=table.game_number).first()
        if match is not None:
            for departure in match.left:
                if departure["seat"] == seat.index and "taken_by" not in departure:
                    departure["taken_by"] = player.pk
                    departure["taken_after"] = match.moves.count()  # where the move log shows it
            match.save(update_fields=["left"])
        seat.player, seat.bot_level, seat.left = player, "", ""
        seat.save(update_fields=["player", "bot_level", "left"])
        if table.host_id is None:
            table.host = player
        return save_changed(table, ["host"])


def _own_seat(table: Table, player: Player) -> Seat:
    seat = table.seats.filter(player=player).first()
    if seat is None:
        raise TableError("not_seated", "you do not hold a seat at this table")
    return seat


def add_bot(table_id: str, player: Player | None, index: object, level: object) -> int:
    """The host puts a bot of ``level`` in an empty seat."""
    check_level(level)
    with locked_table(table_id) as table:
        seat = seat_at(table, seats_of(table), index)
        player = _require_player(player)
        if seat.kind != "empty":
            raise TableError("seat_taken", f"seat {seat.index} is taken")
        _require_host(table, player)
        _require_status(table, Table.WAITING, "add a bot")
        seat.bot_level = str(level)
        seat.save(update_fields=["bot_level"])
        return save_changed(table, [])


def remove_bot(table_id: str, player: Player | None, index: object) -> int:
    """The host takes a bot out of its seat before the game starts."""
    with locked_table(table_id) as table:
        seat = seat_at(table, seats_of(table), index)
        if seat.kind != "bot":
            raise TableError("bad_message", f"seat {seat.index} holds no bot")
        _require_host(table, _require_player(player))
        _require_status(table, Table.WAITING, "remove a bot")
        seat.bot_level = ""
        seat.save(update_fields=["bot_level"])
        return save_changed(table, [])


def start(table_id: str, player: Player | None) -> int:
    """The host starts the first game once every seat is filled."""
    with locked_table(table_id) as table:
        _require_host(table, _require_player(player))
        _require_status(table, Table.WAITING, "start")
        return _begin_game(table)


def rematch(table_id: str, player: Player | None) -> int:
    """The host starts a new game at a finished table: same seats, same options."""
    with locked_table(table_id) as table:
        _require_host(table, _require_player(player))
        _require_status(table, Table.FINISHED, "ask for a rematch")
        return _begin_game(table)


def _begin_game(table: Table) -> int:
    seats = seats_of(table)
    empty = [s.index for s in seats if s.kind == "empty"]
    if empty:
        raise TableError("seats_empty", f"fill every seat first (empty: {', '.join(map(str, empty))})")
    game = get_game(table.game)
    seed = new_seed()
    state = game.new(table.players, {k: v for k, v in table.options.items()}, seed)
    table.game_number += 1
    Match.objects.create(
        table=table,
        number=table.game_number,
        game=table.game,
        players=table.players,
        options=table.options,
        seed=seed,
        seats=[
            {
                "seat": s.index,
                "kind": s.kind,
                "level": s.bot_level or None,
                "player": s.player_id,
                "name": s.player.name if s.player else None,
            }
            for s in seats
        ],
        first_deal=game.deal_event(state),
        version=table.version + 1,
    )
    table.state = game.to_json(state)
    table.status = Table.PLAYING
    return save_changed(table, ["state", "status", "game_number"])


def apply_move(
    table_id: str,
    move: Any,
    version: int | None,
    *,
    player: Player | None = None,
    seat: int | None = None,
    by: str = MoveRecord.HUMAN,
) -> int:
    """Make one move at a table and return the new version: the only way a game advances.

    A human move names the ``player`` (their seat is looked up under the lock);
    the bot driver and the admin name the ``seat``. ``version`` is the version the
    mover saw (``None`` skips the check: admin moves). Errors come in the
    protocol's order: not_seated, game_not_running, not_your_turn,
    stale_version, illegal_move; on any error nothing changes.

    A human's, bot's or stand-in's move on the version this process last saw
    committed is first tried without reading the table (``_apply_on_known``);
    whatever that cannot settle goes the locked way below, which reads the
    table and decides every error.
    """
    known = by == MoveRecord.HUMAN if player is not None else by in (MoveRecord.BOT, MoveRecord.STAND_IN)
    if version is not None and known:
        made = _apply_on_known(table_id, move, version, player, seat, by)
        if made is not None:
            return made
    with locked_table(table_id) as table:
        if player is not None:
            seat = _own_seat(table, player).index
        if seat is None:
            raise TableError("not_seated", "you do not hold a seat at this table")
        if table.status != Table.PLAYING:
            raise TableError("game_not_running", f"no game is running (the table is {table.status})")
        game = get_game(table.game)
        state = game.from_json(table.state)
        to_act = game.to_act(state)
        if seat not in to_act:
            raise TableError("not_your_turn", f"it is not seat {seat}'s turn")
        # A stand-in's move may have been computed before its human came back (a
        # return does not change the version): the seat is theirs again, so drop it.
        if by == MoveRecord.STAND_IN and not table.seats.filter(index=seat, stand_in=True).exists():
            raise TableError("not_your_turn", f"seat {seat}'s player is back; the stand-in's move is dropped")
        # The match and its last move's number in one query (the row lock on the table
        # keeps both from changing under us).
        match = Match.objects.annotate(last_seq=Max("moves__seq")).get(table=table, number=table.game_number)
        if version is not None and version != table.version:
            check_version(table, match, seat, version)
        return apply_locked(table, game, state, match, seat, move, by, announce=True)


def apply_locked(
    table: Table, game: Any, state: Any, match: Match, seat: int, move: Any, by: str, announce: bool = False
) -> int:
    """Apply a checked seat's move to a locked table and log it; return the new version.

    ``apply_move`` and the turn clock's timeouts (``turns.expire``) both end
    here, inside the transaction that holds the table's row lock. ``match`` must
    carry ``last_seq`` (the number of its last move), which this keeps current.
    With ``announce`` the wake carries the move's snapshot (``save_changed``).
    """
    to_act = list(game.to_act(state))
    try:
        events = game.apply(state, seat, move)
    except GameError as error:
        raise TableError(error.code, str(error)) from None
    version = table.version + 1
    match.last_seq = (match.last_seq or 0) + 1
    MoveRecord.objects.create(
        match=match,
        seq=match.last_seq,
        seat=seat,
        move=move,
        by=by,
        version=version,
        to_act=to_act,
        events=list(events),
    )
    if by == MoveRecord.HUMAN and table.clock:  # the human is here and playing: no longer late or away
        table.seats.filter(index=seat).exclude(timeouts=0, stand_in=False).update(timeouts=0, stand_in=False)
    table.state = game.to_json(state)
    fields = ["state"]
    if game.is_over(state):
        table.status = Table.FINISHED
        fields.append("status")
        match.result = game.result(state)
        if match.left:
            match.result["left"] = sorted({d["seat"] for d in match.left})
        match.finished = timezone.now()
        match.save(update_fields=["result", "finished"])
    # Several seats acting at once, and others still to act after this move: the clock runs on.
    keep = table.status == Table.PLAYING and set(game.to_act(state)) < set(to_act)
    if by == MoveRecord.TIMEOUT:
        fields.append("last_timeout")  # set by turns.expire: the state says whom the server moved for
    return save_changed(
        table,
        fields,
        keep_deadline=keep,
        clear_timeout=by in (MoveRecord.HUMAN, MoveRecord.ADMIN),
        match=(match.pk, match.last_seq) if announce else None,
    )


def _apply_on_known(
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
    try:
        events = game.apply(state, seat, move)
    except GameError:
        return None  # the locked way gives the error, checked against the table as it is
    if game.is_over(state):
        return None  # the last move of a game: its result (and who left) is the locked way's
    match_id, last_seq = snap.match
    state_json = game.to_json(state)
    row = (match_id, last_seq + 1, seat, move, by, version + 1, list(to_act), list(events))
    new = replace(snap, version=version + 1, state_json=state_json, state=state, match=row[:2])
    broadcast.prepare(new)  # the hub builds the seats' frames while the database commits
    if not _write_known(table_id, version, snap.seating, state_json, row):
        return None
    transaction.on_commit(lambda: _announce(new))  # at once outside a transaction: it has committed
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
    names = ("match", "seq", "seat", "move", "by", "version", "to_act", "events", "at")
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
    events). Raw SQL, no ORM: the JSON values are encoded as their JSONFields
    encode them (``adapt_json_value``), and the times as the DateTimeFields do.
    Returns whether the move was written: the guard found the table at
    ``version`` and ``seating`` and the log had no move numbered as this one (an
    ``IntegrityError`` writes nothing either).
    """
    ops = connection.ops
    now = ops.adapt_datetimefield_value(timezone.now())
    match_id, seq, seat, move, by, new_version, to_act, events = row
    guard_params = [ops.adapt_json_value(state_json, None), version + 1, now]
    guard_params += [table_id, version, seating, Table.PLAYING]
    row_params = [match_id, seq, seat, ops.adapt_json_value(move, None), by, new_version]
    row_params += [ops.adapt_json_value(to_act, None), ops.adapt_json_value(events, None), now]
    update, insert = _known_sql(connection.vendor)
    try:
        if connection.vendor == "postgresql":
            from cardtable.tables.prepared import prepared_cursor  # psycopg: loaded on PostgreSQL only

            # Outside a transaction, one statement in autocommit; inside one (tests, a
            # caller's atomic block) a savepoint, so a refusal leaves the transaction usable.
            outer = transaction.atomic() if connection.in_atomic_block else _no_lock()
            with outer, prepared_cursor(connection) as cursor:
                cursor.execute(update, guard_params + row_params)
                return cursor.fetchone() is not None
        with _sqlite_lock, transaction.atomic(), connection.cursor() as cursor:
            cursor.execute(update, guard_params)  # BEGIN IMMEDIATE before it: the write lock
            if cursor.rowcount != 1:
                return False
            cursor.execute(insert, row_params)
            return True
    except IntegrityError:  # the log says otherwise than the snapshot: let the locked way look
        return False


def _announce(snap: state_builder.Snapshot) -> None:
    """After a move's commit: this process's connections take ``snap`` as is; the wake carries it on."""
    state_builder.remember(snap)  # the next move on this version needs no read (_apply_on_known)
    # The listeners (the bot driver) may learn from it who plays the seats: state.committed_change.
    with state_builder.committed(snap):
        broadcast.table_changed(snap.table_id, snap.version, snapshot=snap)


@dataclass(frozen=True)
class HintJob:
    """What a hint is computed from: the game, its state, the asking seat, a seed."""

    game: str
    state: dict
    seat: int
    seed: int


def hint_job(table_id: str, player: Player | None) -> HintJob:
    """Check that ``player`` may ask for a hint now (seated, game running, to act); return what to compute.

    Errors come in the protocol's order: no_player, not_seated, game_not_running, not_your_turn.
    Nothing changes at the table.
    """
    player = _require_player(player)
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise TableError("not_found", f"there is no table {table_id!r}")
    seat = _own_seat(table, player).index
    if table.status != Table.PLAYING:
        raise TableError("game_not_running", f"no game is running (the table is {table.status})")
    game = get_game(table.game)
    if seat not in game.to_act(game.from_json(table.state)):
        raise TableError("not_your_turn", "a hint is for your own turn")
    seed = Match.objects.filter(table=table, number=table.game_number).values_list("seed", flat=True).first()
    return HintJob(
        table.game, table.state, seat, ((seed or 0) * 1_000_003 + table.version * 31 + seat) & 0x7FFFFFFF
    )


def check_version(table: Table, match: Match, seat: int, version: object) -> None:
    """Accept an older ``version`` only across other seats' moves in a simultaneous phase.

    The rule (docs/protocol.md): a move that saw version ``v`` is still accepted
    when every change since ``v`` was a move of the current game, by another seat,
    made while this seat was also to act (so several seats were acting at once),
    and this seat is still to act now (checked by the caller). Anything else since
    ``v`` (a move by this seat, a turn-based move, a seat change, a new game)
    makes the move stale.
    """
    if isinstance(version, int) and 0 <= version < table.version:
        since = list(match.moves.filter(version__gt=version).values_list("seat", "to_act"))
        if len(since) == table.version - version and all(s != seat and seat in acting for s, acting in since):
            return
    raise TableError(
        "stale_version", f"the table has moved on to version {table.version}; you saw {version} (send sync)"
    )


def encodes(text: str) -> bool:
    """Return whether text encodes as UTF-8: JSON's escapes can carry a lone surrogate, which does not."""
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check_chat(player: Player | None, text: object) -> tuple[Player, str]:
    """Return the speaker and the line to post, or raise the error that refuses the line.

    The consumer asks this before charging the chat allowance, so refused lines
    never use it up.
    """
    try:
        line = names.clean_chat(text)  # normalised; no controls, direction overrides or mark piles
    except names.BadText as error:
        raise TableError("bad_message", str(error)) from None
    return _require_player(player), line


def chat_name(player: Player, seats: list[Seat]) -> str:
    """The name a chat line shows: the player's name now, told apart as the table tells its seats apart."""
    shown = names.disambiguate((s.index, s.player.name) for s in seats if s.player is not None)
    own = next((s.index for s in seats if s.player_id == player.pk), None)
    if own is not None:
        return shown[own]
    return names.watcher_name(player.name, shown.values())


def chat_history(table_id: str, count: int = 50) -> list[dict]:
    """The table's last chat lines, each under its speaker's name now (a rename shows)."""
    from cardtable.tables.models import ChatMessage

    lines = ChatMessage.objects.filter(table_id=table_id).select_related("player").order_by("-at", "-id")
    seats = list(Seat.objects.filter(table_id=table_id).select_related("player").order_by("index"))
    history = []
    for line in reversed(lines[:count]):
        message = line.to_json()
        if line.player is not None:
            message["name"] = chat_name(line.player, seats)
        history.append(message)
    return history


def post_chat(table_id: str, player: Player | None, text: object) -> dict:
    """Save a chat line and send it to the table; return the chat message."""
    from cardtable.tables.models import ChatMessage

    player, line_text = check_chat(player, text)
    table = Table.objects.filter(pk=table_id).first()
    if table is None:
        raise TableError("not_found", f"there is no table {table_id!r}")
    seats = seats_of(table)
    seat = next((s.index for s in seats if s.player_id == player.pk), None)
    line = ChatMessage.objects.create(table=table, player=player, seat=seat, name=player.name, text=line_text)
    message = line.to_json() | {"name": chat_name(player, seats)}
    transaction.on_commit(lambda: broadcast.chat(table_id, message))
    return message
