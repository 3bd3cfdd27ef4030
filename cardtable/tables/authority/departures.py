"""Who has held which seat in one game, read from its record: the rules of ``leave`` and ``takeover``.

A game's record (``Match``) lists who sat where when it started (``seats``) and
who left mid-game (``left``: one entry per seat and player, with ``taken_by``
once someone took the seat over). From these come the rules a takeover obeys
(docs/protocol.md, docs/security.md): a player holds, or has held, at most one
seat of a game, so one who left may take back only that same seat; and at most
``HOLDERS_PER_SEAT`` players hold one seat in one game, so the record stays small.
Who holds a left seat at the end (``final_holder``) and who left a seat for good
(``gone``, ``left_seats``) are read the same way by the recorded result, its
replay check, the ratings and a player's page: a player who took their own seat
back and held it to the end did not leave it.
Pure functions over the stored JSON: the seating operations call them under the table lock.
"""

from __future__ import annotations

from typing import Any

# Players who may hold one seat during one game: whoever started in it and the
# people who took it over. It bounds ``Match.left`` at this many entries per seat.
HOLDERS_PER_SEAT = 4


def held_seats(seats: list[dict[str, Any]], left: list[dict[str, Any]], player_id: int) -> set[int]:
    """The seats ``player_id`` has held in the game: at its start, or by a takeover since."""
    held = {s["seat"] for s in seats if s.get("player") == player_id}
    held |= {d["seat"] for d in left if player_id in (d.get("player"), d.get("taken_by"))}
    return held


def holders(seats: list[dict[str, Any]], left: list[dict[str, Any]], index: int) -> set[int]:
    """The players who have held seat ``index`` in the game (its player at the start included)."""
    found = {s["player"] for s in seats if s["seat"] == index and s.get("player") is not None}
    for departure in left:
        if departure["seat"] == index:
            found |= {p for p in (departure.get("player"), departure.get("taken_by")) if p is not None}
    return found


def record_departure(left: list[dict[str, Any]], departure: dict[str, Any]) -> list[dict[str, Any]]:
    """Return the record with ``departure`` (``seat``, ``player``, ``name``, ``moves``) noted.

    A player who leaves the same seat again updates their entry (the moves made
    by this departure; the seat is open to take over again) instead of adding
    one, so the record grows by one entry per player, not per departure.
    """
    entries = [dict(d) for d in left]
    for entry in entries:
        if entry["seat"] == departure["seat"] and entry.get("player") == departure["player"]:
            entry.update(departure)
            entry.pop("taken_by", None)
            entry.pop("taken_after", None)
            return entries
    return [*entries, dict(departure)]


def record_takeover(
    left: list[dict[str, Any]], index: int, player_id: int, moves: int
) -> list[dict[str, Any]]:
    """Return the record with seat ``index``'s open departure marked as taken over by ``player_id``.

    ``moves`` is how many moves the game had then (``taken_after``: where the move log shows it).
    """
    entries = [dict(d) for d in left]
    for entry in entries:
        if entry["seat"] == index and "taken_by" not in entry:
            entry["taken_by"], entry["taken_after"] = player_id, moves
    return entries


def final_holder(departures: list[dict[str, Any]]) -> int | None:
    """The player holding a left seat at the end, from that seat's departures; ``None``: a bot finished it.

    A departure without ``taken_by`` is still open (the stand-in bot plays the
    seat); at most one is open at a time, since a seat opens only when its holder
    leaves and every open departure closes at the next takeover. With none open,
    the latest takeover (the largest ``taken_after``) names the holder.
    """
    if not departures or any("taken_by" not in d for d in departures):
        return None
    latest = max(departures, key=lambda d: d.get("taken_after", 0))
    return latest["taken_by"]


def gone(left: list[dict[str, Any]], index: int) -> list[int]:
    """The players who left seat ``index`` and did not hold it at the end (in the order they left)."""
    departures = [d for d in left if d["seat"] == index]
    holder = final_holder(departures)
    return [d["player"] for d in departures if d.get("player") is not None and d["player"] != holder]


def left_seats(left: list[dict[str, Any]]) -> list[int]:
    """The seats some player left for good: the result's ``"left"`` (a seat taken back is not one)."""
    return sorted({d["seat"] for d in left if gone(left, d["seat"])})


def recorded_result(result: dict[str, Any], left: list[dict[str, Any]]) -> dict[str, Any]:
    """The result a finished game records: the game's own, and ``"left"`` (``left_seats``) when any.

    The authority records this when a game ends, and a replay checks its own end
    against it, so the two read the departures the same way.
    """
    recorded = dict(result)
    seats = left_seats(left)
    if seats:
        recorded["left"] = seats
    return recorded
