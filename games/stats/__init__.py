"""CardStock's design statistics for any game behind the contract (docs/dashboard.md).

``measure(game, players, options, counts, playouts, seed)`` runs the three
experiments (``experiments.py``: all random, one search player, all search) and
returns the heuristics (``heuristics.py``: fairness, convergence, spread,
drama, security, order) with their standard errors and the figures they come
from (``report.py``). CardStock ran 100 games an experiment and 10 playouts a
move (``PIPMCPlayer.NUMTESTS``); ``PUBLISHED_COUNTS`` are those counts.
"""

from __future__ import annotations

from typing import Any

from games.engine import Game
from games.stats.experiments import KINDS, run
from games.stats.report import BASES, NAMES, summary

DEFAULT_COUNTS = {"random": 100, "one_search": 30, "all_search": 10}
PUBLISHED_COUNTS = {"random": 100, "one_search": 100, "all_search": 100}
DEFAULT_PLAYOUTS = 10


def measure(
    game: Game,
    players: int | None = None,
    options: dict | None = None,
    counts: dict[str, int] | None = None,
    playouts: int = DEFAULT_PLAYOUTS,
    seed: int = 0,
    fairness: str = "auto",
) -> dict[str, Any]:
    """Run the experiments and return the statistics as plain JSON (see ``report.summary``).

    ``fairness`` is ``auto``, ``win`` or ``loss`` (``report.fairness_basis``).
    """
    counts = {**DEFAULT_COUNTS, **(counts or {})}
    count = game.new(players, options, seed).players
    result = summary(run(game, players, options, counts, playouts, seed), count, fairness)
    result.update({"game": game.info.id, "options": options or {}, "playouts": playouts, "seed": seed})
    return result


__all__ = ["BASES", "DEFAULT_COUNTS", "DEFAULT_PLAYOUTS", "KINDS", "NAMES", "PUBLISHED_COUNTS", "measure"]
