"""The one place that builds what a connection sees: the state message for a seat.

Every outgoing ``state`` message, on connect, after a change and on ``sync``,
comes from ``state_message``, and its game part from the game's own
``view(state, seat)``: a message for seat 2 is built for seat 2, a spectator's
for ``None``. The public table summary (``table_summary``) holds no game view.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from datetime import timedelta
from typing import Any

from django.conf import settings

from cardtable.tables import names, presence
from cardtable.tables.models import Match, Seat, Table
from games import get_game

_STATES: OrderedDict[tuple[str, int], Any] = OrderedDict()
_CACHE_SIZE = 256


def game_state(table: Table) -> Any:
    """Return the table's game state object, parsed once per (table, version) in this process.

    The cached object is only read (view, legal_moves, to_act), never changed.
    """
    key = (table.pk, table.version)
    state = _STATES.get(key)
    if state is None:
        state = get_game(table.game).from_json(table.state)
        _STATES[key] = state
        if len(_STATES) > _CACHE_SIZE:
            _STATES.popitem(last=False)
    return state


def seat_json(seat: Seat, live: set[int]) -> dict[str, Any]:
    """Return one seat as the protocol lists it, with ``stand_in`` when a bot plays for an absent human.

    ``left`` names the player who left a seat a bot now plays; ``away_until`` is
    when the stand-in takes the seat of a human whose connections have all gone.
    """
    kind = seat.kind
    if kind == "human":
        name, connected = seat.player.name, seat.player_id in live
    elif kind == "bot":
        name, connected = f"Bot ({seat.bot_level})", True
    else:
        name, connected = None, False
    return {
        "seat": seat.index,
        "name": name,
        "kind": kind,
        "level": seat.bot_level or None,
        "connected": connected,
        "stand_in": seat.stand_in,
        "left": seat.left or None,
        "away_until": _away_until(seat, kind, connected),
    }


def _away_until(seat: Seat, kind: str, connected: bool) -> str | None:
    if kind != "human" or connected or seat.stand_in or seat.away_since is None:
        return None
    return (seat.away_since + timedelta(seconds=settings.DISCONNECT_GRACE)).isoformat()


def table_json(table: Table, seats: list[Seat], live: set[int]) -> dict[str, Any]:
    """Return the table part shared by state messages and the public summary."""
    return {
        "id": table.pk,
        "game": table.game,
        "status": table.status,
        "players": table.players,
        "options": table.options,
        "host": table.host.name if table.host else None,
        "game_number": table.game_number,
        "seats": _told_apart([seat_json(seat, live) for seat in seats]),
        "clock": table.clock,
        "deadline": table.deadline.isoformat() if table.deadline else None,
        "last_timeout": list(table.last_timeout or []),
        "ended": table.ended or None,
    }


def _told_apart(seats: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Players whose names look alike are shown apart: ``Ann``, ``Ann (2)`` (docs/security.md S7)."""
    shown = names.disambiguate((s["seat"], s["name"]) for s in seats if s["kind"] == "human")
    for seat in seats:
        if seat["seat"] in shown:
            seat["name"] = shown[seat["seat"]]
    return seats


def load(table_id: str, with_state: bool = False) -> tuple[Table, list[Seat], set[int]]:
    """Read a table, its seats and the ids of its connected seated players, in one query.

    One query is one consistent snapshot, and this runs once per connection
    after every change. The state column is left out unless ``with_state``:
    ``state_message`` asks for it only when this process has not parsed that
    version yet. (Reading it in a second query could pair a newer state with
    this snapshot's version.)
    """
    query = Seat.objects.filter(table_id=table_id).select_related("player", "table", "table__host")
    if not with_state:
        query = query.defer("table__state")
    seats = list(query.annotate(live=presence.live_connection()).order_by("index"))
    if not seats:
        raise Table.DoesNotExist(f"there is no table {table_id!r}")
    table = seats[0].table
    for seat in seats:
        seat.table = table  # one Table object for all seats
    return table, seats, {seat.player_id for seat in seats if seat.live}


@dataclass(frozen=True)
class Snapshot:
    """One consistent read of a table: the row, its seats, who is connected, the parsed game state.

    Shared read-only by every connection of the table in this process that
    wakes for the same change; each builds its own seat's message from it.
    """

    table: Table
    seats: list[Seat]
    live: set[int]
    state: Any


def snapshot(table_id: str) -> Snapshot:
    """Read a table in one query, state column included: a snapshot is read once per wake
    and most wakes follow a move, whose new version this process has not parsed yet.
    """
    table, seats, live = load(table_id, with_state=True)
    state = game_state(table) if table.game_number > 0 else None  # parsed once per version
    return Snapshot(table, seats, live, state)


def message_for(snap: Snapshot, player_id: int | None) -> dict[str, Any]:
    """Build the ``state`` message for one connection from a snapshot: its player's seat, or a spectator.

    CPU only (no database): the game part is the game's ``view`` for this seat.
    """
    table, seats, live, state = snap.table, snap.seats, snap.live, snap.state
    seat = next((s.index for s in seats if player_id is not None and s.player_id == player_id), None)
    message: dict[str, Any] = {
        "type": "state",
        "version": table.version,
        "table": table_json(table, seats, live),
        "you": {"seat": seat, "host": player_id is not None and table.host_id == player_id},
        "view": None,
        "legal_moves": [],
        "to_act": [],
    }
    if state is not None:
        game = get_game(table.game)
        message["view"] = game.view(state, seat)
        # Only a running game has seats to act (staff may end a table mid-game).
        if table.status == Table.PLAYING:
            message["to_act"] = list(game.to_act(state))
        if seat is not None and seat in message["to_act"]:
            message["legal_moves"] = list(game.legal_moves(state, seat))
    return message


def state_message(table_id: str, player_id: int | None) -> dict[str, Any]:
    """Build the ``state`` message for one connection: its player's seat, or a spectator."""
    return message_for(snapshot(table_id), player_id)


_SHARED: dict[tuple[str, str], asyncio.Future[Snapshot]] = {}
_SHARED_FOR = 5.0  # seconds a finished read stays shareable by late wakes of the same change


async def shared_snapshot(table_id: str, wake: str, read: Callable[[str], Awaitable[Snapshot]]) -> Snapshot:
    """Return the snapshot for one wake of a table, read once for all of this process's connections.

    ``wake`` names one broadcast (``broadcast.table_changed``): a read started
    after it was sent sees that change, so every connection woken by it may
    share the read. Presence wakes keep the version, which is why the key is
    the wake and not the version. A failed read is not kept.
    """
    key = (table_id, wake)
    future = _SHARED.get(key)
    if future is None:
        loop = asyncio.get_running_loop()
        future = _SHARED[key] = asyncio.ensure_future(read(table_id))

        def forget(done: asyncio.Future[Snapshot]) -> None:
            delay = 0 if done.cancelled() or done.exception() is not None else _SHARED_FOR
            loop.call_later(delay, _SHARED.pop, key, None)

        future.add_done_callback(forget)
    # One connection going away must not cancel the read the others wait on.
    return await asyncio.shield(future)


def table_summary(table: Table) -> dict[str, Any]:
    """Return a table's public summary for the HTTP API: no hand, no view."""
    seats = list(table.seats.select_related("player").order_by("index"))
    live = presence.live_players(table.pk)
    summary = table_json(table, seats, live)
    summary.update(
        present=len(live),  # players connected, seated or watching (the lobby lists these first)
        url=f"/t/{table.pk}/",
        ws=f"/ws/tables/{table.pk}/",
        version=table.version,
        created=table.created.isoformat(),
    )
    if table.status == Table.FINISHED:
        match = Match.objects.filter(table=table, number=table.game_number).first()
        summary["result"] = match.result if match else None
    return summary
