"""CardStock's design heuristics, computed from recorded games (pure functions).

Each function follows what CardStock computed for its published figures
(docs/dashboard.md, "Design statistics", cites where each comes from). Every
value is clamped to the 0-1 scale the blog states. Inputs are plain lists, so
the tests can hand-compute every figure; ``mean_and_error`` and
``ratio_and_error`` give each value's standard error.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from games.engine import ranks_of as ranks_of  # the order of scores is the games' own, stated in the engine


def clamp(value: float, low: float = 0.0, high: float = 1.0) -> float:
    """Return ``value`` moved into ``[low, high]``."""
    return min(max(value, low), high)


def rank_estimate(mean_rank: float, players: int) -> float:
    """Return a mean rank scaled to 0-1: 1 is first place, 0 last (``(n-1-rank)/(n-1)``)."""
    return (players - 1 - mean_rank) / (players - 1)


def as_written(value: float) -> float:
    """Return ``value`` as CardStock's lead file holds it, the form its notebook compared.

    The file was written with .NET Framework's ``Double.ToString()``, which keeps
    15 significant digits: ``2.5/3`` (a four-player winner's estimate after 5 wins
    in 10 playouts, ``0.8333333333333334``) is read back as ``0.833333333333333``,
    just below the drama threshold ``0.8333333333333333``.
    """
    return float(f"{value:.15g}")


def first_place_credit(ranks: Sequence[int], seat: int) -> float:
    """Return ``seat``'s share of the win: ``1/k`` when it is one of ``k`` seats sharing first
    place, else 0 (CardStock's ``ParseEngine`` ``playerFirst``)."""
    if ranks[seat] != 0:
        return 0.0
    return 1 / sum(1 for rank in ranks if rank == 0)


def one_loser(ranks: Sequence[int]) -> bool:
    """Return whether exactly one seat is out of first place: the game names a loser, not a winner."""
    return sum(1 for rank in ranks if rank != 0) == 1


def fairness(rate: float, players: int) -> float:
    """Return fairness from the first player's rate of winning (or, in a game that names a
    loser, of losing) over all-random games.

    With rate ``wp`` and ``n`` players: ``wp*n`` when ``wp <= 1/n``, else
    ``(-n/(n-1))*wp + n/(n-1)``: 1 at exactly the fair share ``1/n``, 0 at 0 or 1.
    """
    n = players
    if rate <= 1 / n:
        return clamp(rate * n)
    return clamp((-n / (n - 1)) * rate + n / (n - 1))


def fairness_slope(rate: float, players: int) -> float:
    """Return how steeply fairness moves with the rate at ``rate`` (to carry its standard error)."""
    return players if rate <= 1 / players else players / (players - 1)


def slope(xs: Sequence[float], ys: Sequence[float]) -> float:
    """Return the least-squares slope of ``ys`` against ``xs`` (0 when ``xs`` do not vary)."""
    count = len(xs)
    mean_x = sum(xs) / count
    mean_y = sum(ys) / count
    sxx = sum((x - mean_x) ** 2 for x in xs)
    if sxx == 0:
        return 0.0
    return sum((x - mean_x) * (y - mean_y) for x, y in zip(xs, ys, strict=True)) / sxx


def game_convergence(choices: Sequence[int]) -> float | None:
    """Return one game's convergence ``1 - (slope/2 + 0.5)``, ``slope`` that of the branching
    factor (legal moves at each move, every seat's in order) against the move number;
    ``None`` for a game of fewer than two moves."""
    if len(choices) < 2:
        return None
    return 1 - (slope(range(len(choices)), choices) / 2 + 0.5)


def order(rate: float, players: int) -> float:
    """Return order ``(aiwp - ewp) / (1 - ewp)``: the search player's win rate ``aiwp`` among
    random players over the fair share ``ewp = 1/n``, clamped to 0-1 (below a fair share is 0)."""
    ewp = 1 / players
    return clamp((rate - ewp) / (1 - ewp))


def drama_threshold(players: int) -> float:
    """Return the rank estimate below which a seat is not in the lead: midway between
    first place (1) and second (``(n-2)/(n-1)``)."""
    return (1 + (players - 2) / (players - 1)) / 2


def winner_of(leads: Sequence[Sequence[float]]) -> int | None:
    """Return the seat whose rank estimate is highest in a game's last lead view, the lowest
    seat among equals (CardStock's notebook keeps the first strictly highest); ``None`` for an
    empty history."""
    if not leads:
        return None
    last = leads[-1]
    return max(range(len(last)), key=lambda seat: (last[seat], -seat))


def game_drama_security(history: Sequence[float], players: int) -> tuple[float, float]:
    """Return one game's (drama, security) from its winner's rank estimates.

    With threshold ``d`` and the estimates below it ``s_1..s_k`` out of ``m``:
    drama is the mean of ``sqrt(d - s_i)`` (0 when ``k`` is 0), security ``1 - k/m``.
    """
    threshold = drama_threshold(players)
    below = [threshold - value for value in history if value < threshold]
    drama = sum(math.sqrt(gap) for gap in below) / len(below) if below else 0.0
    return drama, 1 - len(below) / len(history)


def mean_and_error(values: Sequence[float]) -> tuple[float, float]:
    """Return the mean and its standard error ``s/sqrt(n)`` (0 for fewer than two values)."""
    count = len(values)
    mean = sum(values) / count
    if count < 2:
        return mean, 0.0
    variance = sum((v - mean) ** 2 for v in values) / (count - 1)
    return mean, math.sqrt(variance / count)


def ratio_and_error(sums: Sequence[float], counts: Sequence[int]) -> tuple[float, float]:
    """Return ``sum(sums)/sum(counts)`` and its standard error with games as the units.

    Choices within one game are not independent, so the error is that of a
    ratio of per-game totals: ``sqrt(g/(g-1) * sum((s_i - r*c_i)^2)) / sum(c)``.
    """
    total = sum(counts)
    ratio = sum(sums) / total
    games = len(counts)
    if games < 2:
        return ratio, 0.0
    residual = sum((s - ratio * c) ** 2 for s, c in zip(sums, counts, strict=True))
    return ratio, math.sqrt(games / (games - 1) * residual) / total
