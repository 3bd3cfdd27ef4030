"""Hearts: our ``hard`` bot against OpenSpiel's IS-MCTS at equal CPU per decision.

    python bench/openspiel.py --deals 100 --jobs 2          # calibrate, then play
    python bench/openspiel.py --deals 100 --simulations 9000  # a fixed IS-MCTS budget

Needs OpenSpiel (``pip install -e '.[bench]'``, the ``open-spiel`` package); the site
never imports it. Each deal (seed ``seed + u``, our first deal of a game: the pass
to the left) is played twice with three of our ``easy`` bots in the other seats:
once with our ``hard`` bot in seat ``u % 4`` and once with OpenSpiel's C++
IS-MCTS (``pyspiel.ISMCTSBot``: random-rollout evaluator, the final move by most
visits, unlimited sampled worlds) in that seat, so both face the same cards and
the same opponents. The game is played in our engine and in OpenSpiel's
``hearts`` (set to our rules, ``bench/engine.py``'s ``OPENSPIEL_HEARTS``) move
for move: at every decision the two engines must list the same legal cards
(checked), and IS-MCTS searches OpenSpiel's state, our bots ours.

Equal CPU: unless ``--simulations`` is given, the run first plays a few deals
with ``hard`` (no time cap: its playout budget decides) and measures its mean
CPU per decision with more than one legal move, then sets IS-MCTS's simulations
per decision so its mean CPU per such decision is the same; both measured
means are printed with the result. The pass counts as decisions too: ``hard``
makes it once, IS-MCTS card by card (three decisions at the same simulations).

Our bots are reproducible from the seed; OpenSpiel's IS-MCTS is not (the same
seed gave different moves from run to run), so a rerun differs within the
intervals.

It prints the points per deal each takes, the ratio hard / IS-MCTS with a 95%
interval (delta method over the paired deals), and the paired difference. The
issue's target: a ratio of at most 0.80 with the interval's upper end below 1.
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import time
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.engine import OPENSPIEL_HEARTS
from games import GAMES
from games.bots import make_bot

GAME = GAMES["hearts"]
PLAYERS = 4
LEFT = 1  # OpenSpiel's chance outcome for passing left (ours for a game's first deal)
RANKS = "23456789TJQKA"  # OpenSpiel's card index is rank * 4 + suit, suits C D H S
SUITS = "CDHS"


def os_card(name: str) -> int:
    """Return OpenSpiel's index of one of our card names ('QS')."""
    return RANKS.index(name[0]) * 4 + SUITS.index(name[1])


def os_name(index: int) -> str:
    """Return our card name of OpenSpiel's card index."""
    return RANKS[index // 4] + SUITS[index % 4]


def start(seed: int, seat: int) -> tuple[Any, Any]:
    """Return our first deal of a game and OpenSpiel's state with the same hands, before the pass.

    OpenSpiel's player 0 is our ``seat`` (its player k our seat ``seat + k``): its
    players pass in turn from 0, and its IS-MCTS cannot sample a pass after
    another player's hidden one (``resample_from_infostate`` crashes), so the
    searching seat passes first. Turning the table keeps who passes to whom and
    who plays after whom.
    """
    import pyspiel

    ours = GAME.new(PLAYERS, None, seed)
    theirs = pyspiel.load_game("hearts", OPENSPIEL_HEARTS).new_initial_state()
    theirs.apply_action(LEFT)
    hands = [[os_card(c) for c in GAME.view(ours, (k + seat) % PLAYERS)["hand"]] for k in range(PLAYERS)]
    for k in range(52):  # OpenSpiel deals its k-th chance card to player k % 4
        theirs.apply_action(hands[k % PLAYERS][k // PLAYERS])
    return ours, theirs


def play_deal(
    seed: int, seat: int, searcher: str, simulations: int, uct_c: float
) -> tuple[float, list[float]]:
    """Play one deal with ``searcher`` (``hard`` or ``ismcts``) in ``seat`` and ``easy`` elsewhere.

    Returns the points ``seat`` took and the CPU seconds of each of the searcher's
    decisions with more than one legal move.
    """
    import pyspiel

    ours, theirs = start(seed, seat)
    bots = [make_bot("easy", GAME, seed * 31 + s) for s in range(PLAYERS)]
    if searcher == "hard":
        bots[seat] = make_bot("hard", GAME, seed * 31 + seat, max_seconds=math.inf)
    # Kept in a name: the bot holds the evaluator without owning it (a segfault otherwise).
    evaluator = pyspiel.RandomRolloutEvaluator(1, seed)
    ismcts = pyspiel.ISMCTSBot(
        seed,
        evaluator,
        uct_c,
        simulations,
        -1,
        pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT,
        False,
        False,
    )
    before = GAME.view(ours, None)["scores"][seat]
    pending: list[int] = []  # the cards of a pass, fed to OpenSpiel one at a time
    cpu: list[float] = []
    while not theirs.is_terminal():
        if pending and not (searcher == "ismcts" and theirs.current_player() == 0):
            # The rest of a pass our engine has made already.
            theirs.apply_action(pending.pop(0))
            continue
        player = (theirs.current_player() + seat) % PLAYERS
        legal = theirs.legal_actions()
        passing = GAME.view(ours, None)["phase"] == "pass"
        if not passing:
            assert GAME.to_act(ours) == [player], (GAME.to_act(ours), player)
            assert sorted(os_card(m["play"]) for m in GAME.legal_moves(ours, player)) == sorted(legal)
        if player == seat and searcher == "ismcts":
            started = time.process_time()
            action = ismcts.step(theirs) if len(legal) > 1 else legal[0]
            if len(legal) > 1:
                cpu.append(time.process_time() - started)
            if passing:
                pending.append(action)
                if len(pending) == 3:
                    GAME.apply(ours, player, {"pass": [os_name(c) for c in sorted(pending, key=_ours)]})
                    pending = []
            else:
                GAME.apply(ours, player, {"play": os_name(action)})
            theirs.apply_action(action)
            continue
        started = time.process_time()
        wide = len(GAME.legal_moves(ours, player)) > 1
        move = bots[player].choose(ours, player)
        if wide and player == seat:
            cpu.append(time.process_time() - started)
        GAME.apply(ours, player, move)
        if passing:
            pending = [os_card(c) for c in move["pass"]]
            action = pending.pop(0)
        else:
            action = os_card(move["play"])
        theirs.apply_action(action)
    points = GAME.view(ours, None)["scores"][seat] - before
    # OpenSpiel scores a player 26 minus the points it took (no bonuses set): the engines agree.
    assert theirs.returns()[0] == 26 - points, (theirs.returns(), points)
    return points, cpu


def _ours(index: int) -> int:
    """Our card order of OpenSpiel's card index (a pass lists its cards in our order)."""
    from games.cards import CARD_INDEX

    return CARD_INDEX[os_name(index)]


def play_pair(job: tuple) -> tuple[float, float, list[float], list[float]]:
    """Play deal ``u`` with ``hard`` and with IS-MCTS in seat ``u % 4``; return both points and CPU times."""
    u, seed, simulations, uct_c = job
    seat = u % PLAYERS
    hard, hard_cpu = play_deal(seed + u, seat, "hard", simulations, uct_c)
    ismcts, ismcts_cpu = play_deal(seed + u, seat, "ismcts", simulations, uct_c)
    print(f"  deal {u}: hard {hard:g}, IS-MCTS {ismcts:g}", file=sys.stderr, flush=True)
    return hard, ismcts, hard_cpu, ismcts_cpu


def calibrate(deals: int, seed: int, uct_c: float) -> tuple[int, float, float]:
    """Return IS-MCTS simulations for ``hard``'s mean CPU per decision, and both measured means."""
    hard_cpu: list[float] = []
    probe_cpu: list[float] = []
    probe = 2000
    for u in range(deals):
        hard_cpu += play_deal(seed - 1 - u, u % PLAYERS, "hard", probe, uct_c)[1]
        probe_cpu += play_deal(seed - 1 - u, u % PLAYERS, "ismcts", probe, uct_c)[1]
    per_decision = statistics.fmean(hard_cpu)
    per_simulation = statistics.fmean(probe_cpu) / probe
    return max(1, round(per_decision / per_simulation)), per_decision, statistics.fmean(probe_cpu)


def ratio_interval(a: list[float], b: list[float]) -> tuple[float, float]:
    """Return mean(a) / mean(b) and the half-width of its 95% interval (paired, delta method)."""
    ma, mb = statistics.fmean(a), statistics.fmean(b)
    ratio = ma / mb
    residuals = [x - ratio * y for x, y in zip(a, b, strict=True)]
    return ratio, 1.96 * statistics.stdev(residuals) / (math.sqrt(len(a)) * mb)


def mean_interval(values: list[float]) -> tuple[float, float]:
    """Return the mean and the half-width of its 95% interval."""
    return statistics.fmean(values), 1.96 * statistics.stdev(values) / math.sqrt(len(values))


def percentile(values: list[float], q: float) -> float:
    """Return the ``q`` quantile of ``values`` (nearest rank)."""
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def main(argv: list[str] | None = None) -> int:
    """Parse the arguments, calibrate IS-MCTS's budget unless given, play the deals, print the table."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--deals", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--jobs", type=int, default=1)
    parser.add_argument(
        "--simulations", type=int, help="IS-MCTS simulations a decision (default: calibrated)"
    )
    parser.add_argument("--calibrate-deals", type=int, default=2)
    # Rewards are OpenSpiel's returns, 26 minus the points taken: the exploration
    # constant is scaled to that range (about sqrt(2) for rewards in [0, 1]).
    parser.add_argument("--uct-c", type=float, default=26 * math.sqrt(2))
    args = parser.parse_args(argv)
    if args.deals < 2:
        parser.error("--deals: at least 2 (an interval needs two)")
    started, load = time.perf_counter(), os.getloadavg()
    if args.simulations is None:
        sims, hard_mean, probe_mean = calibrate(args.calibrate_deals, args.seed, args.uct_c)
        print(
            f"calibration ({args.calibrate_deals} deals): hard {hard_mean * 1e3:.0f} ms CPU a decision; "
            f"IS-MCTS {probe_mean * 1e3:.1f} ms at 2000 simulations, so {sims} simulations"
        )
    else:
        sims = args.simulations
    jobs = [(u, args.seed, sims, args.uct_c) for u in range(args.deals)]
    if args.jobs > 1:
        from multiprocessing import Pool

        with Pool(args.jobs) as pool:
            results = pool.map(play_pair, jobs, chunksize=1)
    else:
        results = [play_pair(job) for job in jobs]
    hard = [r[0] for r in results]
    ismcts = [r[1] for r in results]
    hard_cpu = [t for r in results for t in r[2]]
    ismcts_cpu = [t for r in results for t in r[3]]
    (hm, hh), (im, ih) = mean_interval(hard), mean_interval(ismcts)
    ratio, rh = ratio_interval(hard, ismcts)
    dm, dh = mean_interval([h - i for h, i in zip(hard, ismcts, strict=True)])
    print(
        "\n| deals | hard points a deal | IS-MCTS points a deal | hard / IS-MCTS | hard - IS-MCTS (paired) |"
    )
    print("| --- | --- | --- | --- | --- |")
    cells = [
        f"{hm:.3f} ± {hh:.3f}",
        f"{im:.3f} ± {ih:.3f}",
        f"{ratio:.2f} ± {rh:.2f}",
        f"{dm:+.3f} ± {dh:.3f}",
    ]
    print(f"| {len(hard)} | {' | '.join(cells)} |")
    print("\n| searcher | decisions | CPU mean / p50 / p95 (ms) |")
    print("| --- | --- | --- |")
    for name, cpu in (("hard", hard_cpu), (f"IS-MCTS ({sims} simulations)", ismcts_cpu)):
        values = (statistics.fmean(cpu), percentile(cpu, 0.5), percentile(cpu, 0.95))
        figures = " / ".join(f"{v * 1e3:.0f}" for v in values)
        print(f"| {name} | {len(cpu)} | {figures} |")
    print(
        f"\nseconds: {time.perf_counter() - started:.0f}; load average {load[0]:.1f} at the start, "
        f"{os.getloadavg()[0]:.1f} at the end; uct_c {args.uct_c:.1f}; seed {args.seed}"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
