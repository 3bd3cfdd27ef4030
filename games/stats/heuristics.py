"""CardStock's design heuristics, computed from recorded games (pure functions).

Each function follows the definition CardStock published (docs/dashboard.md,
"Design statistics", cites where each comes from). Every value is on a 0-1
scale. Inputs are plain lists, so the tests can hand-compute every figure.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from games.engine import ranks_of as ranks_of  # the order of scores is the games' own, stated in the engine


def rank_estimate(mean_rank: float, players: int) -> float:
    """Return a mean rank scaled to 0-1: 1 is first place, 0 last (``(n-1-rank)/(n-1)``)."""
    return (players - 1 - mean_rank) / (players - 1)


def fairness(first_wins: float, games: int, players: int) -> float:
    """Return fairness from the first player's wins over ``games`` all-random games.

    With win rate ``wp`` and ``n`` players: ``wp*n`` when ``wp <= 1/n``, else
    ``(-n/(n-1))*wp + n/(n-1)``: 1 when the first player wins exactly its share,
    0 when it never wins or always wins.
    """
    wp = first_wins / games
    n = players
    if wp <= 1 / n:
        return wp * n
    return (-n / (n - 1)) * wp + n / (n - 1)


def slope(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Return the least-squares slope of ``ys`` against ``xs`` (0 when ``xs`` do not vary)."""
    count = len(xs)
    mean_x = sum(xs) / count
    mean_y = sum(ys) / count
    sxx = sum((x - mean_x) ** 2 for x in xs)
    if sxx == 0:
        return 0.0
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / sxx


def convergence(choices_per_game: Sequence[Sequence[int]]) -> float:
    """Return convergence: the mean over games of ``1 - (slope/2 + 0.5)``.

    ``slope`` is the regression slope of the branching factor (legal moves at
    each move, every seat's moves in order) against the move number; games of
    fewer than two moves are left out. A game whose choices shrink scores above
    0.5, one whose choices grow below.
    """
    values = [1 - (slope(range(len(game)), game) / 2 + 0.5) for game in choices_per_game if len(game) > 1]
    return sum(values) / len(values) if values else 0.0


def order(search_wins: float, games: int, players: int) -> float:
    """Return order: ``(aiwp - ewp) / (1 - ewp)``, the search player's win rate ``aiwp``
    among random players over the fair share ``ewp = 1/n``."""
    ewp = 1 / players
    return (search_wins / games - ewp) / (1 - ewp)


def drama_threshold(players: int) -> float:
    """Return the rank estimate below which a seat is not in the lead: midway between
    first place (1) and second (``(n-2)/(n-1)``)."""
    return (1 + (players - 2) / (players - 1)) / 2


def drama_and_security(winner_histories: Sequence[Sequence[float]], players: int) -> tuple[float, float]:
    """Return (drama, security) from each game's winner's lead history.

    For one game, with threshold ``d`` and the winner's rank estimates below
    it ``s_1..s_k`` out of ``m``: drama is the mean of ``sqrt(d - s_i)`` (0 when
    ``k`` is 0) and security ``1 - k/m``. Both are averaged over the games; a
    game with no recorded estimate for its winner is left out.
    """
    threshold = drama_threshold(players)
    dramas: list[float] = []
    securities: list[float] = []
    for history in winner_histories:
        if not history:
            continue
        below = [threshold - value for value in history if value < threshold]
        dramas.append(sum(math.sqrt(gap) for gap in below) / len(below) if below else 0.0)
        securities.append(1 - len(below) / len(history))
    if not dramas:
        return 0.0, 0.0
    return sum(dramas) / len(dramas), sum(securities) / len(securities)


def spread(spreads: Sequence[float]) -> float:
    """Return spread: the mean over the search player's choices of the gap between
    its best and worst move's rank estimate."""
    return sum(spreads) / len(spreads) if spreads else 0.0
