"""The bot levels, and the shape of one game's bot settings (each game states its own in
``games/<game>/bots.py``)."""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from games.bots.search import Policy, Reward
from games.engine import Game, Move

Opening = Callable[[Game, Any, int, random.Random], Move | None]
# ``(game, state, seat, ruled_move) -> moves``: the few moves of a wide opening choice
# worth searching, the opening's own (ruled) move first.
Shortlist = Callable[[Game, Any, int, Move], list[Move]]

# The bot levels, weakest first: the one list. The server checks a level against it,
# GET /api/games/ serves it (``bot_levels``) and the page offers it; the dashboard
# orders its rows by it. Here, not in the package's __init__: ``levels`` needs it
# too, and the package imports ``levels``.
LEVELS = ("random", "easy", "normal", "hard")
# The levels that search over sampled deals, each with a budget in ``GameSettings.budgets``.
SEARCH_LEVELS = LEVELS[2:]


@dataclass
class GameSettings:
    """How the bots of one game play: the easy policy, the search's scoring, the budgets.

    ``easy`` is the rule-based player ``(game, state, seat, rng) -> move``;
    ``playout``, when set, is the policy the search plays out with instead (the
    easy player's moves computed faster from the game's internals, or a better player);
    ``opening``, when set, decides the wide phases before the search (or returns
    ``None`` to leave a position to it). ``budgets[level]`` is ``(playouts, seconds)``.
    At the levels in ``searched_openings`` the opening is searched instead of ruled:
    the search weighs the moves ``shortlist`` draws up around the opening's move,
    keeping that move unless another is clearly better.
    """

    easy: Policy
    reward: Reward
    stop_at_deal: bool = True
    policy_rate: float = 1.0
    tree_depth: int = 1
    exploration: float = 0.7
    budgets: dict[str, tuple[int, float]] = field(default_factory=dict)
    opening: Opening | None = None
    playout: Policy | None = None
    shortlist: Shortlist | None = None
    searched_openings: tuple[str, ...] = ()
