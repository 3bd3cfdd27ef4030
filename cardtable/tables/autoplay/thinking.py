"""A bot's search as the search pool's workers run it (``searches.py``): ``games`` only, no Django."""

from __future__ import annotations

import logging
import os
import random
from collections import OrderedDict
from typing import Any

from games import GAMES, get_game
from games.bots import make_bot
from games.engine import Game, GameError
from games.recycle import RecycleGame, loads

log = logging.getLogger(__name__)


# Games a worker compiled from their description (``recipe``), by id and text.
_COMPILED: OrderedDict[tuple[str, int], Game] = OrderedDict()
_COMPILED_SIZE = 32


def recipe(game_id: str) -> tuple[str, str, str] | None:
    """Return what a worker needs to build a game it cannot find by its id, or ``None``.

    A RECYCLE game staff added lives in the server's database, which a worker
    never reads: its description (text, name, id) goes with each search.
    """
    game = get_game(game_id)
    if game_id in GAMES or not isinstance(game, RecycleGame):
        return None
    return game.text, game.info.name, game_id


def _game(game_id: str, made: tuple[str, str, str] | None) -> Game:
    """The game by its id where this process knows it (the server's), else built from ``made``."""
    try:
        return get_game(game_id)
    except GameError:
        if made is None:
            raise
    key = (game_id, hash(made[0]))
    game = _COMPILED.get(key)
    if game is None:
        text, name, ident = made
        game = _COMPILED[key] = loads(text, name, ident, experimental=True)
        if len(_COMPILED) > _COMPILED_SIZE:
            _COMPILED.popitem(last=False)
    return game


def think(
    game_id: str,
    state_json: dict,
    seat: int,
    level: str,
    seed: int,
    budget: dict,
    made: tuple[str, str, str] | None = None,
) -> dict[str, Any]:
    """Compute a bot's move (in a worker process; tests call it in place).

    ``made`` is the game's ``recipe`` when a worker cannot find it by its id.
    A bot that fails must not stall its table: the failure is logged and the
    seat plays a random legal move instead.
    """
    game = _game(game_id, made)
    state = game.from_json(state_json)
    try:
        return make_bot(level, game, seed, **budget).choose(state, seat)
    except Exception:
        log.exception("%s bot failed in %s; playing a random move instead", level, game_id)
        return game.random_move(state, seat, random.Random(seed))


def ready() -> int:
    """Nothing: what each worker runs as the server starts it (``searches.warm``)."""
    return os.getpid()
