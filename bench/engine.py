"""Random-play speed of every game in ``games.GAMES``, Hearts against OpenSpiel, RECYCLE Agram.

Run ``python bench/engine.py`` (about 30 seconds of CPU) or ``--quick`` (about 8);
``--only hearts`` measures one game.
Each game is played from Python with a seeded RNG, one core, by three methods:

- ``random_move + advance``: the search bots' playout loop. ``random_move``
  draws a uniformly random legal move (Hearts' pass and Cribbage's discard
  without listing every move; tests/games/test_random_move.py checks the law)
  and the unchecked ``advance`` makes it. The headline figure.
- ``random_move + apply``: the same draw, made through the checked ``apply``.
- ``legal_moves + apply``: the whole move list, a uniform pick from it, the
  checked ``apply``: what a player at a table costs (Hearts' pass lists 286).

For Hearts it also plays OpenSpiel's ``hearts`` (pyspiel, 4 players, one hand a
game) in the same run, driven the usual way: ``legal_actions``, a uniform pick,
``apply_action``; at chance nodes (the pass direction, the 52 cards dealt) an
outcome of ``chance_outcomes`` drawn by its probability. Its parameters are set
to our rules and printed; its pass direction is drawn per hand (none, left,
across, right) where ours rotates left, right, across, none: the same share of
hands without a pass. It prints ours/OpenSpiel in hands (deals) per second,
with the pass and, as a second pair, without it (``passing: none`` against
``pass_cards=false``).

It also plays the project's RECYCLE description of Agram
(``games/recycle/library/agram.rcy``, run by the interpreter in ``games/recycle``)
against the hand-written ``agram`` module, both by ``random_move + advance`` with
4 players and one deal a game (the same rules), and prints RECYCLE/hand-written
in games per second (``--only recycle`` measures this pair alone).

Each figure is the best of several interleaved rounds, timed in this process's
CPU time, so other processes on a shared machine slow neither side's clock
(they still share its caches).
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
# OpenSpiel's hearts set to our default rules (RULES.md, docs/rules.md "Hearts"):
# the 2 of clubs leads, no points on the first trick, hearts may not be led until
# broken, and only a heart breaks them (OpenSpiel's default lets the queen of spades).
OPENSPIEL_HEARTS = {
    "pass_cards": True,
    "can_lead_any_club": False,
    "no_pts_on_first_trick": True,
    "must_break_hearts": True,
    "qs_breaks_hearts": False,
    "can_lead_hearts_instead_of_qs": False,
    "jd_bonus": False,
    "avoid_all_tricks_bonus": False,
}
METHODS = ("random_move + advance", "random_move + apply", "legal_moves + apply")


def run_ours(game: Game, seconds: float, method: str, seed: int, options: dict | None = None) -> Rates:
    """Play random games of ``game`` by ``method`` for about ``seconds`` of CPU; return rates."""
    rng = random.Random(seed)
    random_move = game.random_move
    step: Callable[[Any, int, dict], Any] = game.advance if method == "random_move + advance" else game.apply
    listed = method == "legal_moves + apply"
    games = deals = moves = 0
    started = time.process_time()
    while True:
        state = game.new(None, options, seed + games)
        deals += 1
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            if listed:
                legal = game.legal_moves(state, seat)
                move = legal[int(rng.random() * len(legal))]
            else:
                move = random_move(state, seat, rng)
            deals += len(step(state, seat, move))
            moves += 1
        games += 1
        elapsed = time.process_time() - started
        if elapsed >= seconds:
            return {"games": games / elapsed, "deals": deals / elapsed, "moves": moves / elapsed}


def openspiel_game(pass_cards: bool) -> Any:
    """Load OpenSpiel's ``hearts`` with our rules' parameters."""
    import pyspiel

    return pyspiel.load_game("hearts", {**OPENSPIEL_HEARTS, "pass_cards": pass_cards})


def run_openspiel(seconds: float, seed: int, pass_cards: bool = True) -> Rates:
    """Play random hands of OpenSpiel's ``hearts`` for about ``seconds`` of CPU; return rates."""
    game = openspiel_game(pass_cards)
    rng = random.Random(seed)
    hands = moves = 0
    started = time.process_time()
    while True:
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                # Hearts' chance outcomes are equally likely (checked_uniform_chance).
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


def check_uniform_chance(pass_cards: bool, seed: int) -> int:
    """Play one OpenSpiel hand untimed; check every chance node's outcomes are equally likely.

    Returns the number of chance nodes seen, so drawing a chance outcome by a
    uniform index (as ``run_openspiel`` does) is drawing it by its probability.
    """
    state = openspiel_game(pass_cards).new_initial_state()
    rng = random.Random(seed)
    nodes = 0
    while not state.is_terminal():
        if state.is_chance_node():
            outcomes = state.chance_outcomes()
            share = 1 / len(outcomes)
            if any(abs(p - share) > 1e-9 for _, p in outcomes):
                raise SystemExit(f"OpenSpiel hearts has a chance node that is not uniform: {outcomes}")
            state.apply_action(outcomes[int(rng.random() * len(outcomes))][0])
            nodes += 1
        else:
            legal = state.legal_actions()
            state.apply_action(legal[int(rng.random() * len(legal))])
    return nodes


def best(samples: list[Rates]) -> Rates:
    """Return the round with the most deals per second (the least disturbed)."""
    return max(samples, key=lambda rates: rates["deals"])


def line(label: str, rates: Rates) -> str:
    """Format one measured figure."""
    return (
        f"  {label:<40} {rates['games']:>9.1f} games/s {rates['deals']:>9.1f} deals/s "
        f"{rates['moves']:>10.0f} moves/s"
    )


def recycle_agram(per_round: float, rounds: int, seed: int) -> float:
    """Time RECYCLE Agram against the hand-written module; print both and the ratio, return it."""
    from games.recycle import library, load

    runs = {
        "hand-written agram": GAMES["agram"],
        "RECYCLE agram (library/agram.rcy)": load(library()["agram"]),
    }
    samples: dict[str, list[Rates]] = {label: [] for label in runs}
    for r in range(rounds):
        for label, game in runs.items():
            samples[label].append(run_ours(game, per_round, METHODS[0], seed + 1000 * r))
    print("recycle (random_move + advance, 4 players, one deal):")
    rates = {label: best(s) for label, s in samples.items()}
    for label, figure in rates.items():
        print(line(label, figure))
    ratio = rates["RECYCLE agram (library/agram.rcy)"]["games"] / rates["hand-written agram"]["games"]
    print(f"  RECYCLE/hand-written agram games per second: {ratio:.3f}")
    return ratio


def main(argv: list[str] | None = None) -> int:
    """Measure and print every game's figures, then the Hearts ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="shorter rounds (about 8 seconds)")
    parser.add_argument("--only", help="comma-separated game ids (default: every registered game)")
    parser.add_argument("--rounds", type=int, help="rounds per figure (default 3, quick 2)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args(argv)
    per_round = 0.2 if args.quick else 0.5
    rounds = args.rounds or (2 if args.quick else 3)
    chosen = args.only.split(",") if args.only else [*GAMES, "recycle"]
    unknown = [g for g in chosen if g not in GAMES and g != "recycle"]
    if unknown:
        parser.error(f"no game {', '.join(unknown)} (known: {', '.join(GAMES)})")
    print(
        f"Python {sys.version.split()[0]}; per figure the best of {rounds} interleaved rounds "
        f"of {per_round}s process CPU time, one core; default options, default players"
    )
    figures: dict[str, dict[str, Rates]] = {}
    for game_id in [g for g in chosen if g in GAMES]:
        game = GAMES[game_id]
        runs: dict[str, Callable[[int], Rates]] = {
            method: lambda seed, g=game, m=method: run_ours(g, per_round, m, seed) for method in METHODS
        }
        if game_id == "hearts":
            runs["OpenSpiel: legal_actions + apply_action"] = lambda seed: run_openspiel(per_round, seed)
            # The same pair without the pass.
            runs["no pass: random_move + advance"] = lambda seed, g=game: run_ours(
                g, per_round, METHODS[0], seed, NO_PASS
            )
            runs["no pass: OpenSpiel"] = lambda seed: run_openspiel(per_round, seed, pass_cards=False)
            params = openspiel_game(True).get_parameters()
            print("OpenSpiel hearts parameters:", ", ".join(f"{k}={v}" for k, v in sorted(params.items())))
            nodes = check_uniform_chance(True, args.seed)
            print(f"OpenSpiel hearts: every chance node of a hand uniform ({nodes} nodes: direction, deal)")
        samples: dict[str, list[Rates]] = {label: [] for label in runs}
        for r in range(rounds):
            for label, run in runs.items():
                samples[label].append(run(args.seed + 1000 * r))
        figures[game_id] = {label: best(s) for label, s in samples.items()}
        print(f"{game_id}:")
        for label, rates in figures[game_id].items():
            print(line(label, rates))
    if "recycle" in chosen:
        recycle_agram(per_round, rounds, args.seed)
    hearts = figures.get("hearts")
    if hearts:
        print("hearts ours/OpenSpiel in hands (deals) per second:")
        for ours, theirs, note in (
            (
                METHODS[0],
                "OpenSpiel: legal_actions + apply_action",
                "the playout loop; neither checks legality",
            ),
            (METHODS[1], "OpenSpiel: legal_actions + apply_action", "ours checks every move"),
            (METHODS[2], "OpenSpiel: legal_actions + apply_action", "ours lists every move and checks it"),
            ("no pass: random_move + advance", "no pass: OpenSpiel", "passing none / pass_cards=false"),
        ):
            ratio = hearts[ours]["deals"] / hearts[theirs]["deals"]
            print(f"  {ours:<40} {ratio:.2f}x   ({note})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
