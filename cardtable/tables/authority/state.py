"""The one place that builds what a connection sees: the state message for a seat.

Every outgoing ``state`` message, on connect, after a change and on ``sync``,
comes from ``state_message``, and its game part from the game's own
``view(state, seat)``: a message for seat 2 is built for seat 2, a spectator's
for ``None``. The public table summary (``table_summary``) holds no game view.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field, replace
from datetime import datetime, timedelta
from functools import cached_property
from typing import Any

from django.conf import settings
from django.db.models import Max, QuerySet

from cardtable.tables.authority import presence
from cardtable.tables.authority.compiled import EXAMPLE_ID, EXAMPLE_TABLE, EXAMPLE_TIME, Compiled
from cardtable.tables.models import Match, Seat, Table
from cardtable.tables.players import names
from games import get_game

_STATES: OrderedDict[tuple[str, int], Any] = OrderedDict()
_CACHE_SIZE = 256


def parsed_state(table_id: str, version: int, game_id: str, state_json: Any) -> Any:
    """Return a table's game state object, parsed once per (table, version) in this process.

    The cached object is only read (view, legal_moves, to_act), never changed:
    a move is applied to a clone (``moving.apply_move``).
    """
    key = (table_id, version)
    state = _STATES.get(key)
    if state is None:
        state = get_game(game_id).from_json(state_json)
        _keep_state(key, state)
    return state


def _keep_state(key: tuple[str, int], state: Any) -> None:
    _STATES[key] = state
    if len(_STATES) > _CACHE_SIZE:
        _STATES.popitem(last=False)


def seat_json(seat: Seat, live: set[int]) -> dict[str, Any]:
    """Return one seat as the protocol lists it, with ``stand_in`` when a bot plays for an absent human.

    ``left`` names the player who left a seat a bot now plays; ``away_until`` is
    when the stand-in takes the seat of a human whose connections have all gone;
    ``page`` is a registered player's page (a guest's is theirs alone: none).
    """
    kind = seat.kind
    page = None
    if kind == "human":
        name, connected = seat.player.name, seat.player_id in live
        if seat.player.user_id is not None:  # a registered player's page (accounts/urls.py) is public
            page = f"/players/{seat.player_id}/"
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
        "page": page,
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


def _load_query(with_state: bool) -> Callable[[str, datetime], QuerySet[Seat]]:
    def build(table_id: str, live_since: datetime) -> QuerySet[Seat]:
        query = Seat.objects.filter(table_id=table_id).select_related("player", "table", "table__host")
        if not with_state:
            query = query.defer("table__state")
        return query.annotate(live=presence.live_connection(live_since)).order_by("index")

    return build


# Compiled once per process: building this query's SQL cost more than running it.
_LOAD = {state: Compiled(_load_query(state), EXAMPLE_TABLE, EXAMPLE_TIME) for state in (False, True)}


def load(table_id: str, with_state: bool = False) -> tuple[Table, list[Seat], set[int]]:
    """Read a table, its seats and the ids of its connected seated players, in one query.

    One query is one consistent snapshot, and this runs once per connection
    after every change. The state column is left out unless ``with_state``:
    ``state_message`` asks for it only when this process has not parsed that
    version yet. (Reading it in a second query could pair a newer state with
    this snapshot's version.)
    """
    seats = _LOAD[with_state].run(table_id, presence.live_since())
    if not seats:
        raise Table.DoesNotExist(f"there is no table {table_id!r}")
    table = seats[0].table
    for seat in seats:
        seat.table = table  # one Table object for all seats
    return table, seats, {seat.player_id for seat in seats if seat.live}


def seats_with_presence(table_id: str) -> tuple[list[Seat], set[int]]:
    """Read a table's seats in order, their players, and which seated players are connected: one query."""
    query = Seat.objects.filter(table_id=table_id).select_related("player")
    seats = list(query.annotate(live=presence.live_connection()).order_by("index"))
    return seats, {seat.player_id for seat in seats if seat.live}


@dataclass(frozen=True)
class Snapshot:
    """One consistent picture of a table at one version: what every seat's message is built from.

    Plain data, shared read-only by every connection of the table in this process
    that wakes for the same change; each builds its own seat's message from it
    (``message_for``). It comes from one database read (``snapshot``), from the
    process that committed a move (``moving.apply_move`` holds it already), or
    from the wake that move sent to the other processes (``from_wake``).
    """

    table_id: str
    version: int
    game: str
    status: str
    host_id: int | None
    table: dict[str, Any]  # table_json: the part every seat's message shares
    players: tuple[int | None, ...]  # the player in each seat, by index
    clock: int  # the turn clock's seconds per turn (0: none) and its deadline
    deadline: datetime | None
    state_json: Any  # the game state as stored (None before the first game)
    state: Any = field(compare=False)  # the same, parsed once per version in this process
    # (match id, its last move's seq) when known: lets this process apply the next
    # move without reading the table first (moving.apply_move).
    match: tuple[int, int] | None = field(default=None, compare=False)
    # ``Table.seating`` at this version: with it, who plays each seat (``table["seats"]``:
    # kind, level, stand_in) is exact for a snapshot a move committed (``seated_by_people``).
    seating: int = 0

    def to_wake(self) -> str:
        """This snapshot as JSON text, for a wake to carry to other processes (made once: ``_wake``)."""
        return self._wake

    @cached_property  # frozen, but a cached property writes the instance's dict, not a field
    def _wake(self) -> str:
        """The text ``to_wake`` gives.

        Text, not a structure: the channel layer's msgpack cannot carry an
        integer wider than 64 bits, which a game's stored state may hold.
        Made once per snapshot: the hub makes it while the move commits
        (``fanout.Hub.prepare``), so the committing thread finds it ready.
        """
        return json.dumps(
            {
                "table_id": self.table_id,
                "version": self.version,
                "game": self.game,
                "status": self.status,
                "host_id": self.host_id,
                "table": self.table,
                "players": list(self.players),
                "clock": self.clock,
                "deadline": self.deadline.isoformat() if self.deadline else None,
                "state": self.state_json,
                "match": list(self.match) if self.match else None,
                "seating": self.seating,
            },
            separators=(",", ":"),
        )


def build(table: Table, seats: list[Seat], live: set[int], match: tuple[int, int] | None = None) -> Snapshot:
    """Make the snapshot of a table row (state column loaded), its seats in order and who is connected."""
    state = None
    if table.game_number > 0:
        state = parsed_state(table.pk, table.version, table.game, table.state)
    return Snapshot(
        table_id=table.pk,
        version=table.version,
        game=table.game,
        status=table.status,
        host_id=table.host_id,
        table=table_json(table, seats, live),
        players=tuple(seat.player_id for seat in seats),
        clock=table.clock,
        deadline=table.deadline,
        state_json=table.state if table.game_number > 0 else None,
        state=state,
        match=match,
        seating=table.seating,
    )


def from_wake(text: str) -> Snapshot:
    """Rebuild a snapshot another process sent with its wake (``Snapshot.to_wake``): no database read."""
    data = json.loads(text)
    state_json = data["state"]
    state = None
    if state_json is not None:
        state = parsed_state(data["table_id"], data["version"], data["game"], state_json)
    return Snapshot(
        table_id=data["table_id"],
        version=data["version"],
        game=data["game"],
        status=data["status"],
        host_id=data["host_id"],
        table=data["table"],
        players=tuple(data["players"]),
        clock=data["clock"],
        deadline=datetime.fromisoformat(data["deadline"]) if data["deadline"] else None,
        state_json=state_json,
        state=state,
        match=tuple(data["match"]) if data["match"] else None,  # type: ignore[arg-type]
        seating=data.get("seating", 0),
    )


def snapshot(table_id: str) -> Snapshot:
    """Read a table in one query, state column included: a snapshot is read once per wake
    and most wakes follow a move, whose new version this process has not parsed yet.
    A running game's match and last move number come in a second (``_match_of``),
    so the first move after a connect or a restart is made on this version too;
    not when this process knows them for this version already (a presence change).
    """
    table, seats, live = load(table_id, with_state=True)
    known = latest(table_id)
    if known is not None and known.match and known.version == table.version:
        match = known.match  # a presence re-read: the match and its last move are known already
    else:
        match = _match_of(table)
    return remember(build(table, seats, live, match))


def _match_of(table: Table) -> tuple[int, int] | None:
    """The running game's match and its last move's number, so the next move needs no read first.

    A second query: if the table moved on between the two, the number is ahead
    of the snapshot's version, and the move's guarded write (version and
    seating) refuses it and goes the locked way, which reads everything again.
    """
    if table.status != Table.PLAYING or table.game_number == 0:
        return None
    match = next(iter(_MATCH.run(table.pk, table.game_number)), None)
    return (match.pk, match.last_seq or 0) if match is not None else None


def _match_query(table_id: str, number: int) -> QuerySet[Match]:
    matches = Match.objects.filter(table_id=table_id, number=number).only("pk")
    return matches.annotate(last_seq=Max("moves__seq")).order_by("pk")[:1]


# Read by the first connect to a table after a restart: compiled once per process. (A game
# number is positive: Django reads a negative one as matching nothing, with no SQL.)
_MATCH = Compiled(_match_query, EXAMPLE_TABLE, -EXAMPLE_ID)


_LATEST: OrderedDict[str, Snapshot] = OrderedDict()
_LATEST_SIZE = 4096
_LATEST_LOCK = threading.Lock()


def remember(snap: Snapshot) -> Snapshot:
    """Keep ``snap`` as the newest this process knows of its table (unless it knows a newer one).

    Only snapshots of committed data come here; ``moving.apply_move`` starts
    from the newest and its guarded UPDATE refuses it if the table moved on.
    """
    with _LATEST_LOCK:  # connections' reads and moves' commits run on several threads
        known = _LATEST.get(snap.table_id)
        if known is not None and (snap.version, snap.seating) < (known.version, known.seating):
            return snap  # older than what this process knows (a stand-in's change counts too)
        if known is not None and known.version == snap.version and snap.match is None and known.match:
            snap = replace(snap, match=known.match)  # a presence re-read keeps what the move knew
        _LATEST[snap.table_id] = snap
        _LATEST.move_to_end(snap.table_id)
        if len(_LATEST) > _LATEST_SIZE:
            _LATEST.popitem(last=False)
    return snap


def latest(table_id: str) -> Snapshot | None:
    """Return the newest snapshot of a table this process knows, or ``None``."""
    return _LATEST.get(table_id)


def forget(table_id: str) -> None:
    """Drop what this process knows of a table (a guarded move found it out of date)."""
    with _LATEST_LOCK:
        _LATEST.pop(table_id, None)


def message_for(snap: Snapshot, player_id: int | None) -> dict[str, Any]:
    """Build the ``state`` message for one connection from a snapshot: its player's seat, or a spectator.

    CPU only (no database): the game part is the game's ``view`` for this seat.
    """
    seat = snap.players.index(player_id) if player_id is not None and player_id in snap.players else None
    message: dict[str, Any] = {
        "type": "state",
        "version": snap.version,
        "table": snap.table,
        "you": {"seat": seat, "host": player_id is not None and snap.host_id == player_id},
        "view": None,
        "legal_moves": [],
        "to_act": [],
    }
    if snap.state is not None:
        message["view"], message["to_act"], message["legal_moves"] = _game_part(snap, seat)
    return message


# A seat's game part (view, seats to act, legal moves) of a parsed state, by (table, version,
# seat, running). A table's presence changes send the same version again with only its
# ``table`` new: four seats coming back after a restart build each seat's part once, not four
# times (a Hearts seat passing has 286 moves).
_GAME_PARTS: OrderedDict[tuple[str, int, int | None, bool], tuple[Any, Any, list, list]] = OrderedDict()
_GAME_PARTS_SIZE = 4 * _CACHE_SIZE
_GAME_PARTS_LOCK = threading.Lock()


def _game_part(snap: Snapshot, seat: int | None) -> tuple[Any, list, list]:
    """The game's view for ``seat``, the seats to act and ``seat``'s legal moves (shared: never changed)."""
    state, running = snap.state, snap.status == Table.PLAYING  # staff may end a table mid-game
    key = (snap.table_id, snap.version, seat, running)
    with _GAME_PARTS_LOCK:
        known = _GAME_PARTS.get(key)
    if known is not None and known[0] is state:
        return known[1:]
    game = get_game(snap.game)
    view = game.view(state, seat)
    to_act = list(game.to_act(state)) if running else []
    legal = list(game.legal_moves(state, seat)) if seat is not None and seat in to_act else []
    with _GAME_PARTS_LOCK:
        _GAME_PARTS[key] = (state, view, to_act, legal)
        _GAME_PARTS.move_to_end(key)
        if len(_GAME_PARTS) > _GAME_PARTS_SIZE:
            _GAME_PARTS.popitem(last=False)
    return view, to_act, legal


def state_message(table_id: str, player_id: int | None) -> dict[str, Any]:
    """Build the ``state`` message for one connection: its player's seat, or a spectator."""
    return message_for(snapshot(table_id), player_id)


def seated_by_people(snap: Snapshot) -> bool:
    """Whether no bot and no stand-in plays any seat in ``snap`` (so no turn is the server's to play).

    Exact for a snapshot a move committed: the known-version move is guarded on
    ``Table.seating`` and the locked way reads the seats under the table's lock.
    """
    return not any(seat["level"] or seat["stand_in"] for seat in snap.table["seats"])


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
