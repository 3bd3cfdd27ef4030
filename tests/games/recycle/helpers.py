"""Shared helpers of the RECYCLE tests: the seeds beside the repository, random play."""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from games.engine import Game

REPO = Path(__file__).resolve().parents[3]
SEEDS = REPO.parent / "shared" / "seeds"
SEED_POSTS = {
    "stealing_bundles": "000_b4a7eb50673c41af.txt",
    "ninety_eight": "001_bea2c342c69aab46.txt",
    "hearts": "003_978b7685d0e768bc.txt",
    "agram": "004_5fc1a0b1c2168c93.txt",
}


def seed_post(game: str) -> Path:
    """Return the path of a game's CardStock post in ``../shared/seeds/``; fail if it is missing."""
    path = SEEDS / SEED_POSTS[game]
    assert path.is_file(), (
        f"the seed {path} is missing: the RECYCLE tests read ../shared/seeds/ beside the clone"
    )
    return path


def play_random(game: Game, seed: int, players: int | None = None) -> tuple[Any, int]:
    """Play one game with uniformly random moves; return the final state and the moves made."""
    state = game.new(players, None, seed)
    rng = random.Random(seed)
    moves = 0
    while not game.is_over(state):
        (seat,) = game.to_act(state)
        game.apply(state, seat, game.random_move(state, seat, rng))
        moves += 1
    return state, moves
