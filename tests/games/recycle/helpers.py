"""Shared helpers of the RECYCLE tests: the seeds beside the repository, random play, bots' play.

CardStock's seed posts are the team's, in ``../shared/seeds/`` beside the clone, not
the project's: a test that reads one is skipped with the reason where they are
missing (a clone on its own), and fails instead in CI (tests/required.py). The
project's own descriptions (``games/recycle/library/``) need nothing outside.
"""

from __future__ import annotations

import random
from pathlib import Path
from typing import Any

from games.bots import make_bot
from games.engine import Game
from tests.required import missing

REPO = Path(__file__).resolve().parents[3]
SEEDS = REPO.parent / "shared" / "seeds"
SEED_POSTS = {
    "stealing_bundles": "000_b4a7eb50673c41af.txt",
    "ninety_eight": "001_bea2c342c69aab46.txt",
    "hearts": "003_978b7685d0e768bc.txt",
    "agram": "004_5fc1a0b1c2168c93.txt",
}


def seed_post(game: str) -> Path:
    """Return the path of a game's CardStock post in ``../shared/seeds/``.

    Call it inside a test, never at import: where the post is missing it skips the
    test (fails it in CI), and a module-level skip would take the module's other tests with it.
    """
    path = SEEDS / SEED_POSTS[game]
    if not path.is_file():
        missing(
            f"the seed {path} is missing: tests of CardStock's posts read ../shared/seeds/ beside the clone"
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


def play_levels(game: Game, levels: list[str], seed: int) -> list[float]:
    """Play a whole game with a bot of each level (through ``apply``, so every move is checked,
    as the site plays); return the scores."""
    state = game.new(None, None, seed)
    bots = [make_bot(level, game, seed * 31 + seat) for seat, level in enumerate(levels)]
    while not game.is_over(state):
        (seat,) = game.to_act(state)
        game.apply(state, seat, bots[seat].choose(state, seat))
    return list(game.result(state)["scores"])
