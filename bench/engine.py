"""Random-play speed of every game in ``games.GAMES``, and Hearts against OpenSpiel.

Run ``python bench/engine.py`` (about 40 seconds) or ``--quick`` (about 10).
For each registered game it drives ``new``/``to_act``/``legal_moves`` and a move
chooser from Python with a seeded RNG, one core, and prints games, deals and
moves per second, once through the checked ``apply`` and once through the
unchecked ``advance``. For Hearts it also plays OpenSpiel's ``hearts`` (pyspiel,
random actions and random chance outcomes, driven from Python) in the same run
and prints ours/OpenSpiel in hands (deals) per second.

Like with like: pyspiel's ``apply_action`` does not check that an action is
legal (only OpenSpiel's hearts checks the card is held), so the ``advance`` ratio
is the comparable one; the checked ratio is printed beside it. Each figure is
the best of several interleaved rounds, so load from other processes on the
machine skews ours and OpenSpiel's alike.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import GAMES
from games.engine import Game

Rates = dict[str, float]


def run_ours(game: Game, seconds: float, checked: bool, seed: int) -> Rates:
    """Play random games of ``game`` for about ``seconds``; return per-second rates."""
    rng = random.Random(seed)
    step: Callable[[Any, int, dict], Any] = game.apply if checked else game.advance
    games = deals = moves = 0
    started = time.perf_counter()
    while True:
        state = game.new(None, None, seed + games)
        deals += 1
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            legal = game.legal_moves(state, seat)
            deals += len(step(state, seat, legal[int(rng.random() * len(legal))]))
            moves += 1
        games += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return {"games": games / elapsed, "deals": deals / elapsed, "moves": moves / elapsed}


def run_openspiel(seconds: float, seed: int) -> Rates:
    """Play random hands of OpenSpiel's ``hearts`` for about ``seconds``; return rates."""
    import pyspiel

    game = pyspiel.load_game("hearts")
    rng = random.Random(seed)
    hands = moves = 0
    started = time.perf_counter()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            else:
                legal = state.legal_actions()
                state.apply_action(legal[int(rng.random() * len(legal))])
            moves += 1
        hands += 1
        elapsed = time.perf_counter() - started
        if elapsed >= seconds:
            return {"games": hands / elapsed, "deals": hands / elapsed, "moves": moves / elapsed}


def best(samples: list[Rates]) -> Rates:
    """Return the round with the most deals per second (the least disturbed)."""
    return max(samples, key=lambda rates: rates["deals"])


def line(label: str, rates: Rates) -> str:
    """Format one measured figure."""
    return (
        f"  {label:<22} {rates['games']:>9.1f} games/s {rates['deals']:>9.1f} deals/s "
        f"{rates['moves']:>11.0f} moves/s"
    )


def main(argv: list[str] | None = None) -> int:
    """Measure and print every game's figures, then the Hearts ratio."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter rounds (about 10 seconds)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    per_round = 0.4 if args.quick else 1.5
    rounds = 2 if args.quick else 3
    print(f"Python {sys.version.split()[0]}, {rounds} rounds of {per_round}s per figure, best round shown")
    figures: dict[str, dict[str, Rates]] = {}
    for game_id, game in GAMES.items():
        samples: dict[str, list[Rates]] = {"apply (checked)": [], "advance (unchecked)": []}
        if game_id == "hearts":
            samples["OpenSpiel hearts"] = []
        for r in range(rounds):
            seed = args.seed + 1000 * r
            samples["apply (checked)"].append(run_ours(game, per_round, True, seed))
            samples["advance (unchecked)"].append(run_ours(game, per_round, False, seed))
            if "OpenSpiel hearts" in samples:
                samples["OpenSpiel hearts"].append(run_openspiel(per_round, seed))
        figures[game_id] = {label: best(s) for label, s in samples.items()}
        print(f"{game_id}:")
        for label, rates in figures[game_id].items():
            print(line(label, rates))
    hearts = figures.get("hearts")
    if hearts:
        spiel = hearts["OpenSpiel hearts"]["deals"]
        checked = hearts["apply (checked)"]["deals"] / spiel
        unchecked = hearts["advance (unchecked)"]["deals"] / spiel
        print(f"hearts ours/OpenSpiel, hands per second: advance {unchecked:.2f}x (like with like)")
        print(f"hearts ours/OpenSpiel, hands per second: checked apply {checked:.2f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
