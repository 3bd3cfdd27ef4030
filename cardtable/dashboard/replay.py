"""The replay page's data: every state of a finished game, all hands face up.

The states come from the one checked replay routine (``cardtable.tables.replay``);
this module lays them out as frames and keeps the last few in a cache. A replay
shows all hands face up, so it exists only for a game that no longer runs
(``Match.finished`` set).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from cardtable.dashboard.stats import seen_scores
from cardtable.tables.models import Match
from cardtable.tables.replay import plain, require_finished, walk
from games import get_game
from games.recycle import RecycleGame

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
    described = isinstance(game, RecycleGame)
    frames: list[dict[str, Any]] = []
    deals: list[dict[str, int]] = []
    for record, state, new_deal in walk(match):
        view = plain(game.view(state, None))
        if described and None in view.get("scores", ()):
            # A score kept from the others in play (counted from cards in hand): a replay shows every hand.
            view["scores"] = seen_scores(game, state)
        # A new deal is a chance event; a RECYCLE game logs none, and its view's deal number says it.
        number = view.get("deal_number") if described else None
        grew = bool(frames) and number is not None and number != frames[-1]["view"].get("deal_number")
        if new_deal or grew:
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
                "view": view,
                "hands": [plain(game.view(state, seat).get("hand", [])) for seat in range(match.players)],
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
