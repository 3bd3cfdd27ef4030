"""How near the hand-written Hearts any RECYCLE implementation could come: a yardstick.

Run ``python bench/recycle_bound.py`` (about half a minute of CPU).
``games/recycle/library/hearts.rcy`` written out by hand as straight-line Python
on the interpreter's own state: cards as numbers in lists keyed by ``(owner,
kind, name)``, storage in a dict, a stack of player cycles, moves labelled as
the interpreter labels them. It is what a perfect compiler of that one
description would emit, with nothing general left: no stage machine, no
closures, the choice's five branches folded into two tests. No implementation of
the language can be faster on that state, so its time against the hand-written
module's (bitmasks) is the least ratio the interpreter can reach.

A second run keeps the locations in a list indexed by number instead of a dict
(a state built for speed rather than the interpreter's), to show how much a new
state would buy.

It plays the very games the interpreter plays: the same deck order, the same
shuffles (``moving.py``'s streams from the game's seed), the same cycles, the
same labels in the same order, so the same random picks make the same moves.
Before timing, every seed's scores and move count are checked against the
interpreter's, and the script stops if one differs. Times are CPU time, the
least of interleaved rounds, through the same loop as ``bench/recycle.py``.
"""

from __future__ import annotations

import argparse
import functools
import random
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games import GAMES
from games.recycle import library, load
from games.recycle.compiling.fast import shuffle_as_random

PLAYERS = 4
RECYCLE = load(library()["hearts"])
PROGRAM = RECYCLE.program
SUIT = [attrs["SUIT"] for attrs in PROGRAM.card_attrs]
RANK = [attrs["RANK"] for attrs in PROGRAM.card_attrs]
LABEL, ORDER = PROGRAM.play_label, PROGRAM.order
RANKS = ["TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE", "TEN", "J", "Q", "K", "A"]
RANK_VALUE = {rank: value for value, rank in enumerate(RANKS, start=2)}
POINTS = [(SUIT[c] == "HEARTS") + 13 * (RANK[c] == "Q" and SUIT[c] == "SPADES") for c in range(len(SUIT))]
# Led suit -> each card's 'PRECEDENCE, made once (the interpreter keeps its point maps too).
_precedence: dict[str, list[int]] = {}


class Places:
    """The location keys of one layout: tuples into a dict (the interpreter's) or numbers into a list."""

    def __init__(self, numbered: bool) -> None:
        keys = [(p, "iloc", "HAND") for p in range(PLAYERS)] + [(p, "vloc", "TRICK") for p in range(PLAYERS)]
        keys += [(p, "vloc", "TRICKSWON") for p in range(PLAYERS)]
        keys += [(-1, "vloc", "DISCARD"), (-1, "iloc", "STOCK"), (-1, "mem", "LEAD")]
        self.numbered = numbered
        self.keys: list[Any] = list(range(len(keys))) if numbered else keys
        k = self.keys
        self.hand, self.trick, self.won = k[0:4], k[4:8], k[8:12]
        self.discard, self.stock, self.lead = k[12], k[13], k[14]

    def empty(self) -> Any:
        """Return every location, empty."""
        return [[] for _ in self.keys] if self.numbered else {key: [] for key in self.keys}


class Bound:
    """Hearts as ``hearts.rcy`` plays it, straight-line, through the game contract's calls."""

    def __init__(self, places: Places) -> None:
        self.places = places

    def new(self, seed: int) -> Any:
        """Return a game dealt from ``seed`` as the interpreter deals it."""
        st = _State()
        st.seed, st.shuffles, st.over, st.cache = seed, 0, False, None
        st.locs = self.places.empty()
        st.locs[self.places.discard].extend(range(len(SUIT)))
        st.sto = {}
        st.cycles = [[0, -1], [0, -1], [0, -1], [0, -1]]  # the game, the deals, the tricks, one trick
        self._deal(st)
        return st

    def _deal(self, st: Any) -> None:
        places, locs = self.places, st.locs
        discard, stock = locs[places.discard], locs[places.stock]
        stock.extend(reversed(discard))
        discard.clear()
        shuffle_as_random(random.Random(st.seed * 1_000_003 + st.shuffles), stock)
        st.shuffles += 1
        for p in range(PLAYERS):
            hand = locs[places.hand[p]]
            for _ in range(13):
                hand.append(stock.pop())
        st.sto[(-1, "BROKEN")] = 0

    def to_act(self, st: Any) -> list[int]:
        """Return the seat to play."""
        return [] if st.over else [st.cycles[-1][0]]

    def is_over(self, st: Any) -> bool:
        """Return whether a seat has 100 points."""
        return st.over

    def _options(self, st: Any) -> tuple[list[dict], list[int]]:
        locs = st.locs
        hand = locs[self.places.hand[st.cycles[-1][0]]]
        lead = locs[self.places.lead]
        if lead:
            led = SUIT[lead[-1]]
            cards = [c for c in hand if SUIT[c] == led] or hand
        elif st.sto[(-1, "BROKEN")] == 0:
            cards = [c for c in hand if SUIT[c] != "HEARTS"] or hand
        else:
            cards = hand
        cards = sorted(cards, key=ORDER.__getitem__)
        return [LABEL[c] for c in cards], cards

    def legal_moves(self, st: Any, seat: int) -> list[dict]:
        """Return the plays of the seat to act, as the interpreter labels and orders them."""
        if st.over or seat != st.cycles[-1][0]:
            return []
        if st.cache is None:
            st.cache = self._options(st)
        return st.cache[0]

    def advance(self, st: Any, seat: int, move: dict) -> None:
        """Play the card, and settle the trick, the deal and the game when they end."""
        labels, cards = st.cache or self._options(st)
        card = cards[labels.index(move)]
        st.cache = None
        places, locs, cycles = self.places, st.locs, st.cycles
        locs[places.hand[seat]].remove(card)
        locs[places.trick[seat]].append(card)
        lead = locs[places.lead]
        if not lead:
            lead.append(card)
        one_trick = cycles[-1]
        one_trick[0] = (one_trick[0] + 1) % PLAYERS
        trick = [locs[key] for key in places.trick]
        if not all(len(cards) == 1 for cards in trick):
            return
        cycles.pop()
        precedence = _precedence.get(SUIT[lead[-1]])
        if precedence is None:
            led = SUIT[lead[-1]]
            precedence = [100 * (SUIT[c] == led) + RANK_VALUE[RANK[c]] for c in range(len(SUIT))]
            _precedence[led] = precedence
        lead.pop()
        winner = max(range(PLAYERS), key=lambda p: precedence[trick[p][-1]])
        if any(SUIT[cards[-1]] == "HEARTS" for cards in trick):
            st.sto[(-1, "BROKEN")] = 1
        taken = locs[places.won[winner]]
        for cards in trick:
            taken.append(cards.pop())
        tricks = cycles[-1]
        tricks[0] = winner
        if any(locs[key] for key in places.hand):
            cycles.append([winner, -1])
            return
        cycles.pop()
        self._count(st)

    def _count(self, st: Any) -> None:
        places, locs, sto = self.places, st.locs, st.sto
        deals = st.cycles[-1]
        discard = locs[places.discard]
        for p in [(deals[0] + i) % PLAYERS for i in range(PLAYERS)]:
            taken = locs[places.won[p]]
            total = sum(POINTS[c] for c in taken)
            sto[(p, "SCORE")] = sto.get((p, "SCORE"), 0) + (-26 if total == 26 else total)
            discard.extend(reversed(taken))
            taken.clear()
        deals[0] = (deals[0] + 1) % PLAYERS
        if any(sto[(p, "SCORE")] >= 100 for p in range(PLAYERS)):
            st.over = True
            return
        self._deal(st)
        st.cycles += [[deals[0], -1], [deals[0], -1]]

    def scores(self, st: Any) -> list[int]:
        """Return each seat's points."""
        return [st.sto[(p, "SCORE")] for p in range(PLAYERS)]


class _State:
    __slots__ = ("seed", "shuffles", "locs", "sto", "cycles", "over", "cache")


def play(
    new: Callable[[int], Any], game: Any, seeds: range, scores: Callable[[Any], list] | None = None
) -> tuple[int, list]:
    """Play one random game per seed as ``bench/recycle.py`` does; return the moves and each game's scores."""
    moves, results = 0, []
    for seed in seeds:
        rng = random.Random(seed)
        state = new(seed)
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            legal = game.legal_moves(state, seat)
            game.advance(state, seat, legal[int(rng.random() * len(legal))])
            moves += 1
        if scores is not None:
            results.append(scores(state))
    return moves, results


def sides() -> dict[str, tuple[Callable[[int], Any], Any]]:
    """Return each side's start of a game and the object that plays it."""
    hand = GAMES["hearts"]
    found: dict[str, tuple[Callable[[int], Any], Any]] = {
        "hand-written": (lambda seed: hand.new(PLAYERS, {"preset": "cardstock"}, seed), hand),
        "RECYCLE": (lambda seed: RECYCLE.new(PLAYERS, None, seed), RECYCLE),
    }
    for label, numbered in (("bound", False), ("bound, list", True)):
        bound = Bound(Places(numbered))
        found[label] = (bound.new, bound)
    return found


def check_same_games(seeds: range) -> None:
    """Stop unless both bounds play every seed's game as the interpreter does."""
    new, game = sides()["RECYCLE"]
    expected = play(new, game, seeds, lambda st: RECYCLE.result(st)["scores"])
    for label in ("bound", "bound, list"):
        new, bound = sides()[label]
        found = play(new, bound, seeds, bound.scores)
        if found != expected:
            sys.exit(f"{label} plays other games than the interpreter: {found} != {expected}")


def main(argv: list[str] | None = None) -> int:
    """Check the bounds play the interpreter's games, then print each side's time per move."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=10, help="games per round")
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--once", metavar="SIDE", help="play one round of SIDE, for callgrind")
    args = parser.parse_args(argv)
    seeds = range(args.seed, args.seed + args.games)
    chosen = sides()
    if args.once:
        new, game = chosen[args.once]
        play(new, game, range(args.seed + 10_000, args.seed + 10_000 + args.games))  # the warm-up
        moves = functools.reduce(lambda _, __: play(new, game, seeds)[0], [None], 0)
        print(f"{args.once}: {moves} moves")
        return 0
    check_same_games(seeds)
    best: dict[str, float] = {}
    for _ in range(args.rounds):
        for label, (new, game) in chosen.items():
            started = time.process_time()
            moves, _ = play(new, game, seeds)
            best[label] = min(best.get(label, float("inf")), (time.process_time() - started) / moves)
    print(f"Hearts, {args.games} games a round, least of {args.rounds} rounds of CPU time (same games)")
    for label, seconds in best.items():
        ratio = seconds / best["hand-written"]
        print(f"  {label:<13} {1e6 * seconds:6.2f} us/move  {ratio:5.2f}x the hand-written")
    return 0


if __name__ == "__main__":
    sys.exit(main())
