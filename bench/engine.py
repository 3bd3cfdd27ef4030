"""Random-play speed of every game in ``games.GAMES``, and Hearts against OpenSpiel.

Run ``python bench/engine.py`` (about 20 seconds of CPU) or ``--quick`` (about 6);
``--only hearts`` measures one game.
For each registered game it drives ``new``/``to_act``/``legal_moves`` and a move
chooser from Python with a seeded RNG, one core, and prints games, deals and
moves per second, once through the checked ``apply`` and once through the
unchecked ``advance``. For Hearts it also plays OpenSpiel's ``hearts`` (pyspiel,
random actions and random chance outcomes, driven from Python) in the same run
and prints ours/OpenSpiel in hands (deals) per second, with the standard pass and,
as a second pair, without it (``passing: none`` against ``pass_cards=false``):
our pass move lists every sorted triple (286 moves of fresh objects a seat) where
OpenSpiel passes one card an action.

Like with like: pyspiel's ``apply_action`` does not check that an action is
legal (only OpenSpiel's hearts checks the card is held), so the ``advance`` ratio
is the comparable one; the checked ratio is printed beside it. Each figure is
the best of several interleaved rounds, timed in this process's CPU time, so
other processes on a shared machine slow neither side's clock (they still
share its caches).
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
NO_PASS = {"passing": "none"}


def run_ours(game: Game, seconds: float, checked: bool, seed: int, options: dict | None = None) -> Rates:
    """Play random games of ``game`` for about ``seconds`` of CPU; return per-second rates."""
    rng = random.Random(seed)
    step: Callable[[Any, int, dict], Any] = game.apply if checked else game.advance
    games = deals = moves = 0
    started = time.process_time()
    while True:
        state = game.new(None, options, seed + games)
        deals += 1
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            legal = game.legal_moves(state, seat)
            deals += len(step(state, seat, legal[int(rng.random() * len(legal))]))
            moves += 1
        games += 1
        elapsed = time.process_time() - started
        if elapsed >= seconds:
            return {"games": games / elapsed, "deals": deals / elapsed, "moves": moves / elapsed}


def run_openspiel(seconds: float, seed: int, pass_cards: bool = True) -> Rates:
    """Play random hands of OpenSpiel's ``hearts`` for about ``seconds`` of CPU; return rates."""
    import pyspiel

    game = pyspiel.load_game("hearts", {"pass_cards": pass_cards})
    rng = random.Random(seed)
    hands = moves = 0
    started = time.process_time()
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
        elapsed = time.process_time() - started
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
    parser.add_argument("--quick", action="store_true", help="shorter rounds (about 6 seconds)")
    parser.add_argument("--only", help="comma-separated game ids (default: every registered game)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    per_round = 0.2 if args.quick else 0.5
    rounds = 2 if args.quick else 3
    chosen = args.only.split(",") if args.only else list(GAMES)
    unknown = [g for g in chosen if g not in GAMES]
    if unknown:
        parser.error(f"no game {', '.join(unknown)} (known: {', '.join(GAMES)})")
    print(
        f"Python {sys.version.split()[0]}; per figure the best of {rounds} rounds "
        f"of {per_round}s CPU time, one core"
    )
    figures: dict[str, dict[str, Rates]] = {}
    for game_id in chosen:
        game = GAMES[game_id]
        runs: dict[str, Callable[[int], Rates]] = {
            "apply (checked)": lambda seed, g=game: run_ours(g, per_round, True, seed),
            "advance (unchecked)": lambda seed, g=game: run_ours(g, per_round, False, seed),
        }
        if game_id == "hearts":
            runs["OpenSpiel hearts"] = lambda seed: run_openspiel(per_round, seed)
            # The same pair without the pass, where a move list is 286 triples in ours.
            runs["advance, no pass"] = lambda seed, g=game: run_ours(g, per_round, False, seed, NO_PASS)
            runs["OpenSpiel, no pass"] = lambda seed: run_openspiel(per_round, seed, pass_cards=False)
        samples: dict[str, list[Rates]] = {label: [] for label in runs}
        for r in range(rounds):
            for label, run in runs.items():
                samples[label].append(run(args.seed + 1000 * r))
        figures[game_id] = {label: best(s) for label, s in samples.items()}
        print(f"{game_id}:")
        for label, rates in figures[game_id].items():
            print(line(label, rates))
    hearts = figures.get("hearts")
    if hearts:
        print("hearts ours/OpenSpiel in hands (deals) per second:")
        for ours, theirs, note in (
            ("advance (unchecked)", "OpenSpiel hearts", "like with like: neither checks legality"),
            ("apply (checked)", "OpenSpiel hearts", "ours checks every move"),
            ("advance, no pass", "OpenSpiel, no pass", "passing none / pass_cards=false"),
        ):
            ratio = hearts[ours]["deals"] / hearts[theirs]["deals"]
            print(f"  {ours:<22} {ratio:.2f}x   ({note})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
