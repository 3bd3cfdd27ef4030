"""Bot levels against each other in RECYCLE games, by duplicate deals: one command, one table.

    python bench/recycle_bots.py --jobs 3                  # the library and CardStock's set below
    python bench/recycle_bots.py --only agram,Euchre4 --matchups easy:random=40,hard:easy=10
    python bench/recycle_bots.py --cardstock /path/to/CardStock/games

Each matchup ``A:B`` seats one ``A`` bot with ``B`` bots in the other seats for
a whole game; unit ``u`` puts the ``A`` bot in seat ``u % players`` and deals
from seed ``seed + u``. The same deal is then played with ``B`` bots in every
seat, and the ``A`` seat's margin (its score minus the others' mean, signed so
that positive is better in the description's direction) is compared with the
``B`` bot's margin in that seat and deal: the luck of the cards cancels, as in
duplicate bridge. "A beats B" when the 95% interval of that difference (normal
approximation) lies wholly above zero.

The think-time table counts, per level, the decisions with more than one legal
move, the playouts a search ran (the budget is a count; the wall-clock cap,
0.25 s ``normal`` and 1 s ``hard``, is on as on the site, so on a busy machine
a search stops early and runs fewer), CPU and wall time at p50 and p95. The
load average is printed beside it. "choices" is the mean number of decisions
with more than one legal move per seat in an all-``B`` game: a game with none
is pure luck and no bot can beat another in it.

The games: the library's (``games/recycle/library``) and a set of CardStock's
own files (``CardStock/games`` of its repository; ``--cardstock`` says where),
trick-taking, shedding, matching, set-collecting, bidding and scoring games.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.bots import make_bot
from games.bots.settings import LEVELS
from games.engine import GameError
from games.recycle import library, load

CARDSTOCK = Path("/work/cardstock/head/CardStock/games")
# CardStock's files benched: trick-taking (Euchre, Spades, Hearts, Black Lady, Whist, German
# Whist), shedding (LAMA), matching and collecting (Go Fish, Golf), scoring and
# bidding (No Thanks, GOPS, Cribbage, Kuhn poker). Crazy Eights 4 and Lost
# Cities 2 play too but last 90 decisions a seat: too long for this bench's
# search rows at the table's think time.
CARDSTOCK_FILES = (
    "Euchre4",
    "Spades4",
    "Hearts4",
    "BlackLady4",
    "Whist4",
    "GermanWhist2",
    "LAMA3",
    "GoFish4",
    "GolfSix4",
    "NoThanks4",
    "GOPS2",
    "Cribbage2",
    "KuhnPoker2",
)
# Units per matchup; the library's Hearts (to 100 points) and Whist are whole
# games of 60 to 120 decisions a seat, so they get fewer units.
DEFAULT_UNITS = {"easy:random": 24, "normal:random": 12, "hard:random": 8}
LONG = {"hearts": 0.34, "whist": 0.5}


def game_paths(cardstock: Path) -> dict[str, Path]:
    """Return the benched files by name: the library's, then CardStock's that exist."""
    paths = dict(library())
    for name in CARDSTOCK_FILES:
        path = cardstock / f"{name}.rcy"
        if path.exists():
            paths[name] = path
    return paths


def play(game, levels: list[str], seed: int, figures: dict | None) -> tuple[list[float], int]:
    """Play one whole game with a bot of each level; return the scores and the wide decisions."""
    n = len(levels)
    state = game.new(n, {}, seed)
    bots = [make_bot(level, game, seed * 31 + seat) for seat, level in enumerate(levels)]
    wide = 0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        if len(game.legal_moves(state, seat)) > 1:
            wide += 1
            started, cpu = time.perf_counter(), time.process_time()
            move = bots[seat].choose(state, seat)
            if figures is not None:
                row = figures.setdefault(levels[seat], {"wall": [], "cpu": [], "playouts": []})
                row["wall"].append(time.perf_counter() - started)
                row["cpu"].append(time.process_time() - cpu)
                stats = getattr(bots[seat], "stats", None)
                if stats is not None:
                    row["playouts"].append(stats.playouts)
        else:
            move = bots[seat].choose(state, seat)
        # ``apply``, as the site plays: it keeps what each seat saw (games/recycle/playing/tracking.py).
        game.apply(state, seat, move)
    return list(game.result(state)["scores"]), wide


def margin(scores: list[float], seat: int, sign: float) -> float:
    """Return ``seat``'s score minus the others' mean, positive when better."""
    others = [s for i, s in enumerate(scores) if i != seat]
    return sign * (scores[seat] - statistics.fmean(others))


def run_chunk(job: tuple) -> dict:
    """Play units ``start..stop-1`` of one matchup in one game; return the raw figures."""
    name, path, a, b, start, stop, seed = job
    game = load(path)
    n, sign = game.info.default_players, game.info.score_sign()
    out = {"dups": [], "wide": [], "figures": {}, "failed": []}
    for u in range(start, stop):
        seat = u % n
        levels = [a if s == seat else b for s in range(n)]
        try:
            scores, _ = play(game, levels, seed + u, out["figures"])
            twin, wide = play(game, [b] * n, seed + u, None)
        except GameError as error:
            # A bot that fails is a finding, not a reason to lose the run: counted and shown.
            out["failed"].append(f"unit {u}: {error}")
            continue
        out["dups"].append(margin(scores, seat, sign) - margin(twin, seat, sign))
        out["wide"].append(wide / n)
    print(f"  {name} {a}:{b} units {start}-{stop - 1} done", file=sys.stderr, flush=True)
    return out


def interval(values: list[float]) -> tuple[float, float]:
    """Return the mean and the half-width of its 95% interval (normal approximation)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, half


def quantile(values: list[float], q: float) -> float:
    """Return the ``q`` quantile of ``values`` (nearest rank), 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def plan(
    names: list[str], paths: dict[str, Path], matchups: str | None, chunk: int, seed: int
) -> list[tuple]:
    """Return the jobs: ``(name, path, a, b, start, stop, seed)``, chunks of units of each matchup."""
    specs = matchups.split(",") if matchups else [f"{k}={v}" for k, v in DEFAULT_UNITS.items()]
    jobs = []
    for name in names:
        for spec in specs:
            pair, _, count = spec.partition("=")
            a, b = pair.split(":")
            units = int(count or 20)
            if not matchups:
                units = max(2, round(units * LONG.get(name, 1.0)))
            jobs += [
                (name, paths[name], a, b, s, min(units, s + chunk), seed) for s in range(0, units, chunk)
            ]
    return jobs


def report(jobs: list[tuple], parts: list[dict]) -> None:
    """Print the duplicate table and the think-time table (Markdown)."""
    joined: dict[tuple, dict] = {}
    figures: dict[str, dict[str, list[float]]] = {}
    for job, part in zip(jobs, parts, strict=True):
        row = joined.setdefault((job[0], job[2], job[3]), {"dups": [], "wide": [], "failed": []})
        for key in row:
            row[key] += part[key]
        for level, values in part["figures"].items():
            into = figures.setdefault(level, {"wall": [], "cpu": [], "playouts": []})
            for key in into:
                into[key] += values[key]
    print("\n| game | A vs B | units | choices a seat | A - B duplicate (per game) | A beats B |")
    print("| --- | --- | --- | --- | --- | --- |")
    failures = []
    for (name, a, b), row in joined.items():
        failures += [f"{name} {a}:{b} {message}" for message in row["failed"]]
        if not row["dups"]:
            print(f"| {name} | {a} vs {b} | 0 | - | - | failed |")
            continue
        mean, half = interval(row["dups"])
        choices = statistics.fmean(row["wide"])
        verdict = "pure luck" if choices == 0 else ("yes" if mean - half > 0 else "no")
        units = len(row["dups"])
        print(f"| {name} | {a} vs {b} | {units} | {choices:.1f} | {mean:+.3f} ± {half:.3f} | {verdict} |")
    for failure in failures:
        print(f"\nfailed: {failure[:300]}")
    print("\n| level | decisions | playouts p50 / p95 | CPU p50 / p95 (ms) | wall p50 / p95 (ms) |")
    print("| --- | --- | --- | --- | --- |")
    for level in LEVELS[1:]:  # easy and the searches
        if level in figures:
            f = figures[level]
            playouts = (
                f"{quantile(f['playouts'], 0.5):.0f} / {quantile(f['playouts'], 0.95):.0f}"
                if f["playouts"]
                else "-"
            )
            cpu = f"{quantile(f['cpu'], 0.5) * 1e3:.0f} / {quantile(f['cpu'], 0.95) * 1e3:.0f}"
            wall = f"{quantile(f['wall'], 0.5) * 1e3:.0f} / {quantile(f['wall'], 0.95) * 1e3:.0f}"
            print(f"| {level} | {len(f['cpu'])} | {playouts} | {cpu} | {wall} |")


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, play the matchups (in ``--jobs`` processes) and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="comma-separated names (library stems or CardStock file stems)")
    parser.add_argument(
        "--matchups", help="comma-separated A:B=UNITS (default: DEFAULT_UNITS, fewer in the long games)"
    )
    parser.add_argument("--cardstock", type=Path, default=CARDSTOCK, help="CardStock's games folder")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument("--chunk", type=int, default=2, help="units per job handed to a worker")
    args = parser.parse_args(argv)
    random.seed(args.seed)
    paths = game_paths(args.cardstock)
    names = args.only.split(",") if args.only else list(paths)
    unknown = [n for n in names if n not in paths]
    if unknown:
        parser.error(f"unknown games: {', '.join(unknown)} (known: {', '.join(paths)})")
    jobs = plan(names, paths, args.matchups, max(1, args.chunk), args.seed)
    started = time.perf_counter()
    load_before = os.getloadavg()
    if args.jobs > 1:
        from multiprocessing import Pool

        with Pool(args.jobs) as pool:
            parts = pool.map(run_chunk, jobs, chunksize=1)
    else:
        parts = [run_chunk(job) for job in jobs]
    report(jobs, parts)
    load_after = os.getloadavg()
    print(
        f"\nseconds: {time.perf_counter() - started:.0f}; load average (1 min) "
        f"{load_before[0]:.1f} at the start, {load_after[0]:.1f} at the end; jobs {args.jobs}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
