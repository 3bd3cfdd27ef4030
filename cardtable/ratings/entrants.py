"""Who a finished game rates, and at which rank: read from its record alone (``Match``).

One entrant per seat, ranked by the game's own ranks (``GameInfo.ranks``: equal
scores share a rank), plus one for each player who left a seat and did not hold
it at the end. The rules (docs/ratings.md):

- a seat nobody left is rated for whoever started in it: a player, or the bot
  level that played it (a fixed reference);
- a seat someone left is rated for the player holding it when the game ended:
  the last one to take it over (``taken_by``), or its first player who took it
  back; when a stand-in bot finished it (nobody took it over), the seat is left
  out, its play being part the leaver's and part the bot's;
- every player who left a seat and was not holding it at the end (taking one's
  own seat back and holding it to the end is no leave) is a forfeit, rated as
  finishing last, below every seat (leavers share that rank), so leaving a lost
  game never saves a rating; ``rating.rated_groups`` rates a forfeit against
  the others alone, so nobody's rating rises for it.

Pure functions over the stored JSON, so the incremental update and the rebuild
read a game the same way.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from cardtable.tables.authority.departures import final_holder

__all__ = ["BOT", "PLAYER", "Entrant", "entrants", "final_holder"]

PLAYER, BOT = "player", "bot"


@dataclass(frozen=True, slots=True)
class Entrant:
    """One participant of a rated game: a player (by id) or a bot level, its rank (0 best), and
    ``forfeit``: a player who left a seat and did not hold it at the end (ranked last, no one's opponent)."""

    kind: str
    player: int | None
    level: str | None
    rank: int
    forfeit: bool = False


def entrants(
    seats: Sequence[dict[str, Any]], left: Sequence[dict[str, Any]], ranks: Sequence[int]
) -> list[Entrant]:
    """Every entrant of a finished game: ``seats`` and ``left`` as ``Match`` keeps them, ``ranks`` by seat."""
    found: list[Entrant] = []
    forfeits: list[int] = []
    for seat in seats:
        index = seat["seat"]
        departures = [d for d in left if d["seat"] == index]
        if not departures:
            if seat.get("player") is not None:
                found.append(Entrant(PLAYER, seat["player"], None, ranks[index]))
            elif seat.get("level"):
                found.append(Entrant(BOT, None, seat["level"], ranks[index]))
            continue
        holder = final_holder(departures)
        if holder is not None:
            found.append(Entrant(PLAYER, holder, None, ranks[index]))
        forfeits += [d["player"] for d in departures if d.get("player") not in (None, holder)]
    last = len(ranks)  # every seat finished ahead, counted as GameInfo.ranks counts places
    found += [Entrant(PLAYER, player, None, last, forfeit=True) for player in dict.fromkeys(forfeits)]
    return found
