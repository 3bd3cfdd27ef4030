"""How often each show score occurs over all 12,994,800 hands and start cards.

Scoring every (four cards, start card) pair one by one is 13 million calls. Instead
``score_counts`` walks the 1,820 multisets of four ranks and the 13 start ranks,
reads the rank points (fifteens, pairs, runs) from the table, and counts the suit
assignments in closed form: how many make a four- or five-card flush, how many
give his nobs, and how many both. ``shows_of_ranks`` is the plain enumeration of
the same counts, card by card, that the tests and the bench check it against.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from itertools import combinations, product
from math import comb

from games.cards import JACK
from games.cribbage.scoring import KEEP_ROWS, RANK_KEY, rank_multisets, score_cards

TOTAL_SHOWS = comb(52, 4) * 48  # 12,994,800


def rank_shows(ranks: Sequence[int], start_rank: int, crib: bool = False) -> Counter[int]:
    """Count the shows of every hand with these four ranks and a start of ``start_rank``, by points.

    Closed form: the rank points are the same for all of them, and only the
    flush (4 or 5, or 5 alone in the crib) and his nobs (1) vary with the suits.
    """
    counts = [ranks.count(r) for r in range(13)]
    starts = 4 - counts[start_rank]
    if starts == 0:
        return Counter()
    hands = 1
    for count in counts:
        hands *= comb(4, count)
    base = KEEP_ROWS[sum(RANK_KEY[r] for r in ranks)][start_rank]
    distinct = max(counts) == 1
    # A flush: four suits for the hand; the start matches only if its rank is new.
    flush5 = 4 if distinct and counts[start_rank] == 0 else 0
    flush4 = 12 if distinct else 0
    jacks = counts[JACK]
    if start_rank == JACK or jacks == 0:
        nobs = 0  # the start jack's own suit-mate would be itself
    elif counts[start_rank] == 0:
        nobs = hands * jacks  # each hand jack meets one start card of its suit
    else:
        # The start's suit must be a jack's suit and not a suit of its rank in hand.
        others = hands // (comb(4, jacks) * comb(4, counts[start_rank]))
        nobs = 4 * comb(3, jacks - 1) * comb(3, counts[start_rank]) * others
    both = 4 if flush5 and jacks == 1 and start_rank != JACK else 0
    shows = Counter()
    shows[base + 6] += both
    shows[base + 5] += flush5 - both
    shows[base + (0 if crib else 4)] += flush4
    shows[base + 1] += nobs - both
    shows[base] += hands * starts - flush5 - flush4 - (nobs - both)
    return +shows


def score_counts(crib: bool = False) -> Counter[int]:
    """Count all 12,994,800 shows (four cards, one of the 48 other start cards) by points."""
    total: Counter[int] = Counter()
    for ranks in rank_multisets(4):
        for start_rank in range(13):
            total.update(rank_shows(ranks, start_rank, crib))
    return total


def shows_of_ranks(ranks: Sequence[int], start_rank: int, crib: bool = False) -> Counter[int]:
    """The same count as ``rank_shows``, by scoring every hand and start card one by one."""
    per_rank = [
        [tuple(13 * suit + rank for suit in suits) for suits in combinations(range(4), ranks.count(rank))]
        for rank in sorted(set(ranks))
    ]
    shows: Counter[int] = Counter()
    for parts in product(*per_rank):
        hand = [card for part in parts for card in part]
        for suit in range(4):
            start = 13 * suit + start_rank
            if start not in hand:
                shows[score_cards(hand, start, crib)] += 1
    return shows


def mean(counts: Counter[int]) -> float:
    """Return the average points of a score count."""
    return sum(points * n for points, n in counts.items()) / sum(counts.values())
