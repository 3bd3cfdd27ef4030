"""CardStock's design statistics for any game behind the contract (docs/dashboard.md).

``measure(game, players, options, counts, playouts, seed)`` runs the three
experiments (``experiments.py``: all random, one search player, all search) and
returns the heuristics (``heuristics.py``: fairness, convergence, spread,
drama, security, order) with the figures they come from (``report.py``).
"""

from __future__ import annotations

from typing import Any

from games.engine import Game
from games.stats.experiments import KINDS, run
from games.stats.report import NAMES, summary

DEFAULT_COUNTS = {"random": 100, "one_search": 30, "all_search": 10}
DEFAULT_PLAYOUTS = 20


def measure(
    game: Game,
    players: int | None = None,
    options: dict | None = None,
    counts: dict[str, int] | None = None,
    playouts: int = DEFAULT_PLAYOUTS,
    seed: int = 0,
) -> dict[str, Any]:
    """Run the experiments and return the statistics as plain JSON (see ``report.summary``)."""
    counts = {**DEFAULT_COUNTS, **(counts or {})}
    count = game.new(players, options, seed).players
    result = summary(run(game, players, options, counts, playouts, seed), count)
    result.update({"game": game.info.id, "options": options or {}, "playouts": playouts, "seed": seed})
    return result


__all__ = ["DEFAULT_COUNTS", "DEFAULT_PLAYOUTS", "KINDS", "NAMES", "measure"]
