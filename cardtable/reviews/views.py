"""``GET /api/tables/{id}/games/{n}/review/``: a finished game's reviews, as the asker may see them.

A player sees the review of the seat they played as soon as it is done; every
seat's review is open to anyone once the table's play is over (it ended, or no
person sits at it any more); staff see every review. A game still running has
no review: asking for one is the error ``game_in_progress``.
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse

from cardtable.reviews.jobs import QUEUE, autorun
from cardtable.reviews.models import Review
from cardtable.tables.api import api
from cardtable.tables.errors import TableError
from cardtable.tables.models import Match, Player, Seat
from cardtable.tables.players.identity import player_for
from cardtable.tables.replay import require_finished

# The costliest mistakes of a seat that the answer carries in full.
SHOWN_MISTAKES = 5


def table_over(match: Match) -> bool:
    """Whether the table's play is over: it ended, or no person sits at it any more."""
    table = match.table
    if table.ended:
        return True
    return not Seat.objects.filter(table=table, player__isnull=False).exists()


def seats_of(match: Match, player: Player | None) -> set[int]:
    """The seats ``player`` played in the game: where they sat at its start, or took over."""
    if player is None:
        return set()
    seats = {s["seat"] for s in match.seats if s.get("player") == player.pk}
    seats |= {d["seat"] for d in match.left if d.get("taken_by") == player.pk}
    return seats


def review_json(row: Review, name: str) -> dict[str, Any]:
    """One seat's review: its status and figures, with its costliest mistakes in full."""
    figures = row.figures or {}
    by_step = {d["step"]: d for d in figures.get("decisions", [])}
    mistakes = [by_step[step] for step in figures.get("mistakes", [])[:SHOWN_MISTAKES] if step in by_step]
    return {
        "seat": row.seat,
        "name": name,
        "status": row.status,
        "message": row.message if row.status == Review.FAILED else "",
        "unit": row.unit,
        "reviewed": figures.get("reviewed", 0),
        "mistake_count": len(figures.get("mistakes", [])),
        "average_cost": row.average_cost,
        "total_cost": figures.get("total_cost"),
        "mistakes": mistakes,
        "seed": row.seed,
        "playouts": row.playouts,
    }


def reviews_for(match: Match, player: Player | None, staff: bool) -> dict[str, Any]:
    """The game's reviews the asker may see, and which seats' are kept from them."""
    require_finished(match)
    if autorun():
        QUEUE.resume()
    mine = seats_of(match, player)
    everyone = staff or table_over(match)
    rows = list(Review.objects.filter(match=match).order_by("seat"))
    names = [s.get("name") or f"Seat {s['seat'] + 1}" for s in match.seats]
    shown = [row for row in rows if everyone or row.seat in mine]
    return {
        "table": match.table_id,
        "number": match.number,
        "game": match.game,
        "your_seats": sorted(mine),
        "reviews": [review_json(row, names[row.seat] if row.seat < len(names) else "") for row in shown],
        "hidden_seats": [row.seat for row in rows if row not in shown],
    }


@api("GET")
def review(request: HttpRequest, table_id: str, number: int) -> JsonResponse:
    """GET a finished game's reviews; a running game's is refused (403 ``game_in_progress``)."""
    match = Match.objects.filter(table_id=table_id, number=number).select_related("table").first()
    if match is None:
        raise TableError("not_found", f"table {table_id!r} has no game {number}")
    player = player_for(request.session, request.user)
    try:
        body = reviews_for(match, player, bool(request.user.is_staff))
    except TableError as error:
        return JsonResponse({"error": {"code": error.code, "message": error.message}}, status=403)
    return JsonResponse(body)
