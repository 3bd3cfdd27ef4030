"""The one path for every move, human, bot, stand-in and admin: ``apply_move``.

A move on the version this process last saw committed is first tried without
reading the table (``known.apply_on_known``); whatever that cannot settle goes
the locked way, which reads the table and decides every error.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Max
from django.utils import timezone

from cardtable.tables.authority import departures
from cardtable.tables.authority.checks import (
    own_seat,
)
from cardtable.tables.authority.commit import locked_table, save_changed
from cardtable.tables.authority.known import apply_on_known
from cardtable.tables.errors import TableError
from cardtable.tables.events import MatchFinished, emit
from cardtable.tables.models import Match, MoveRecord, Player, Table
from games import get_game
from games.engine import GameError


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
    committed is first tried without reading the table (``apply_on_known``);
    whatever that cannot settle goes the locked way below, which reads the
    table and decides every error.
    """
    known = by == MoveRecord.HUMAN if player is not None else by in (MoveRecord.BOT, MoveRecord.STAND_IN)
    if version is not None and known:
        made = apply_on_known(table_id, move, version, player, seat, by)
        if made is not None:
            return made
    with locked_table(table_id) as table:
        if player is not None:
            seat = own_seat(table, player).index
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
    said = game.move_words(state, seat, move)
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
        said=said,
    )
    if by == MoveRecord.HUMAN and table.clock:  # the human is here and playing: no longer late or away
        table.seats.filter(index=seat).exclude(timeouts=0, stand_in=False).update(timeouts=0, stand_in=False)
    table.state = game.to_json(state)
    fields = ["state"]
    over = game.is_over(state)
    if over:
        table.status = Table.FINISHED
        fields.append("status")
        match.result = departures.recorded_result(game.result(state), match.left)
        match.finished = timezone.now()
        moons = getattr(game, "moons", None)  # the games with a moon to shoot say who shot it
        match.moons = moons(state) if moons is not None else None
        match.save(update_fields=["result", "finished", "moons"])
    # Several seats acting at once, and others still to act after this move: the clock runs on.
    keep = table.status == Table.PLAYING and set(game.to_act(state)) < set(to_act)
    if by == MoveRecord.TIMEOUT:
        fields.append("last_timeout")  # set by turns.expire: the state says whom the server moved for
    version = save_changed(
        table,
        fields,
        keep_deadline=keep,
        clear_timeout=by in (MoveRecord.HUMAN, MoveRecord.ADMIN),
        match=(match.pk, match.last_seq) if announce else None,
    )
    if over:
        # Registered after save_changed's wake: the final state goes out to the seats
        # before the jobs that follow a finished game (the ratings) run in this thread.
        finished = MatchFinished(table.id, match.pk)
        transaction.on_commit(lambda: emit(finished))
    return version


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
