"""Readable names for what a RECYCLE program calls its places and stores.

CardStock's files name things in one uppercase run (``TRICKSWON``,
``SCOREHAND``, ``POINTSHIGH``); a player should read "Tricks won".
``readable`` splits such a run into the card-table words it is made of,
longest first, and leaves any run it cannot split whole.
"""

from __future__ import annotations

import re
from functools import cache

_VOCABULARY = """
    ace aces all eight award basic bet bid blind book books broken bundle bundles called callers card cards
    cash cat chips clubs coin color colour
    count court crib deal dealer deck diamonds discard discarded draw duck
    extra fifth final finished first foreign aid fourth game games got hand hands hearts held hidden
    high holding hundred imp in jack kings knaves last lead leaster led lied low match meld melds
    million dollars multiplier negative neg opposition pair pairs partner pass passed passes penalty
    pick picked picker pile piles play played player points pool precedence prize proc queens quit
    rank round rounds row rows run score scored scores scoring second seventh shoots short shuffle sixth
    spades spare stack stealable stock suit sum table taken temp third throw out top total trick
    tricks trump trumps turn union upcard value values who win wins won
    alone avoid bad bags bounty close color colour course current drawn face from gift is level
    lives life mess middle move moved my one two three four five six passing phase pips pot positive
    quack quacked raise ready reveal sequence smudge start state testing turned up war water winner
    highest bids simon primiera assassinatable size knock worth
"""
COMPUTED = "One of the piles"  # a place whose name the program computes in play
# Short forms CardStock's authors wrote, said in full (Sheepshead's TSCORE: the points of the
# cards won in tricks; TSUM: how many cards were won).
_SHORT = {
    "nump": ("number", "of", "players"), "tscore": ("trick", "points"), "tsum": ("trick", "cards"),
    "bett": ("bet",), "psize": ("pile", "size"),
}  # fmt: skip
_WORDS = frozenset(_VOCABULARY.split()) | {w for words in _SHORT.values() for w in words}
_LONGEST = max(len(word) for word in _WORDS)


@cache
def _split(run: str) -> tuple[str, ...] | None:
    """Split a lowercase run into known words, preferring the fewest words; None if it cannot."""
    if not run:
        return ()
    if run in _SHORT:
        return _SHORT[run]
    best: tuple[str, ...] | None = None
    for end in range(min(len(run), _LONGEST), 0, -1):
        head = run[:end]
        if head not in _WORDS:
            continue
        rest = _split(run[end:])
        if rest is not None and (best is None or len(rest) + 1 < len(best)):
            best = (head, *rest)
    return best


def spelled_out(name: str) -> bool:
    """Return whether every part of a program's name is a word ``readable`` knows
    (``TRICKSWON`` is; ``NUMP``, ``TSCORE`` are not)."""
    parts = [p for p in re.split(r"[\s_\-]+|(?<=[a-z])(?=[A-Z])", name.strip()) if p]
    return bool(parts) and all(_split(p.lower()) is not None for p in parts)


def readable(name: object) -> str:
    """Return a program's name as words a player reads: ``TRICKSWON`` becomes ``Tricks won``.

    A name computed in play (``(game vloc 'C)``, a parse node, not a str) has no words
    of its own before play: it reads "One of the piles".
    """
    if not isinstance(name, str):
        return COMPUTED
    words: list[str] = []
    for part in re.split(r"[\s_\-]+|(?<=[a-z])(?=[A-Z])", name.strip()):
        if not part:
            continue
        lower = part.lower()
        words.extend(_split(lower) or (lower,))
    text = " ".join(words)
    return text[:1].upper() + text[1:]
