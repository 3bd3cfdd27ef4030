"""Command line: ``python -m games simulate GAME --games N --seed S ...`` (PROTOCOL.md)
``python -m games stats GAME ...`` (CardStock's design statistics, docs/dashboard.md) and
``python -m games review JOB.json --json OUT`` (a game's review, docs/review.md).

``GAME`` is a game id or a RECYCLE description file (``PATH.rcy``, docs/recycle.md).
"""

from __future__ import annotations

import argparse
import contextlib
import json
import sys
import time
from pathlib import Path
from typing import Any, TextIO

from games import GAMES
from games.bots import LEVELS, make_bot
from games.engine import Game, GameError


def play_one(
    game: Game, players: int | None, options: dict | None, seed: int, levels: list[str]
) -> dict[str, Any]:
    """Play one bot-only game from ``seed``; return its log record (PROTOCOL.md)."""
    state = game.new(players, options, seed)
    count = state.players
    if len(levels) == 1:
        levels = levels * count
    if len(levels) != count:
        raise GameError(f"--bots names {len(levels)} levels for {count} seats")
    bots = [make_bot(level, game, seed * 101 + seat) for seat, level in enumerate(levels)]
    events: list[dict] = [game.deal_event(state)]
    moves = 0
    while not game.is_over(state):
        # In a simultaneous phase the seats still to act move lowest first.
        seat = game.to_act(state)[0]
        move = bots[seat].choose(state, seat)
        events.append({"seat": seat, "move": move})
        events.extend(game.apply(state, seat, move))
        moves += 1
    return {
        "game": game.info.id,
        "players": count,
        "options": game.to_json(state)["options"],
        "seed": seed,
        "events": events,
        "result": game.result(state),
        "moves": moves,
    }


def parse_options(text: str | None) -> dict | None:
    """Return ``--options`` as a dict (``None`` when not given); raise ``GameError`` if not a JSON object."""
    if text is None:
        return None
    try:
        options = json.loads(text)
    except json.JSONDecodeError as error:
        raise GameError(f"--options is not valid JSON ({error}): {text!r}") from None
    if not isinstance(options, dict):
        raise GameError(
            f'--options must be a JSON object such as \'{{"preset": "cardstock"}}\', not {text!r}'
        )
    return options


def parse_levels(text: str | None, players: int) -> list[str]:
    """Return one bot level per seat from ``--bots`` (one level for all, or one per seat)."""
    levels = [level.strip() for level in text.split(",")] if text else ["random"]
    for level in levels:
        if level not in LEVELS:
            raise GameError(f"there is no bot level {level!r} (known: {', '.join(LEVELS)})")
    if len(levels) == 1:
        return levels * players
    if len(levels) != players:
        raise GameError(f"--bots names {len(levels)} levels for {players} seats: give one, or one per seat")
    return levels


def resolve_game(name: str) -> Game:
    """Return the game with id ``name``, or the game a RECYCLE description file describes.

    A name ending in ``.rcy`` (or naming a file) is read as a description
    (``games.recycle.load``); raises ``GameError`` for anything else.
    """
    if name in GAMES:
        return GAMES[name]
    if name.endswith(".rcy") or Path(name).is_file():
        from games.recycle import load

        return load(name)
    known = ", ".join(GAMES)
    raise GameError(f"there is no game {name!r} (known: {known}; or a description file such as mine.rcy)")


def simulate(args: argparse.Namespace, out: TextIO) -> int:
    """Run ``args.games`` games, print the summary, write the log if asked."""
    game = resolve_game(args.game)
    options = parse_options(args.options)
    # Check every input before the log file is opened: bad input changes nothing.
    players = game.new(args.players, options, args.seed).players
    levels = parse_levels(args.bots, players)
    wins = [0] * players
    total_moves = 0
    started = time.perf_counter()
    with contextlib.ExitStack() as stack:
        log = stack.enter_context(open(args.log, "w", encoding="utf-8")) if args.log else None
        for i in range(args.games):
            record = play_one(game, args.players, options, args.seed + i, levels)
            total_moves += record.pop("moves")
            for seat in record["result"]["winners"]:
                wins[seat] += 1
            if log:
                log.write(json.dumps(record, separators=(",", ":")) + "\n")
    seconds = time.perf_counter() - started
    print(f"game: {game.info.id}", file=out)
    print(f"games: {args.games}", file=out)
    print(f"seconds: {seconds:.3f}", file=out)
    print(f"games per second: {args.games / seconds:.1f}", file=out)
    print(f"moves per game: {total_moves / args.games:.1f}", file=out)
    print("wins per seat: " + " ".join(f"{seat}:{w}" for seat, w in enumerate(wins)), file=out)
    return 0


def stats(args: argparse.Namespace, out: TextIO) -> int:
    """Run CardStock's three experiments on a game and print its six heuristics with their errors."""
    from games.stats import NAMES, measure

    game = resolve_game(args.game)
    options = parse_options(args.options)
    if args.preset is not None:
        options = {**(options or {}), "preset": args.preset}
    counts = {
        "random": args.random_games,
        "one_search": args.one_search_games,
        "all_search": args.all_search_games,
    }
    game.new(args.players, options, args.seed)  # bad players or options fail before any work
    started = time.perf_counter()
    result = measure(game, args.players, options, counts, args.playouts, args.seed, args.fairness)
    result["seconds"] = round(time.perf_counter() - started, 3)
    print(f"game: {result['game']}", file=out)
    print(f"players: {result['players']}", file=out)
    print(f"options: {json.dumps(result['options'], sort_keys=True)}", file=out)
    for kind, figures in result["experiments"].items():
        print(
            f"{kind}: {figures['games']} games, {figures['moves_per_game']} moves per game, "
            f"seat 0 wins {figures['seat0_win_rate']}",
            file=out,
        )
    print(f"playouts per move: {args.playouts}", file=out)
    print(f"fairness from the first player's {result['fairness_basis']} rate", file=out)
    for name in NAMES:
        value, error = result["heuristics"][name], result["errors"][name]
        print(f"{name}: {'-' if value is None else f'{value:.2f} ± {error:.3f}'}", file=out)
    print(f"seconds: {result['seconds']:.1f}", file=out)
    if args.json:
        with open(args.json, "w", encoding="utf-8") as handle:
            json.dump(result, handle)
    return 0


def review(args: argparse.Namespace, out: TextIO) -> int:
    """Review the seats a job file names (``{"game", "players", "options", "seed", "log", "seats",
    "config"}``) and write ``{"seats": {seat: review}, "seconds"}`` to ``--json``."""
    from games.bots.review import ReviewConfig
    from games.bots.review import review as review_seat

    with open(args.job, encoding="utf-8") as handle:
        job = json.load(handle)
    game = resolve_game(job["game"])
    config = ReviewConfig(**job.get("config", {}))
    started = time.perf_counter()
    seats = {
        str(seat): review_seat(game, job["players"], job["options"], job["seed"], job["log"], seat, config)
        for seat in job["seats"]
    }
    seconds = round(time.perf_counter() - started, 3)
    for seat, result in seats.items():
        print(f"seat {seat}: {result['reviewed']} decisions, mistakes at {result['mistakes']}", file=out)
    with open(args.json, "w", encoding="utf-8") as handle:
        json.dump({"seats": seats, "seconds": seconds}, handle)
    return 0


def add_stats_parser(commands: Any) -> None:
    """Add the ``stats`` command and its budget options."""
    from games.stats import BASES, DEFAULT_COUNTS, DEFAULT_PLAYOUTS

    st = commands.add_parser("stats", help="CardStock's design statistics of a game")
    st.add_argument("game", help="a game id or a RECYCLE description, PATH.rcy")
    st.add_argument("--players", type=int)
    st.add_argument("--options", help="JSON object, e.g. '{\"target\": 50}'")
    st.add_argument("--preset", help="a preset of the game, e.g. cardstock (same as --options' preset)")
    st.add_argument("--seed", type=int, default=0)
    st.add_argument("--games", type=int, help="games in each experiment (CardStock's table: 100)")
    st.add_argument("--random-games", type=int, default=DEFAULT_COUNTS["random"], help="all-random games")
    st.add_argument(
        "--one-search-games",
        type=int,
        default=DEFAULT_COUNTS["one_search"],
        help="games of one search player",
    )
    st.add_argument(
        "--all-search-games",
        type=int,
        default=DEFAULT_COUNTS["all_search"],
        help="games of all search players",
    )
    st.add_argument(
        "--playouts", type=int, default=DEFAULT_PLAYOUTS, help="playouts per legal move (CardStock: 10)"
    )
    st.add_argument(
        "--fairness",
        choices=BASES,
        default="auto",
        help="the first player's wins, losses, or auto (losses where one seat loses)",
    )
    st.add_argument("--json", help="write the statistics, with a lead history, to this file")


def main(argv: list[str] | None = None) -> int:
    """Parse the command line and run it; errors print one line and exit 2."""
    parser = argparse.ArgumentParser(prog="python -m games")
    commands = parser.add_subparsers(dest="command", required=True)
    sim = commands.add_parser("simulate", help="play games between bots")
    sim.add_argument("game", help=f"a game id ({', '.join(GAMES)}) or a RECYCLE description, PATH.rcy")
    sim.add_argument("--games", type=int, default=1)
    sim.add_argument("--seed", type=int, default=0)
    sim.add_argument("--players", type=int)
    sim.add_argument("--options", help='JSON object, e.g. \'{"preset": "cardstock"}\'')
    sim.add_argument("--bots", help="one level for all seats, or one per seat: hard,easy,easy,easy")
    sim.add_argument("--log", help="write one JSON object per game to this file")
    add_stats_parser(commands)
    rev = commands.add_parser("review", help="weigh the decisions of a game's seats (docs/review.md)")
    rev.add_argument("job", help="a JSON file: game, players, options, seed, log, seats, config")
    rev.add_argument("--json", required=True, help="write the reviews to this file")
    args = parser.parse_args(argv)
    if args.command == "simulate" and args.games < 1:
        parser.error("--games must be at least 1")
    if args.command == "stats":
        if args.games is not None:
            args.random_games = args.one_search_games = args.all_search_games = args.games
        budgets = (args.random_games, args.one_search_games, args.all_search_games)
        if min(budgets) < 0 or max(budgets) == 0 or args.playouts < 1:
            parser.error("game counts must be 0 or more (one at least positive) and --playouts at least 1")
    try:
        return {"stats": stats, "review": review, "simulate": simulate}[args.command](args, sys.stdout)
    except GameError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except OSError as error:
        print(f"error: cannot write the log: {error}", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
