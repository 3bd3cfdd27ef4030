"""Expected crib values, computed from the game's own show scoring and shipped as data.

A crib holds the cards its owner (the dealer's side) and the others put in, and
is scored with the start card. For a discard of one or two cards, the expected
crib value is the average of the show (``score_cards(..., crib=True)``) over
every way the other crib cards and the start card can come from the rest of the
deck, taken as random: the others' discards are not modelled (see docs/bots.md).

``python -m games.cribbage.crib_tables`` recomputes ``data/crib_tables.json``:
``pairs[r1][r2]`` for two cards of ranks r1, r2 (A = 0 .. K = 12, of different
suits), ``singles[r]`` for one card (three other crib cards). Only ranks are
kept: suits matter only through nobs and a five-card flush, a few hundredths.
"""

from __future__ import annotations

import json
from functools import cache
from itertools import combinations
from pathlib import Path

from games.cribbage.scoring import score_cards

DATA = Path(__file__).parent / "data" / "crib_tables.json"


def exact_crib_value(discards: tuple[int, ...], seen: tuple[int, ...]) -> float:
    """Return the exact expected crib value of ``discards`` (card indexes).

    The other crib cards and the start card are drawn from the cards that are
    neither discarded nor in ``seen`` (the cards the seat keeps), every way
    counted once.
    """
    rest = [c for c in range(52) if c not in discards and c not in seen]
    need = 4 - len(discards)
    total = 0
    ways = 0
    for others in combinations(rest, need):
        crib = (*discards, *others)
        for start in rest:
            if start in others:
                continue
            total += score_cards(crib, start, True)
            ways += 1
    return total / ways


def compute() -> dict[str, list]:
    """Return the crib tables, computed exactly over the rest of the deck."""
    pairs = [[0.0] * 13 for _ in range(13)]
    for r1 in range(13):
        for r2 in range(r1, 13):
            # Clubs and diamonds: two cards of different suits, as most discards are.
            value = round(exact_crib_value((r1, 13 + r2), ()), 4)
            pairs[r1][r2] = pairs[r2][r1] = value
    singles = [round(exact_crib_value((r,), ()), 4) for r in range(13)]
    return {"pairs": pairs, "singles": singles}


@cache
def tables() -> dict[str, list]:
    """Return the shipped crib tables (``pairs`` and ``singles``)."""
    return json.loads(DATA.read_text(encoding="utf-8"))


def main() -> None:
    """Recompute the tables and write them next to this module."""
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(json.dumps(compute(), indent=1) + "\n", encoding="utf-8")
    print(f"wrote {DATA}")


if __name__ == "__main__":
    main()
