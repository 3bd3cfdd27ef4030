"""The move log of the current deal, as one seat may see it (``GET /api/tables/{id}/log/``).

Every move since the deal began, oldest first, with who made it (``by``: the
player, a bot, the stand-in, the turn clock or staff), and the departures and
takeovers in between. Each move is filtered through the game's
``move_seen_by`` for the asking player's seat, so a passed card shows only to
the seats that may see it. Read in a worker thread like every view: the page
asks for it when it cannot follow the deal from the states alone (on connect,
after a gap, when the clock moved or a seat changed hands).
"""

from __future__ import annotations

from typing import Any

from django.http import HttpRequest, JsonResponse

from cardtable.tables.api import api
from cardtable.tables.authority import state as state_builder
from cardtable.tables.errors import TableError
from cardtable.tables.models import Match, Player, Table
from cardtable.tables.players.identity import player_for
from games import get_game

# A deal has at most a few hundred moves (Hearts: 4 passes and 52 plays); the log reads no further back.
MOST_MOVES = 600


def _deal_rows(match: Match, version: int) -> tuple[int, list[tuple]]:
    """The moves of the deal running at ``version``, oldest first, and the seq of the move
    that dealt it (0: the first deal)."""
    rows = match.moves.filter(version__lte=version).order_by("-seq")
    rows = rows.values_list("seq", "seat", "move", "by", "version", "said", "events")[:MOST_MOVES]
    deal, began = [], 0
    for row in rows:
        if any(isinstance(event, dict) and "deal" in event for event in row[6] or []):
            began = row[0]  # this move ended the last deal and dealt the current one
            break
        deal.append(row[:6])
    deal.reverse()
    return began, deal


def _seat_changes(match: Match, began: int) -> list[tuple[float, dict[str, Any]]]:
    """Departures and takeovers in this deal, each with the move count it came after (a sort key)."""
    takers = {p.pk: p.name for p in Player.objects.filter(pk__in=[d.get("taken_by") for d in match.left])}
    changes = []
    for departure in match.left:
        after = departure.get("moves", 0)
        if after >= began:
            changes.append(
                (after + 0.5, {"kind": "left", "seat": departure["seat"], "name": departure["name"]})
            )
        taken_after = departure.get("taken_after")
        if departure.get("taken_by") and taken_after is not None and taken_after >= began:
            entry = {
                "kind": "takeover",
                "seat": departure["seat"],
                "name": takers.get(departure["taken_by"], ""),
                "left": departure["name"],
                "back": departure["taken_by"] == departure.get("player"),
            }
            changes.append((taken_after + 0.6, entry))
    return changes


def deal_log(table_id: str, player: Player | None) -> dict[str, Any]:
    """The current deal's log as ``player``'s seat (or a spectator) may see it."""
    table, seats, _ = state_builder.load(table_id, with_state=True)
    seat = next((s.index for s in seats if player is not None and s.player_id == player.pk), None)
    body: dict[str, Any] = {"version": table.version, "game_number": table.game_number, "entries": []}
    match = Match.objects.filter(table_id=table.pk, number=table.game_number).first()
    if table.game_number == 0 or match is None:
        return body
    game = get_game(table.game)
    state = state_builder.parsed_state(table.pk, table.version, table.game, table.state)
    began, rows = _deal_rows(match, table.version)
    entries: list[tuple[float, dict[str, Any]]] = []
    for seq, mover, move, by, version, said in rows:
        shown = game.move_seen_by(state, mover, move, seat)
        entry = {"kind": "move", "seat": mover, "move": shown, "by": by, "version": version}
        if said is not None and shown == move:  # the words of a move this seat sees whole
            entry["said"] = said
        entries.append((seq, entry))
    entries.extend(_seat_changes(match, began))
    body["entries"] = [entry for _, entry in sorted(entries, key=lambda pair: pair[0])]
    return body


@api("GET")
def log(request: HttpRequest, table_id: str) -> JsonResponse:
    """``GET /api/tables/{id}/log/``: the current deal's moves, as the asking player's seat sees them."""
    try:
        return JsonResponse(deal_log(table_id, player_for(request.session, request.user)))
    except Table.DoesNotExist:
        raise TableError("not_found", f"there is no table {table_id!r}") from None
