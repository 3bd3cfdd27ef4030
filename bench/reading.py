"""Does the search gain from reading the plays? Ninety-Eight's ``normal`` with and without it.

    python bench/reading.py --units 200 --jobs 2 --playout-scale 0.25

One seat searches over deals that respect what the plays showed
(``games/ninety_eight/reading.py``), the other seats over uniform deals of the
unseen cards; the duplicate twin seats uniform searchers everywhere. Prints the
reading seat's duplicate margin per game with its 95% interval (one life: a game
is one deal).
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from bench.bots import interval
from games.bots import levels
from games.cards import cards_in, mask_of
from games.deals import redeal_unseen
from games.ninety_eight.game import FULL_DECK_MASK, NinetyEight, NinetyEightState

PLAYERS = 4


class Uniform(NinetyEight):
    """Ninety-Eight whose determinize deals the unseen cards uniformly (the reading left out)."""

    def determinize(self, state: NinetyEightState, seat: int, rng: random.Random) -> NinetyEightState:
        """Deal every card ``seat`` has not seen at random, ignoring what the plays showed."""
        copy = self.clone(state)
        unseen = cards_in(FULL_DECK_MASK & ~state.hands[seat] & ~mask_of(state.pile))
        redeal_unseen(copy, seat, unseen, rng)
        copy.seed = rng.getrandbits(32)
        return copy


READING, UNIFORM = NinetyEight(), Uniform()


def margins(unit: int, seed: int, scale: float) -> float:
    """Play unit ``unit`` with and without the reading seat; return its margin minus the twin's."""
    out = []
    reader = unit % PLAYERS
    for games in ([READING if s == reader else UNIFORM for s in range(PLAYERS)], [UNIFORM] * PLAYERS):
        state = READING.new(PLAYERS, {"lives": 1}, seed + unit)
        bots = [
            levels.make("normal", g, (seed + unit) * 31 + s, max_seconds=1e9, playout_scale=scale)
            for s, g in enumerate(games)
        ]
        while not READING.is_over(state):
            seat = READING.to_act(state)[0]
            READING.apply(state, seat, bots[seat].choose(state, seat))
        scores = READING.result(state)["scores"]
        out.append(scores[reader] - statistics.fmean(scores[s] for s in range(PLAYERS) if s != reader))
    return out[0] - out[1]


def _job(args: tuple) -> float:
    return margins(*args)


def main() -> int:
    """Play the units and print the reading seat's duplicate margin."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--units", type=int, default=200)
    parser.add_argument("--seed", type=int, default=1000)
    parser.add_argument("--playout-scale", type=float, default=0.25)
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    jobs = [(u, args.seed, args.playout_scale) for u in range(args.units)]
    if args.jobs > 1:
        from multiprocessing import Pool

        with Pool(args.jobs) as pool:
            dups = pool.map(_job, jobs, chunksize=5)
    else:
        dups = [_job(job) for job in jobs]
    mean, half = interval(dups)
    print(
        f"reading vs uniform (normal, playout scale {args.playout_scale}), {args.units} games: "
        f"duplicate margin {mean:+.3f} ± {half:.3f} per game"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
