"""Cribbage scoring figures: select_hand against a naive one, and all 12,994,800 shows.

    python bench/cribbage.py [--deals N] [--brute]

1. ``select_hand`` on the same random six- and five-card deals as a naive version
   written here (every combination of every 15-sum, pair and run recounted for
   each keep and each of the 46 or 47 start cards, as the seed's hint 6 describes).
   Both must choose keeps of the same average; the speed ratio is printed.
2. The distribution of the show over every hand and start card, counted from the
   rank-multiset table with the suits counted in closed form
   (``games.cribbage.distribution.score_counts``), with the time it took, against
   the published figures. ``--brute`` also scores all 12,994,800 one by one with
   ``score_cards`` (slow: a minute or so) and checks the two agree.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections import Counter
from itertools import combinations
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from games.cards import CARD_NAMES
from games.cribbage import select_hand
from games.cribbage.distribution import TOTAL_SHOWS, mean, score_counts
from games.cribbage.scoring import score_cards

PUBLISHED = {"mean": 4.7692, 29: 4, 28: 76, 24: 3_680, 0: 1_009_008, "never": (19, 25, 26, 27)}
RANKS = "A23456789TJQK"


def naive_value(hand: list[str], start: str) -> int:
    """Score a show by recounting every combination: no tables, no shortcuts."""
    five = [*hand, start]
    rank = [RANKS.index(card[0]) for card in five]
    value = [min(r + 1, 10) for r in rank]
    points = 0
    for size in range(2, 6):
        for combo in combinations(range(5), size):
            if sum(value[i] for i in combo) == 15:
                points += 2
    for a, b in combinations(range(5), 2):
        if rank[a] == rank[b]:
            points += 2
    for size in (5, 4, 3):
        runs = 0
        for combo in combinations(range(5), size):
            ranks = sorted(rank[i] for i in combo)
            if all(ranks[i + 1] == ranks[i] + 1 for i in range(size - 1)):
                runs += 1
        if runs:
            points += size * runs
            break
    if len({card[1] for card in hand}) == 1:
        points += 5 if start[1] == hand[0][1] else 4
    if "J" + start[1] in hand:
        points += 1
    return points


def naive_select(cards: list[str]) -> tuple[list[str], list[str]]:
    """Keep the four with the best average over every start card, scoring each show afresh."""
    starts = [card for card in CARD_NAMES if card not in cards]
    best = max(combinations(cards, 4), key=lambda kept: sum(naive_value(list(kept), s) for s in starts))
    return list(best), [card for card in cards if card not in best]


def average(hand: list[str], cards: list[str]) -> float:
    """Return the naive mean value of ``hand`` over every starter not among ``cards``."""
    starts = [card for card in CARD_NAMES if card not in cards]
    return sum(naive_value(hand, s) for s in starts) / len(starts)


def bench_select(deals: int) -> None:
    """Time both selectors on the same deals and print the ratio."""
    rng = random.Random(2026)
    hands = [rng.sample(CARD_NAMES, 6 if i % 2 == 0 else 5) for i in range(deals)]
    started = time.perf_counter()
    naive = [naive_select(cards) for cards in hands]
    naive_seconds = time.perf_counter() - started
    repeats = 20
    started = time.perf_counter()
    for _ in range(repeats):
        fast = [select_hand(cards) for cards in hands]
    fast_seconds = (time.perf_counter() - started) / repeats
    for cards, (slow_hand, _), (fast_hand, _) in zip(hands, naive, fast, strict=True):
        assert abs(average(slow_hand, cards) - average(fast_hand, cards)) < 1e-9, cards
    print(f"select_hand: {deals} deals (half six cards, half five), same best averages")
    print(f"  naive:  {naive_seconds / deals * 1e3:9.3f} ms per deal")
    print(f"  select_hand: {fast_seconds / deals * 1e6:6.1f} us per deal")
    print(f"  speed ratio: {naive_seconds / fast_seconds:,.0f}x")


def brute_counts() -> Counter[int]:
    """Score every (four cards, start card) one by one: 12,994,800 calls."""
    counts: Counter[int] = Counter()
    deck = range(52)
    for hand in combinations(deck, 4):
        for start in deck:
            if start not in hand:
                counts[score_cards(hand, start)] += 1
    return counts


def bench_distribution(brute: bool) -> None:
    """Count every show, print the figures beside the published ones and the time."""
    started = time.perf_counter()
    counts = score_counts()
    seconds = time.perf_counter() - started
    total = sum(counts.values())
    print(f"\nall shows: {total:,} counted in {seconds:.3f} s (rank multisets, suits in closed form)")
    print(f"  mean {mean(counts):.4f} (published {PUBLISHED['mean']})")
    for points in (29, 28, 24, 0):
        print(f"  {points:2d} points: {counts[points]:>9,} (published {PUBLISHED[points]:,})")
    print("  never: " + ", ".join(f"{p}: {counts[p]}" for p in PUBLISHED["never"]))
    print("  every score: " + " ".join(f"{p}:{n}" for p, n in sorted(counts.items())))
    ok = (
        total == TOTAL_SHOWS
        and round(mean(counts), 4) == PUBLISHED["mean"]
        and all(counts[p] == PUBLISHED[p] for p in (29, 28, 24, 0))
        and not any(counts[p] for p in PUBLISHED["never"])
    )
    print(f"  matches the published distribution: {'yes' if ok else 'NO'}")
    crib = score_counts(crib=True)
    print(f"  as cribs (five-card flushes only): mean {mean(crib):.4f}")
    if brute:
        started = time.perf_counter()
        slow = brute_counts()
        seconds = time.perf_counter() - started
        same = "the same counts" if slow == counts else "DIFFERENT counts"
        print(f"  one by one: {sum(slow.values()):,} score_cards calls in {seconds:.1f} s, {same}")


def main() -> None:
    """Run the benchmarks."""
    formatter = argparse.RawDescriptionHelpFormatter
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=formatter)
    parser.add_argument("--deals", type=int, default=40, help="deals for the select_hand comparison")
    parser.add_argument("--brute", action="store_true", help="also score all 12,994,800 shows one by one")
    args = parser.parse_args()
    bench_select(args.deals)
    bench_distribution(args.brute)


if __name__ == "__main__":
    main()
