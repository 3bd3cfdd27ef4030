"""The statistics of a game from its experiments' records, as plain JSON."""

from __future__ import annotations

from typing import Any

from games.stats import heuristics as h
from games.stats.experiments import GameRecord

NAMES = ("fairness", "convergence", "spread", "drama", "security", "order")


def winner_history(record: GameRecord) -> list[float]:
    """Return the winner's rank estimates over a game, from every search player's choices.

    The winner is the seat ranked first; of seats sharing first place, the
    highest-numbered (CardStock's analysis sorts them by rank, then seat).
    """
    winner = max(seat for seat, rank in enumerate(record.ranks) if rank == 0)
    return [estimate.lead[winner] for estimate in record.estimates]


def lead_history(record: GameRecord) -> list[dict[str, Any]]:
    """Return one game's lead history: at each search choice, who chose and every seat's estimate."""
    return [{"seat": e.seat, "lead": [round(v, 4) for v in e.lead]} for e in record.estimates]


def heuristics(records: dict[str, list[GameRecord]], players: int) -> dict[str, float | None]:
    """Return the six heuristics; one whose experiment has no game is ``None``."""
    rnd, one, every = records["random"], records["one_search"], records["all_search"]
    out: dict[str, float | None] = dict.fromkeys(NAMES)
    if rnd:
        first_wins = sum(1 for r in rnd if r.ranks[r.first] == 0)
        out["fairness"] = h.fairness(first_wins, len(rnd), players)
        out["convergence"] = h.convergence([r.choices for r in rnd])
    if one:
        out["order"] = h.order(sum(1 for r in one if r.ranks[0] == 0), len(one), players)
        out["spread"] = h.spread([e.spread for r in one for e in r.estimates if e.seat == 0])
    if every:
        out["drama"], out["security"] = h.drama_and_security([winner_history(r) for r in every], players)
    return out


def summary(records: dict[str, list[GameRecord]], players: int) -> dict[str, Any]:
    """Return the heuristics, each experiment's figures, and one all-search game's lead history."""
    experiments = {}
    for kind, games in records.items():
        experiments[kind] = {
            "games": len(games),
            "moves_per_game": round(sum(len(r.choices) for r in games) / len(games), 2) if games else None,
            "seat0_win_rate": round(sum(1 for r in games if r.ranks[0] == 0) / len(games), 4)
            if games
            else None,
        }
    every = records["all_search"]
    return {
        "players": players,
        "heuristics": {
            k: (None if v is None else round(v, 4)) for k, v in heuristics(records, players).items()
        },
        "experiments": experiments,
        "lead_history": lead_history(every[0]) if every else [],
    }
