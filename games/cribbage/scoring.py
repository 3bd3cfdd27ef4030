"""The show's scoring: ``hand_value``, its itemised breakdown, and ``select_hand``.

Fifteens, pairs and runs depend only on the ranks of the five cards, so they are
looked up in a table built once over every multiset of five ranks (6,175 of them).
A multiset is keyed by an integer holding three bits per rank count, which makes
keys additive: the key of a hand plus the key of a start rank is the key of the
five cards. Flush and nobs, the only suit-dependent points, are added apart.

``select_hand`` uses the same additivity: for each way of keeping four cards it
reads one row of 13 values (one per start rank) and weights each by how many
start cards of that rank are left, so it never scores a single five-card hand.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from itertools import combinations
from typing import Any

from games.cards import CARD_NAMES, JACK, parse_card, sort_names

VALUES: tuple[int, ...] = tuple(min(rank + 1, 10) for rank in range(13))
"""Counting value of each rank: A = 1 .. 9, then 10 for T J Q K."""

RANK_KEY: tuple[int, ...] = tuple(1 << (3 * rank) for rank in range(13))
"""Adding ``RANK_KEY[r]`` to a multiset key adds one card of rank ``r``."""


def rank_points(ranks: Sequence[int]) -> int:
    """Score fifteens, pairs and runs for ranks (0 = A .. 12 = K), counting rather than listing.

    Fifteens: the number of subsets summing to 15, by a subset-sum count. Pairs:
    ``c * (c - 1)`` points for ``c`` cards of a rank (2 for each of its pairs). Runs:
    each stretch of three or more consecutive ranks scores its length once for
    every way of picking one card of each rank. Used to build the tables.
    """
    ways = [1] + [0] * 15  # ways[t]: subsets of the cards so far that sum to t
    for rank in ranks:
        value = VALUES[rank]
        for total in range(15, value - 1, -1):
            ways[total] += ways[total - value]
    counts = [0] * 14  # a trailing zero closes the last stretch
    for rank in ranks:
        counts[rank] += 1
    points = 2 * ways[15] + sum(c * (c - 1) for c in counts)
    length, product = 0, 1
    for count in counts:
        if count:
            length, product = length + 1, product * count
            continue
        if length >= 3:
            points += length * product
        length, product = 0, 1
    return points


def _is_run(ranks: Sequence[int]) -> bool:
    """Return whether distinct consecutive ranks make up ``ranks``, in any order."""
    return len(set(ranks)) == len(ranks) and max(ranks) - min(ranks) == len(ranks) - 1


def rank_multisets(size: int) -> Iterable[tuple[int, ...]]:
    """Yield every multiset of ``size`` ranks with no rank more than four times."""
    for combo in combinations(range(13 + size - 1), size):
        ranks = tuple(c - i for i, c in enumerate(combo))  # stars and bars
        if all(ranks.count(r) <= 4 for r in set(ranks)):
            yield ranks


def _key(ranks: Iterable[int]) -> int:
    return sum(RANK_KEY[r] for r in ranks)


FIVE_POINTS: dict[int, int] = {_key(ranks): rank_points(ranks) for ranks in rank_multisets(5)}
"""Fifteens + pairs + runs of five cards, by rank multiset key."""

KEEP_ROWS: dict[int, tuple[int, ...]] = {
    _key(ranks): tuple(FIVE_POINTS.get(_key(ranks) + RANK_KEY[r], 0) for r in range(13))
    for ranks in rank_multisets(4)
}
"""For four ranks, the rank points with each start rank (0 where a fifth is impossible)."""


def score_cards(hand: Sequence[int], start: int, crib: bool = False) -> int:
    """Return the show's points for four card indexes and a start card index.

    The hot path: no checks. ``crib`` makes only a five-card flush count.
    """
    a, b, c, d = hand
    points = KEEP_ROWS[RANK_KEY[a % 13] + RANK_KEY[b % 13] + RANK_KEY[c % 13] + RANK_KEY[d % 13]][start % 13]
    suit = a // 13
    if b // 13 == suit and c // 13 == suit and d // 13 == suit:
        if start // 13 == suit:
            points += 5
        elif not crib:
            points += 4
    if start - start % 13 + JACK in hand:
        points += 1  # his nobs; the start card itself is never in the hand
    return points


def parse_show(hand: Sequence[str], start: str) -> tuple[list[int], int]:
    """Turn four card strings and a start card into indexes; raise ``ValueError`` if not a show."""
    if isinstance(hand, str) or not isinstance(hand, Sequence) or len(hand) != 4:
        raise ValueError(f"a hand is a list of four cards, not {hand!r}")
    cards = [parse_card(name) for name in hand]
    start_card = parse_card(start)
    if len({*cards, start_card}) != 5:
        raise ValueError(f"the hand {list(hand)} and start card {start!r} repeat a card")
    return cards, start_card


def hand_value(hand: Sequence[str], start: str, crib: bool = False) -> int:
    """Return the points four cards score with ``start`` in the show (RULES.md, Cribbage).

    ``hand_value(["5H", "5S", "5C", "JD"], "5D") == 29``. With ``crib=True`` a
    flush counts only when the start card matches too.
    """
    cards, start_card = parse_show(hand, start)
    return score_cards(cards, start_card, crib)


def breakdown_cards(hand: Sequence[int], start: int, crib: bool = False) -> list[dict[str, Any]]:
    """Return every scoring combination of a show as ``{"kind", "cards", "points"}`` items.

    Kinds, in order: ``fifteen``, ``pair``, ``run`` (each way it can be made),
    ``flush``, ``nobs``. Cards are strings in card order; the points add up to
    ``score_cards``.
    """
    five = sorted([*hand, start])
    items: list[dict[str, Any]] = []

    def add(kind: str, cards: Iterable[int], points: int) -> None:
        items.append({"kind": kind, "cards": [CARD_NAMES[c] for c in sorted(cards)], "points": points})

    for size in range(2, 6):
        for combo in combinations(five, size):
            if sum(VALUES[c % 13] for c in combo) == 15:
                add("fifteen", combo, 2)
    for a, b in combinations(five, 2):
        if a % 13 == b % 13:
            add("pair", (a, b), 2)
    for size in range(5, 2, -1):
        runs = [combo for combo in combinations(five, size) if _is_run([c % 13 for c in combo])]
        for combo in sorted(runs, key=lambda combo: sorted(c % 13 for c in combo)):
            add("run", combo, size)
        if runs:
            break
    suit = hand[0] // 13
    if all(c // 13 == suit for c in hand):
        if start // 13 == suit:
            add("flush", five, 5)
        elif not crib:
            add("flush", hand, 4)
    nob = start - start % 13 + JACK
    if nob in hand:
        add("nobs", (nob,), 1)
    return items


def hand_breakdown(hand: Sequence[str], start: str, crib: bool = False) -> dict[str, Any]:
    """Return the itemised show of four cards with ``start``: what the page lists.

    ``{"items": [{"kind", "cards", "points"}, ...], "points": {kind: subtotal},
    "total": n}``, kinds ``fifteen pair run flush nobs``; ``total`` equals
    ``hand_value(hand, start, crib)``.
    """
    cards, start_card = parse_show(hand, start)
    items = breakdown_cards(cards, start_card, crib)
    subtotals = dict.fromkeys(("fifteen", "pair", "run", "flush", "nobs"), 0)
    for item in items:
        subtotals[item["kind"]] += item["points"]
    return {"items": items, "points": subtotals, "total": sum(subtotals.values())}


def keep_totals(cards: Sequence[int]) -> list[tuple[int, tuple[int, ...]]]:
    """For each way to keep four of ``cards``, the sum of its show over every possible start.

    Returns ``[(total, kept), ...]`` in ``combinations`` order; divide a total by
    ``52 - len(cards)`` for the average. A start card is any card not in ``cards``.
    """
    rank_left = [4] * 13
    suit_left = [13] * 4
    for card in cards:
        rank_left[card % 13] -= 1
        suit_left[card // 13] -= 1
    starts = 52 - len(cards)
    totals = []
    for kept in combinations(cards, 4):
        a, b, c, d = kept
        row = KEEP_ROWS[RANK_KEY[a % 13] + RANK_KEY[b % 13] + RANK_KEY[c % 13] + RANK_KEY[d % 13]]
        total = sum(map(int.__mul__, row, rank_left))
        suit = a // 13
        if b // 13 == suit and c // 13 == suit and d // 13 == suit:
            total += 4 * starts + suit_left[suit]  # 4 always, 5 when the start matches
        for card in kept:
            if card % 13 == JACK:
                total += suit_left[card // 13]  # his nobs, for every start of its suit
        totals.append((total, kept))
    return totals


def select_hand(cards: Sequence[str]) -> tuple[list[str], list[str]]:
    """Choose four of five or six dealt cards to keep: the greatest average show.

    Returns ``(hand, crib_cards)``, each in card order. The average is over every
    start card not among ``cards``; of several equal best, the first kept set in
    ``combinations`` order of ``cards`` is returned.
    """
    if isinstance(cards, str) or not isinstance(cards, Sequence) or len(cards) not in (5, 6):
        raise ValueError(f"select_hand takes five or six cards, not {cards!r}")
    indexes = [parse_card(name) for name in cards]
    if len(set(indexes)) != len(indexes):
        raise ValueError(f"the cards {list(cards)} repeat a card")
    _, kept = max(keep_totals(indexes), key=lambda pair: pair[0])
    hand = [CARD_NAMES[c] for c in kept]
    crib_cards = [CARD_NAMES[c] for c in indexes if c not in kept]
    return sort_names(hand), sort_names(crib_cards)
