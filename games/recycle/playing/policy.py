"""The playout policy of bots in RECYCLE games: a uniformly random legal move.

A description comes with no hand-written player, so the ``easy`` level plays at
random and the search levels (``normal``, ``hard``) play random playouts over
``determinize``d deals.
"""

from __future__ import annotations

import random
from typing import Any

from games.engine import Game, Move


def choose(game: Game, state: Any, seat: int, rng: random.Random) -> Move:
    """Return a uniformly random legal move for ``seat``."""
    return game.random_move(state, seat, rng)
