"""Replays: every state of a game rebuilt from its seed and move log, checked as it goes.

The game module does all the work: ``new`` from the recorded seed and options,
then ``apply`` for each logged move, checking that each move sets off the same
chance events (deals, start cards) as when it was played, and that the end
matches the recorded result: the game's own, with the seats left for good
(``departures.recorded_result``, which the authority records the same way).
``replay_moves`` is the one routine; ``walk`` feeds it a ``Match`` and its log,
``replay`` yields the table version beside each state, and the dashboard's
replay page and statistics, ``manage.py checkreplays``, the server tests and
the ops harness (from raw rows) all go through it.

A replay shows all hands face up: a page that shows one must first call
``require_finished`` (while a game is played, its replay would show the hidden
cards to anyone, players included).
"""

from __future__ import annotations

import json
from collections.abc import Iterable, Iterator
from typing import Any

from cardtable.tables.authority.departures import recorded_result
from cardtable.tables.errors import TableError
from cardtable.tables.models import Match, MoveRecord
from games import get_game
from games.engine import GameError


class ReplayError(TableError):
    """No replay: ``code`` is ``game_in_progress`` or ``replay_failed``; ``message`` says why."""


def require_finished(match: Match) -> None:
    """Raise ``game_in_progress`` unless the game has ended (finished, or ended by staff)."""
    if match.finished is None:
        raise ReplayError(
            "game_in_progress",
            f"game {match.number} at table {match.table_id} is still being played; "
            "its replay opens when it ends",
        )


def plain(value: Any) -> Any:
    """Return the value as it was stored: through JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


def replay_moves(
    game_id: str,
    players: int,
    options: dict[str, Any],
    seed: int,
    records: Iterable[Any],
    result: dict[str, Any] | None = None,
    left: list[dict[str, Any]] | None = None,
) -> Iterator[tuple[Any | None, Any, bool]]:
    """Yield (record, state, new deal) at the start (record ``None``) and after each logged move.

    ``records`` are the logged moves in order, each with ``seq``, ``seat``, ``move``
    and ``events`` attributes (a ``MoveRecord``, or any object with them). ``new
    deal`` says the move dealt again. The state is changed in place by the next
    move: serialise it before asking for the next one if you keep it. Raises
    ``ReplayError("replay_failed")`` when the log does not replay under the
    current rules, or ends with another ``result`` than the one given.
    """
    game = get_game(game_id)
    try:
        state = game.new(players, dict(options), seed)
    except GameError as error:
        raise ReplayError("replay_failed", f"the game cannot be set up again: {error}") from None
    yield None, state, True
    for record in records:
        try:
            events = game.apply(state, record.seat, record.move)
        except GameError as error:
            raise ReplayError(
                "replay_failed", f"move {record.seq} (seat {record.seat}, {record.move}) is refused: {error}"
            ) from None
        if plain(list(events)) != record.events:
            raise ReplayError("replay_failed", f"move {record.seq} dealt other cards than were recorded")
        yield record, state, any("deal" in event for event in events)
    if result is not None:
        replayed = plain(recorded_result(game.result(state) or {}, left or []))
        if replayed != result:
            why = difference(replayed, result)
            raise ReplayError(
                "replay_failed", f"the replayed game ends with another result than was recorded: {why}"
            )


def difference(replayed: dict[str, Any], recorded: dict[str, Any]) -> str:
    """Which keys of a result differ between the replay and the record, each with both values."""
    keys = sorted(set(replayed) | set(recorded))
    return "; ".join(
        f"{key} {replayed.get(key, '(none)')} replayed, {recorded.get(key, '(none)')} recorded"
        for key in keys
        if replayed.get(key) != recorded.get(key)
    )


def walk(match: Match) -> Iterator[tuple[MoveRecord | None, Any, bool]]:
    """Replay a match from its log: ``replay_moves`` over its moves, checked against its result.

    Does not check that the game is finished: callers that show hidden cards
    must call ``require_finished``.
    """
    records = match.moves.order_by("seq")
    yield from replay_moves(
        match.game, match.players, match.options, match.seed, records, match.result, match.left
    )


def replay(match: Match) -> Iterator[tuple[int, Any]]:
    """Yield (table version, state) after the start and after each logged move (``walk``).

    The state yielded is changed in place by the next move: clone or serialise
    it before asking for the next one if you keep it.
    """
    for record, state, _new_deal in walk(match):
        yield (match.version if record is None else record.version), state
