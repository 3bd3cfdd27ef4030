"""The checks every operation on a table makes: who asks, which seat, in which state of the table."""

from __future__ import annotations

from cardtable.tables.errors import TableError
from cardtable.tables.models import Player, Seat, Table
from games.bots import LEVELS


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


def require_player(player: Player | None) -> Player:
    if player is None:
        raise TableError("no_player", "choose a name first (POST /api/session/)")
    return player


def require_host(table: Table, player: Player) -> None:
    if table.host_id != player.pk:
        raise TableError("not_host", "only the table's host may do that")


def require_status(table: Table, status: str, doing: str) -> None:
    if table.status != status:
        raise TableError(
            "wrong_status", f"you can {doing} only while the table is {status}, not {table.status}"
        )


def own_seat(table: Table, player: Player) -> Seat:
    seat = table.seats.filter(player=player).first()
    if seat is None:
        raise TableError("not_seated", "you do not hold a seat at this table")
    return seat
