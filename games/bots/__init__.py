"""Bot players over the game contract: ``random``, ``easy``, ``normal``, ``hard``.

A bot never re-implements a rule: it asks the game for ``legal_moves``, plays
``clone``d or ``determinize``d states forward, and reads ``view`` like a person.
"""

from __future__ import annotations

import random
from typing import Any, Protocol

from games.bots.settings import LEVELS
from games.engine import Game, GameError, Move


class Bot(Protocol):
    """A player: given the full state and its seat, choose a legal move."""

    def choose(self, state: Any, seat: int) -> Move:
        """Return one of ``game.legal_moves(state, seat)``."""
        ...


class RandomBot:
    """Plays uniformly among the legal moves, from its own seeded RNG."""

    def __init__(self, game: Game, seed: int = 0) -> None:
        self.game = game
        self.rng = random.Random(seed)

    def choose(self, state: Any, seat: int) -> Move:
        """Return a uniformly random legal move."""
        return self.game.random_move(state, seat, self.rng)


def make_bot(
    level: str,
    game: Game,
    seed: int = 0,
    *,
    max_seconds: float | None = None,
    playout_scale: float = 1.0,
) -> Bot:
    """Return a bot of ``level`` for ``game``; raise ``GameError`` for an unknown level.

    ``max_seconds`` (the wall-clock cap of a move) and ``playout_scale`` (a factor on
    the playout budget) tune the search levels, ``normal`` and ``hard``; the other
    levels ignore them.
    """
    if level == "random":
        return RandomBot(game, seed)
    if level in LEVELS:
        from games.bots import levels  # here: levels imports the search, which needs this package

        return levels.make(level, game, seed, max_seconds=max_seconds, playout_scale=playout_scale)
    raise GameError(f"there is no bot level {level!r} (known: {', '.join(LEVELS)})")
