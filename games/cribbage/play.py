"""The play's scoring: what a card scores as it joins the current count.

Kept apart from the game so the arranged sequences of the tests (and the bots)
can score a count without a state.
"""

from __future__ import annotations

from collections.abc import Sequence

from games.cribbage.scoring import VALUES

FITS: tuple[int, ...] = tuple(
    sum(1 << card for card in range(52) if VALUES[card % 13] <= room) for room in range(32)
)
"""``FITS[room]``: the mask of cards whose value is at most ``room`` (31 minus the count)."""

PAIR_POINTS = (0, 0, 2, 6, 12)  # by the number of cards of one rank at the end


def peg_items(pile: Sequence[int], count: int) -> list[tuple[str, int]]:
    """Return what the last card of ``pile`` scores, as ``[(kind, points), ...]``.

    ``pile`` is the current count's cards (indexes) in play order, the new card
    last; ``count`` is the running count with it. Kinds: ``fifteen``,
    ``thirty-one``, ``pair`` (2, 6 or 12 for 2, 3 or 4 of a rank at the end), ``run``
    (the longest run of 3 or more at the end, in any order).
    """
    items: list[tuple[str, int]] = []
    if count == 15:
        items.append(("fifteen", 2))
    elif count == 31:
        items.append(("thirty-one", 2))
    ranks = [card % 13 for card in pile]
    last = ranks[-1]
    same = 1
    while same < len(ranks) and ranks[-1 - same] == last:
        same += 1
    if same > 1:
        items.append(("pair", PAIR_POINTS[same]))
        return items  # a pair at the end rules out any run ending there
    for size in range(len(ranks), 2, -1):
        tail = ranks[-size:]
        if max(tail) - min(tail) == size - 1 and len(set(tail)) == size:
            items.append(("run", size))
            break
    return items


def peg_points(pile: Sequence[int], count: int) -> int:
    """Return the points the last card of ``pile`` scores (the sum of ``peg_items``)."""
    return sum(points for _, points in peg_items(pile, count))
