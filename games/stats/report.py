"""The statistics of a game from its experiments' records, with their standard errors, as JSON.

Which experiment feeds which heuristic follows what CardStock computed for its
published table (docs/dashboard.md, "The six heuristics"): fairness from the
all-random games; convergence and order from the games of one search player;
spread from every searched choice of the one-search and all-search games;
drama and security from the all-search games.
"""

from __future__ import annotations

from typing import Any

from games.stats import heuristics as h
from games.stats.experiments import GameRecord

NAMES = ("fairness", "convergence", "spread", "drama", "security", "order")
BASES = ("auto", "win", "loss")


def fairness_basis(records: list[GameRecord], basis: str) -> str:
    """Return ``win`` or ``loss``: ``auto`` is ``loss`` when every game named one loser (all the
    other seats sharing first place, as in Ninety-Eight), as CardStock's Ninety-Eight post measures."""
    if basis != "auto":
        return basis
    return "loss" if records and all(h.one_loser(r.ranks) for r in records) else "win"


def first_player_rates(records: list[GameRecord], basis: str) -> list[float]:
    """Return, per game, the first player's share of the win (``win``) or 1 if it lost (``loss``)."""
    if basis == "loss":
        return [0.0 if r.ranks[r.first] == 0 else 1.0 for r in records]
    return [h.first_place_credit(r.ranks, r.first) for r in records]


def winner_history(record: GameRecord) -> list[float]:
    """Return the winner's rank estimates over a game, from every search player's choices.

    The winner is the seat with the highest estimate in the last lead view,
    the lowest seat of equals (``heuristics.winner_of``).
    """
    winner = h.winner_of([e.lead for e in record.estimates])
    return [] if winner is None else [e.lead[winner] for e in record.estimates]


def lead_history(record: GameRecord) -> list[dict[str, Any]]:
    """Return one game's lead history: at each search choice, who chose and every seat's estimate."""
    return [{"seat": e.seat, "lead": [round(v, 4) for v in e.lead]} for e in record.estimates]


Figures = dict[str, float | None]


def heuristics(
    records: dict[str, list[GameRecord]], players: int, basis: str = "auto"
) -> tuple[Figures, Figures, str]:
    """Return the six heuristics, their standard errors, and the fairness basis used.

    A heuristic whose experiment has no game (or no searched choice) is ``None``.
    """
    rnd, one, every = records["random"], records["one_search"], records["all_search"]
    values: Figures = dict.fromkeys(NAMES)
    errors: Figures = dict.fromkeys(NAMES)
    basis = fairness_basis(rnd, basis)
    if rnd:
        rate, error = h.mean_and_error(first_player_rates(rnd, basis))
        values["fairness"] = h.fairness(rate, players)
        errors["fairness"] = h.fairness_slope(rate, players) * error
    if one:
        rate, error = h.mean_and_error([1.0 if r.ranks[0] == 0 else 0.0 for r in one])
        values["order"] = h.order(rate, players)
        errors["order"] = error / (1 - 1 / players)
        per_game = [v for v in (h.game_convergence(r.choices) for r in one) if v is not None]
        if per_game:
            mean, errors["convergence"] = h.mean_and_error(per_game)
            values["convergence"] = h.clamp(mean)
    searched = [r for r in one + every if r.estimates]
    if searched:
        values["spread"], errors["spread"] = h.ratio_and_error(
            [sum(e.spread for e in r.estimates) for r in searched], [len(r.estimates) for r in searched]
        )
    games = [h.game_drama_security(history, players) for history in map(winner_history, every) if history]
    if games:
        values["drama"], errors["drama"] = h.mean_and_error([d for d, _ in games])
        values["security"], errors["security"] = h.mean_and_error([s for _, s in games])
    return values, errors, basis


def experiment_figures(games: list[GameRecord]) -> dict[str, Any]:
    """Return one experiment's size, moves per game, seat 0's win rate (rank 0) and convergence."""
    if not games:
        return {"games": 0, "moves_per_game": None, "seat0_win_rate": None, "convergence": None}
    per_game = [v for v in (h.game_convergence(r.choices) for r in games) if v is not None]
    return {
        "games": len(games),
        "moves_per_game": round(sum(len(r.choices) for r in games) / len(games), 2),
        "seat0_win_rate": round(sum(1 for r in games if r.ranks[0] == 0) / len(games), 4),
        "convergence": round(sum(per_game) / len(per_game), 4) if per_game else None,
    }


def rounded(figures: Figures) -> Figures:
    """Return the figures rounded to four places (``None`` kept)."""
    return {k: (None if v is None else round(v, 4)) for k, v in figures.items()}


def summary(records: dict[str, list[GameRecord]], players: int, basis: str = "auto") -> dict[str, Any]:
    """Return the heuristics and their standard errors, each experiment's figures, and one
    all-search game's lead history."""
    values, errors, used = heuristics(records, players, basis)
    every = records["all_search"]
    return {
        "players": players,
        "heuristics": rounded(values),
        "errors": rounded(errors),
        "fairness_basis": used,
        "experiments": {kind: experiment_figures(games) for kind, games in records.items()},
        "lead_history": lead_history(every[0]) if every else [],
    }
