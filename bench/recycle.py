"""The RECYCLE interpreter against the hand-written modules: Hearts and Agram, as ratios in one run.

Run ``python bench/recycle.py`` (about a minute of CPU) or ``--quick``.
For each pair it plays the same seeds in both: the project's description
(``games/recycle/library/hearts.rcy``, ``agram.rcy``) run by the interpreter, and
the hand-written module (``games.hearts``, ``games.agram``) under the preset
``cardstock`` that the descriptions follow (4 players; Hearts to 100 points,
Agram one deal). Three figures, each a ratio RECYCLE time / hand-written time:

- random play of whole games as the design statistics, the bots' searches and
  the reviews drive it: ``new``, then ``to_act``, ``legal_moves``, a uniform
  pick, ``advance`` (the move unchecked) and ``is_over`` until the end;
- the same games through the checked ``apply``, the way of a move at a table,
  a replay or a log (a RECYCLE game also keeps there what its table shows: the
  trick, the last trick, the deals' history);
- ``clone`` + ``determinize`` (the search bots' start of every playout), of
  every state met in the games above, from the seat to act.

Each side's time is the least of several interleaved rounds, timed in this
process's CPU time, so other processes on a shared machine slow neither side's
clock. The games' lengths differ (each side deals its own cards from a seed), so
per game the figure compares whole games, and per move it is printed too.
``--once hearts:RECYCLE`` (or ``agram:hand-written``...) plays one round of one
side untimed, to count its instructions under ``valgrind --tool=callgrind``,
which the machine's load does not change: it first plays as many games of other
seeds (so the round meets warm caches, the interpreter's point tables), then the
round inside ``functools.reduce``, so that ``--toggle-collect=functools_reduce``
counts the round alone (docs/performance.md, "The RECYCLE interpreter").
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import GAMES
from games.engine import Game
from games.recycle import library, load

PLAYERS = 4
PAIRS = {"hearts": 10, "agram": 300}  # game -> games per round (about 0.2 s of the interpreter's CPU each)


def sides(game_id: str) -> dict[str, tuple[Game, dict | None]]:
    """Return the two sides of a pair: each game and the options it is played with."""
    return {
        "hand-written": (GAMES[game_id], {"preset": "cardstock"}),
        "RECYCLE": (load(library()[game_id]), None),
    }


def play_games(game: Game, options: dict | None, seeds: range, checked: bool = False) -> int:
    """Play one random game per seed through the contract (``advance``, or ``apply`` when
    ``checked``); return the moves made."""
    step = game.apply if checked else game.advance
    moves = 0
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new(PLAYERS, options, seed)
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            legal = game.legal_moves(state, seat)
            step(state, seat, legal[int(rng.random() * len(legal))])
            moves += 1
    return moves


def play(game: Game, options: dict | None, seeds: range) -> tuple[float, float, int, list[tuple[Any, int]]]:
    """Play one random game per seed, by ``advance`` and by ``apply``; return the CPU seconds of
    each, the moves, and the states met."""
    states: list[tuple[Any, int]] = []
    started = time.process_time()
    moves = play_games(game, options, seeds)
    elapsed = time.process_time() - started
    started = time.process_time()
    play_games(game, options, seeds, checked=True)
    checked = time.process_time() - started
    # The states for the determinize figure, gathered untimed by replaying the same games.
    for seed in seeds:
        rng = random.Random(seed)
        state = game.new(PLAYERS, options, seed)
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            states.append((game.clone(state), seat))
            legal = game.legal_moves(state, seat)
            game.apply(state, seat, legal[int(rng.random() * len(legal))])
    return elapsed, checked, moves, states


def worlds(game: Game, states: list[tuple[Any, int]], seed: int) -> float:
    """Return the CPU seconds of ``clone`` + ``determinize`` of every state, from its seat to act."""
    rng = random.Random(seed)
    started = time.process_time()
    for state, seat in states:
        game.determinize(game.clone(state), seat, rng)
    return time.process_time() - started


def measure(game_id: str, games: int, rounds: int, seed: int) -> dict[str, float]:
    """Time one pair; print both sides and the ratios; return the ratios."""
    best: dict[str, dict[str, float]] = {}
    pair = sides(game_id)
    for _ in range(rounds):
        for label, (game, options) in pair.items():
            seeds = range(seed, seed + games)  # the same games each round
            elapsed, checked, moves, states = play(game, options, seeds)
            determinized = worlds(game, states, seed)
            figures = {
                "game": elapsed / games,
                "move": elapsed / moves,
                "checked": checked / games,
                "world": determinized / len(states),
            }
            kept = best.setdefault(label, figures)
            for key, value in figures.items():
                kept[key] = min(kept[key], value)
    hand, rcy = best["hand-written"], best["RECYCLE"]
    print(f"{game_id} ({games} games a round, {PLAYERS} players, preset cardstock):")
    for label, figures in best.items():
        print(
            f"  {label:<13} {1e3 * figures['game']:9.2f} ms/game {1e6 * figures['move']:8.1f} us/move"
            f" (apply: {1e3 * figures['checked']:.2f} ms/game)"
            f" {1e6 * figures['world']:8.1f} us/(clone+determinize)"
        )
    ratios = {key: rcy[key] / hand[key] for key in ("game", "move", "checked", "world")}
    print(
        f"  RECYCLE/hand-written time: {ratios['game']:.2f}x per game, {ratios['move']:.2f}x per move"
        f" (advance); {ratios['checked']:.2f}x per game by apply;"
        f" {ratios['world']:.2f}x per clone+determinize"
    )
    return ratios


def main(argv: list[str] | None = None) -> int:
    """Measure every pair and print the ratios."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer games and rounds")
    parser.add_argument("--only", help="hearts or agram (default: both)")
    parser.add_argument("--rounds", type=int, help="rounds per figure (default 5, quick 2)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--games", type=int, help="games per round (default: Hearts 10, Agram 300)")
    parser.add_argument(
        "--once",
        metavar="GAME:SIDE",
        help="play one round of one side (hand-written or RECYCLE), untimed, after a warm-up round, and "
        "stop: for counting instructions (valgrind --tool=callgrind --toggle-collect=functools_reduce)",
    )
    args = parser.parse_args(argv)
    if args.once:
        game_id, _, side = args.once.partition(":")
        if game_id not in PAIRS or side not in ("hand-written", "RECYCLE"):
            parser.error("--once takes hearts or agram, a colon, and hand-written or RECYCLE")
        game, options = sides(game_id)[side]
        games = PAIRS[game_id] if args.games is None else args.games
        play_games(game, options, range(args.seed + 10_000, args.seed + 10_000 + games))  # the warm-up
        seeds = range(args.seed, args.seed + games)
        moves = functools.reduce(lambda _, __: play_games(game, options, seeds), [None], 0)
        print(f"{args.once}: {moves} moves")
        return 0
    rounds = args.rounds or (2 if args.quick else 5)
    chosen = args.only.split(",") if args.only else list(PAIRS)
    unknown = [g for g in chosen if g not in PAIRS]
    if unknown:
        parser.error(f"no pair {', '.join(unknown)} (known: {', '.join(PAIRS)})")
    print(f"Python {sys.version.split()[0]}; per figure the least of {rounds} interleaved rounds of CPU time")
    for game_id in chosen:
        games = args.games or PAIRS[game_id] // (3 if args.quick else 1)
        measure(game_id, games, rounds, args.seed)
    return 0


if __name__ == "__main__":
    sys.exit(main())
