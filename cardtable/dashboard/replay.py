"""Replays: every state of a finished game rebuilt from its seed and move log.

The game module does all the work: ``new`` from the recorded seed and options,
then ``apply`` for each logged move, checking that each move sets off the same
chance events (deals, start cards) as when it was played, and that the end
matches the recorded result. A replay shows all hands face up, so it exists only
for a game that no longer runs (``Match.finished`` set): while a game is played,
its replay would show the hidden cards to anyone, players included.
"""

from __future__ import annotations

import json
import threading
from collections import OrderedDict
from collections.abc import Iterator
from typing import Any

from cardtable.tables.models import Match, MoveRecord
from games import get_game
from games.engine import GameError


class ReplayError(Exception):
    """No replay: ``code`` is ``game_in_progress`` or ``replay_failed``; ``message`` says why."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def require_finished(match: Match) -> None:
    """Raise ``game_in_progress`` unless the game has ended (finished, or ended by staff)."""
    if match.finished is None:
        raise ReplayError(
            "game_in_progress",
            f"game {match.number} at table {match.table_id} is still being played; "
            "its replay opens when it ends",
        )


def _plain(value: Any) -> Any:
    """The value as it was stored: through JSON (tuples become lists)."""
    return json.loads(json.dumps(value))


def walk(match: Match) -> Iterator[tuple[MoveRecord | None, Any, bool]]:
    """Yield (record, state, new deal) at the start (record ``None``) and after each logged move.

    ``new deal`` says the move dealt again. The state is changed in place by the
    next move: serialise it before asking for the next one if you keep it. Raises
    ``ReplayError("replay_failed")`` when the log does not replay under the
    current rules. Does not check that the game is finished: callers that show
    hidden cards must call ``require_finished``.
    """
    game = get_game(match.game)
    try:
        state = game.new(match.players, dict(match.options), match.seed)
    except GameError as error:
        raise ReplayError("replay_failed", f"the game cannot be set up again: {error}") from None
    yield None, state, True
    for record in match.moves.order_by("seq"):
        try:
            events = game.apply(state, record.seat, record.move)
        except GameError as error:
            raise ReplayError(
                "replay_failed", f"move {record.seq} (seat {record.seat}, {record.move}) is refused: {error}"
            ) from None
        if _plain(list(events)) != record.events:
            raise ReplayError("replay_failed", f"move {record.seq} dealt other cards than were recorded")
        yield record, state, any("deal" in event for event in events)
    if match.result is not None and _plain(game.result(state)) != match.result:
        raise ReplayError("replay_failed", "the replayed game ends with another result than was recorded")


_CACHE: OrderedDict[tuple[int, str, int, int], dict[str, Any]] = OrderedDict()
_CACHE_SIZE = 16
_CACHE_LOCK = threading.Lock()  # requests are served from several threads


def replay_json(match: Match) -> dict[str, Any]:
    """Return a finished game's replay: its record and every state, all hands face up.

    Shape (docs/dashboard.md): ``{"table", "number", "game", "players", "options",
    "seed", "seats", "result", "ended", "started", "finished", "deals": [{"deal",
    "step"}], "frames": [{"step", "seq", "seat", "move", "by", "at", "deal",
    "to_act", "view", "hands"}]}``. ``view`` is the spectator's view and ``hands``
    every seat's hand, each from the game's own ``view``.
    """
    require_finished(match)
    key = (match.pk, match.table_id, match.number, match.moves.count())
    with _CACHE_LOCK:
        cached = _CACHE.get(key)
    if cached is not None:
        return cached
    game = get_game(match.game)
    frames: list[dict[str, Any]] = []
    deals: list[dict[str, int]] = []
    for record, state, new_deal in walk(match):
        if new_deal:
            deals.append({"deal": len(deals) + 1, "step": len(frames)})
        frames.append(
            {
                "step": len(frames),
                "seq": record.seq if record else 0,
                "seat": record.seat if record else None,
                "move": record.move if record else None,
                "by": record.by if record else None,
                "at": (record.at if record else match.started).isoformat(),
                "deal": len(deals),
                "to_act": list(game.to_act(state)),
                "view": _plain(game.view(state, None)),
                "hands": [_plain(game.view(state, seat).get("hand", [])) for seat in range(match.players)],
            }
        )
    data = {
        "table": match.table_id,
        "number": match.number,
        "game": match.game,
        "name": game.info.name,
        "players": match.players,
        "options": match.options,
        "seed": match.seed,
        "seats": match.seats,
        "result": match.result,
        "ended": match.result is None,
        "started": match.started.isoformat(),
        "finished": match.finished.isoformat() if match.finished else None,
        "deals": deals,
        "frames": frames,
    }
    with _CACHE_LOCK:
        _CACHE[key] = data
        if len(_CACHE) > _CACHE_SIZE:
            _CACHE.popitem(last=False)
    return data
