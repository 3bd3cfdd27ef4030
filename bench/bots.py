"""Play bot level against bot level and print a table per game.

    python bench/bots.py --no-cap --jobs 2    # the ladder in every game, the counts of docs/bots.md
    python bench/bots.py --only hearts --units 200 --matchups hard:easy
    python bench/bots.py --no-cap --playout-scale 0.5 --scale 0.5   # a quicker, smaller ladder
    python bench/bots.py --crib 100           # Cribbage discards against the exact value

Each matchup ``A:B`` seats one ``A`` bot with ``B`` bots in the other seats; the
``A`` seat rotates (unit ``u`` puts it in seat ``u % players``) and unit ``u``
uses seed ``seed + u``, so a run is reproducible. A unit is a whole game (Agram
to 1, Ninety-Eight with one life, Stealing Bundles) or one deal (Hearts,
Cribbage: the first deal of a fresh game, scored by its points).

Columns: ``score`` is the mean score per unit (points taken per deal in Hearts,
lower is better; points pegged and shown per deal in Cribbage; the game's score
otherwise) with its 95% interval; ``diff`` is the ``A`` seat's score minus the
mean of the ``B`` seats in the same unit, with its 95% interval (paired); a
matchup is "beaten" when the duplicate interval lies wholly on ``A``'s good
side. ``duplicate`` replays each unit's deal with ``B`` bots in every seat and
compares the ``A`` seat's margin (its score minus the others' mean) with the
margin of the ``B`` bot in that same seat and deal, so the luck of the cards
cancels (as in duplicate bridge).
``win`` is the share of units a seat won (ties count for all tied). Think time
p50/p95 is per level over all its decisions with more than one legal move, as
wall time and as CPU time (the machine may be shared; CPU time is what the
bot itself spent). ``--no-cap`` lifts the search bots' wall-clock caps so the
moves depend on the playout budgets and seeds only.
"""

from __future__ import annotations

import argparse
import math
import os
import random
import statistics
import sys
import time
from dataclasses import dataclass
from itertools import combinations
from pathlib import Path
from typing import TextIO

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import GAMES
from games.bots import LEVELS, make_bot
from games.engine import Game


@dataclass
class Setup:
    """How one game is benched: seats, options, unit, and whether lower scores are better."""

    players: int
    options: dict
    per_deal: bool
    lower_better: bool
    units: dict[str, int]


# The ladder: each level against the one below it (the default matchups), with the
# units each rung needs for its duplicate interval to clear zero.
SETUPS: dict[str, Setup] = {
    "hearts": Setup(4, {}, True, True, {"easy:random": 100, "normal:easy": 60, "hard:normal": 60}),
    "agram": Setup(
        4, {"target": 1}, False, False, {"easy:random": 400, "normal:easy": 400, "hard:normal": 400}
    ),
    "ninety_eight": Setup(
        4, {"lives": 1}, False, False, {"easy:random": 400, "normal:easy": 400, "hard:normal": 400}
    ),
    "cribbage": Setup(2, {}, True, False, {"easy:random": 200, "normal:easy": 1000, "hard:normal": 300}),
    "stealing_bundles": Setup(
        4, {}, False, False, {"easy:random": 300, "normal:easy": 40, "hard:normal": 60}
    ),
}
# Set by --playout-scale: a factor on every search bot's playout budget.
PLAYOUT_SCALE = [1.0]


def play_unit(
    game: Game, setup: Setup, levels: list[str], seed: int, times: dict[str, list[float]]
) -> list[float]:
    """Play one unit (a game, or the first deal of one); return each seat's score for it."""
    state = game.new(setup.players, setup.options, seed)
    bots = [
        make_bot(level, game, seed * 31 + seat, playout_scale=PLAYOUT_SCALE[0])
        for seat, level in enumerate(levels)
    ]
    before = list(game.view(state, None)["scores"])
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        wide = len(game.legal_moves(state, seat)) > 1
        started, cpu = time.perf_counter(), time.process_time()
        move = bots[seat].choose(state, seat)
        if wide:
            times[levels[seat]].append(time.perf_counter() - started)
            times[levels[seat] + " cpu"].append(time.process_time() - cpu)
        events = game.apply(state, seat, move)
        if setup.per_deal and any("deal" in e for e in events):
            after = game.view(state, None)["scores"]
            return [a - b for a, b in zip(after, before, strict=True)]
    after = game.result(state)["scores"]
    return [a - b for a, b in zip(after, before, strict=True)] if setup.per_deal else list(after)


def interval(values: list[float]) -> tuple[float, float]:
    """Return the mean and the half-width of its 95% interval (normal approximation)."""
    mean = statistics.fmean(values)
    half = 1.96 * statistics.stdev(values) / math.sqrt(len(values)) if len(values) > 1 else math.inf
    return mean, half


# A matchup's raw figures: these lists, one entry per unit (b_scores one per B seat),
# win counts, and think times per level.
RAW_LISTS = ("a_scores", "b_scores", "diffs", "dups")


def _empty_raw() -> dict:
    return {**{key: [] for key in RAW_LISTS}, "a_wins": 0, "b_wins": 0, "times": {}}


def play_units(game: Game, setup: Setup, a: str, b: str, units: range, seed: int) -> dict:
    """Play the units ``units`` of one ``a`` seat against ``b`` seats; return the raw figures."""
    n = setup.players
    raw = _empty_raw()
    raw["times"] = times = {a: [], b: [], a + " cpu": [], b + " cpu": []}
    for u in units:
        a_seat = u % n
        levels = [a if s == a_seat else b for s in range(n)]
        scores = play_unit(game, setup, levels, seed + u, times)
        # Duplicate: the same deal with a B bot in the A seat too, so the cards' luck cancels.
        twin = play_unit(game, setup, [b] * n, seed + u, {b: [], b + " cpu": []})
        others = [scores[s] for s in range(n) if s != a_seat]
        margin = scores[a_seat] - statistics.fmean(others)
        twin_margin = twin[a_seat] - statistics.fmean(twin[s] for s in range(n) if s != a_seat)
        raw["dups"].append(margin - twin_margin)
        raw["a_scores"].append(scores[a_seat])
        raw["b_scores"].extend(others)
        raw["diffs"].append(margin)
        best = min(scores) if setup.lower_better else max(scores)
        raw["a_wins"] += scores[a_seat] == best
        raw["b_wins"] += sum(1 for s in others if s == best)
    return raw


def merge(parts: list[dict]) -> dict:
    """Join the raw figures of consecutive unit ranges of one matchup."""
    joined = _empty_raw()
    for part in parts:
        for key in RAW_LISTS:
            joined[key].extend(part[key])
        joined["a_wins"] += part["a_wins"]
        joined["b_wins"] += part["b_wins"]
        for level, values in part["times"].items():
            joined["times"].setdefault(level, []).extend(values)
    return joined


def summarize(setup: Setup, a: str, b: str, raw: dict) -> dict:
    """Turn a matchup's raw figures into means with 95% intervals and win rates."""
    units = len(raw["dups"])
    return {
        "a": a,
        "b": b,
        "units": units,
        "a_score": interval(raw["a_scores"]),
        "b_score": interval(raw["b_scores"]),
        "diff": interval(raw["diffs"]),
        "dup": interval(raw["dups"]),
        "a_win": raw["a_wins"] / units,
        "b_win": raw["b_wins"] / (units * (setup.players - 1)),
        "times": raw["times"],
    }


def percentile(values: list[float], q: float) -> float:
    """Return the ``q`` quantile of ``values`` (nearest rank), 0 when empty."""
    if not values:
        return 0.0
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def print_table(game_id: str, setup: Setup, rows: list[dict], out: TextIO = sys.stdout) -> None:
    """Print one game's table (Markdown) and its think times."""
    unit = "deal" if setup.per_deal else "game"
    better = "lower" if setup.lower_better else "higher"
    print(f"\n### {game_id} ({setup.players} players, score per {unit}, {better} is better)\n", file=out)
    print(
        "| A vs B | units | A score | B score | A - B | A - B duplicate | A win | B win | A beats B |",
        file=out,
    )
    print("| --- | --- | --- | --- | --- | --- | --- | --- | --- |", file=out)
    times: dict[str, list[float]] = {}
    for r in rows:
        (am, ah), (bm, bh), (dm, dh) = r["a_score"], r["b_score"], r["diff"]
        um, uh = r["dup"]
        good = (um + uh < 0) if setup.lower_better else (um - uh > 0)
        extra = f" (ratio {am / bm:.2f})" if setup.lower_better and bm else ""
        print(
            f"| {r['a']} vs {r['b']} | {r['units']} | {am:.3f} ± {ah:.3f} | {bm:.3f} ± {bh:.3f} | "
            f"{dm:+.3f} ± {dh:.3f}{extra} | {um:+.3f} ± {uh:.3f} | {r['a_win']:.1%} | {r['b_win']:.1%} | "
            f"{'yes' if good else 'no'} |",
            file=out,
        )
        for level, values in r["times"].items():
            times.setdefault(level, []).extend(values)
    print("\n| level | decisions | think p50 (ms) | think p95 (ms) | CPU p50 (ms) | CPU p95 (ms) |", file=out)
    print("| --- | --- | --- | --- | --- | --- |", file=out)
    for level in LEVELS:
        if level in times:
            wall, cpu = times[level], times[level + " cpu"]
            figures = " | ".join(f"{percentile(v, q) * 1e3:.2f}" for v in (wall, cpu) for q in (0.5, 0.95))
            print(f"| {level} | {len(wall)} | {figures} |", file=out)
    out.flush()


def crib_regret(hands: int, seed: int, out: TextIO = sys.stdout) -> None:
    """Compare the normal/hard discard with the exact best expected hand ± crib, for 2 players."""
    from games.cards import CARD_NAMES
    from games.cribbage.crib_discard import discard_values
    from games.cribbage.crib_tables import exact_crib_value
    from games.cribbage.scoring import keep_totals

    rng = random.Random(seed)
    regrets, easy_regrets = [], []
    for h in range(hands):
        cards = sorted(rng.sample(range(52), 6))
        own = h % 2 == 0
        sign = 1.0 if own else -1.0
        moves = [{"discard": [CARD_NAMES[x], CARD_NAMES[y]]} for x, y in combinations(cards, 2)]
        hand_ev = {frozenset(k): t / 46 for t, k in keep_totals(cards)}
        exact = {}
        for x, y in combinations(cards, 2):
            kept = tuple(c for c in cards if c not in (x, y))
            exact[(x, y)] = hand_ev[frozenset(kept)] + sign * exact_crib_value((x, y), kept)
        best = max(exact.values())
        chosen = max(discard_values(cards, own, moves), key=lambda vm: vm[0])[1]
        pair = tuple(sorted(CARD_INDEX_OF[c] for c in chosen["discard"]))
        regrets.append(best - exact[pair])
        easy_pair = max(exact, key=lambda p: hand_ev[frozenset(c for c in cards if c not in p)])
        easy_regrets.append(best - exact[easy_pair])
    mean, half = interval(regrets)
    emean, ehalf = interval(easy_regrets)
    print("\n### cribbage discards (2 players), regret against the exact best hand ± crib\n", file=out)
    print("| discarder | hands | mean regret (points) | share exactly best |", file=out)
    print("| --- | --- | --- | --- |", file=out)
    share = sum(1 for r in regrets if r < 1e-9) / hands
    eshare = sum(1 for r in easy_regrets if r < 1e-9) / hands
    print(f"| normal/hard (tables) | {hands} | {mean:.4f} ± {half:.4f} | {share:.1%} |", file=out)
    print(f"| easy (hand only) | {hands} | {emean:.4f} ± {ehalf:.4f} | {eshare:.1%} |", file=out)


CARD_INDEX_OF: dict[str, int] = {}


def _lift_caps() -> None:
    from games.bots.levels import SETTINGS

    for settings in SETTINGS.values():
        settings.budgets = {level: (n, math.inf) for level, (n, _) in settings.budgets.items()}


def _matchups(game_id: str, matchups: str | None, units_arg: int | None, scale: float) -> list[tuple]:
    """Return ``(a, b, units)`` for each matchup asked of one game."""
    setup = SETUPS[game_id]
    out = []
    for spec in matchups.split(",") if matchups else list(setup.units):
        pair, _, count = spec.partition("=")
        a, b = pair.split(":")
        units = int(count) if count else units_arg or max(2, int(setup.units.get(pair, 100) * scale))
        out.append((a, b, units))
    return out


def _play_chunk(job: tuple) -> dict:
    """Play one range of units of one matchup (in this process or a worker); return raw figures."""
    game_id, a, b, start, stop, seed, no_cap, scale = job
    PLAYOUT_SCALE[0] = scale
    if no_cap:
        _lift_caps()
    raw = play_units(GAMES[game_id], SETUPS[game_id], a, b, range(start, stop), seed)
    print(f"  {game_id} {a}:{b} units {start}-{stop - 1} done", file=sys.stderr, flush=True)
    return raw


def _so_far(by_matchup: dict[tuple, list[dict]], job: tuple, part: dict) -> None:
    """Keep a finished chunk (jobs come back in unit order) and print its matchup's duplicate so far.

    A long run stopped early still tells what its first units showed.
    """
    parts = by_matchup.setdefault(job[:3], [])
    parts.append(part)
    dups = [d for p in parts for d in p["dups"]]
    mean, half = interval(dups)
    name = " ".join(job[:3])
    print(f"  {name} so far: {len(dups)} units, duplicate {mean:+.3f} ± {half:.3f}", file=sys.stderr)


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, run the matchups and print the tables."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--only", help="comma-separated game ids (default: every game)")
    parser.add_argument(
        "--matchups",
        help="comma-separated A:B or A:B=UNITS (default: the ladder, easy:random,normal:easy,hard:normal)",
    )
    parser.add_argument("--units", type=int, help="units per matchup (default: per game)")
    parser.add_argument("--scale", type=float, default=1.0, help="multiply the default unit counts")
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument(
        "--no-cap", action="store_true", help="lift the search bots' time caps (playout budgets only)"
    )
    parser.add_argument(
        "--playout-scale",
        type=float,
        default=1.0,
        help="multiply every search bot's playout budget (with --no-cap: a fixed, smaller search)",
    )
    parser.add_argument("--jobs", type=int, default=1, help="games played in parallel processes")
    parser.add_argument("--chunk", type=int, default=20, help="units per job handed to a worker")
    parser.add_argument("--crib", type=int, default=60, help="hands for the Cribbage discard check (0: skip)")
    args = parser.parse_args(argv)
    from games.cards import CARD_INDEX

    CARD_INDEX_OF.update(CARD_INDEX)
    if args.no_cap:
        _lift_caps()
    ids = args.only.split(",") if args.only else [g for g in SETUPS if g in GAMES]
    started = time.perf_counter()
    load = os.getloadavg()
    # Matchups are cut into chunks of units so that even one long matchup uses every job.
    chunk = max(1, args.chunk)
    plan = [
        (g, a, b, units) for g in ids for a, b, units in _matchups(g, args.matchups, args.units, args.scale)
    ]
    jobs = [
        (g, a, b, start, min(units, start + chunk), args.seed, args.no_cap, args.playout_scale)
        for g, a, b, units in plan
        for start in range(0, units, chunk)
    ]
    by_matchup: dict[tuple, list[dict]] = {}
    if args.jobs > 1:
        from multiprocessing import Pool

        with Pool(args.jobs) as pool:
            for job, part in zip(jobs, pool.imap(_play_chunk, jobs, chunksize=1), strict=True):
                _so_far(by_matchup, job, part)
    else:
        for job in jobs:
            _so_far(by_matchup, job, _play_chunk(job))
    rows: dict[str, list[dict]] = {}
    for g, a, b, _units in plan:
        rows.setdefault(g, []).append(summarize(SETUPS[g], a, b, merge(by_matchup[g, a, b])))
    for g, game_rows in rows.items():
        print_table(g, SETUPS[g], game_rows)
    if args.crib and "cribbage" in GAMES and (not args.only or "cribbage" in ids):
        crib_regret(args.crib, args.seed)
    # The machine may be shared: the load average says how much (it matters to the time columns only).
    print(
        f"\nseconds: {time.perf_counter() - started:.0f}; load average {load[0]:.1f} at the start, "
        f"{os.getloadavg()[0]:.1f} at the end; playout scale {args.playout_scale}; "
        f"caps {'off' if args.no_cap else 'on'}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
