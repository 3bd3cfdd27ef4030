"""A bot's search as the search pool's workers run it (``searches.py``): ``games`` only, no Django."""

from __future__ import annotations

import logging
import os
import random
from typing import Any

from games import get_game
from games.bots import make_bot

log = logging.getLogger(__name__)


def think(game_id: str, state_json: dict, seat: int, level: str, seed: int, budget: dict) -> dict[str, Any]:
    """Compute a bot's move (in a worker process; tests call it in place).

    A bot that fails must not stall its table: the failure is logged and the
    seat plays a random legal move instead.
    """
    game = get_game(game_id)
    state = game.from_json(state_json)
    try:
        return make_bot(level, game, seed, **budget).choose(state, seat)
    except Exception:
        log.exception("%s bot failed in %s; playing a random move instead", level, game_id)
        return game.random_move(state, seat, random.Random(seed))


def ready() -> int:
    """Nothing: what each worker runs as the server starts it (``searches.warm``)."""
    return os.getpid()
