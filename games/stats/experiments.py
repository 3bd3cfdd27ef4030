"""CardStock's three experiments on one game: all random players, one search player
among random ones (seat 0, as CardStock seats it), all search players.

Each game is recorded as a ``GameRecord``: the branching factor at every move,
the final ranks, the first player, and the search players' estimates.
"""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from games.engine import Game
from games.stats.players import Estimate, RandomPlayer, SearchPlayer

KINDS = ("random", "one_search", "all_search")


@dataclass
class GameRecord:
    """One played game: legal moves at each move, each seat's final rank, the first
    seat to act alone, and the search players' estimates in the order made."""

    choices: list[int]
    ranks: list[int]
    first: int
    estimates: list[Estimate] = field(default_factory=list)


def first_player(game: Game, state: Any) -> int | None:
    """Return the seat to act alone now, ``None`` while several seats act at once."""
    seats = game.to_act(state)
    return seats[0] if len(seats) == 1 else None


def play(
    game: Game, players: int | None, options: dict | None, seed: int, kind: str, playouts: int
) -> GameRecord:
    """Play one game of experiment ``kind`` from ``seed``; return its record."""
    state = game.new(players, options, seed)
    count = state.players
    rng = random.Random(seed * 7919 + KINDS.index(kind))
    estimates: list[Estimate] = []
    searchers = {"random": 0, "one_search": 1, "all_search": count}[kind]
    seats = [
        SearchPlayer(game, playouts, rng, estimates) if seat < searchers else RandomPlayer(game, rng)
        for seat in range(count)
    ]
    choices: list[int] = []
    first = None
    while not game.is_over(state):
        if first is None:
            first = first_player(game, state)
        seat = game.to_act(state)[0]
        choices.append(len(game.legal_moves(state, seat)))
        game.advance(state, seat, seats[seat].choose(state, seat))
    ranks = game.info.ranks(game.result(state)["scores"])
    return GameRecord(choices, ranks, first if first is not None else 0, estimates)


def run(
    game: Game, players: int | None, options: dict | None, counts: dict[str, int], playouts: int, seed: int
) -> dict[str, list[GameRecord]]:
    """Run each experiment ``counts[kind]`` times from seeds ``seed, seed+1, ...``."""
    return {
        kind: [play(game, players, options, seed + i, kind, playouts) for i in range(counts[kind])]
        for kind in KINDS
    }
