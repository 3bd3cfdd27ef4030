"""The order in which a RECYCLE description first names things, for the page to follow.

A player's places read in the order the description gives them (Golf's ONE,
TWO, THREE, FOUR, declared in that order), not alphabetically (FOUR, ONE,
THREE, TWO): each name's rank is where it first appears in the description,
outside its decks and points tables, whose ranks (TWO, THREE, ...) would
otherwise put a place named TWO before one named ONE.
"""

from __future__ import annotations

import weakref
from collections.abc import Iterator

from games.recycle.compiling.program import Program
from games.recycle.reading.syntax import Node

# Forms that name cards' ranks, suits and colours, not the description's own things.
_CARD_WORDS = frozenset({"deck", "award"})

_ORDER: weakref.WeakKeyDictionary[Program, dict[str, int]] = weakref.WeakKeyDictionary()


def name_order(prog: Program) -> dict[str, int]:
    """Return each name of the description (an uppercase word) and where it first appears (0, 1, ...)."""
    known = _ORDER.get(prog)
    if known is None:
        known = {}
        for word in _words(prog.stages[0][3]):
            known.setdefault(word, len(known))
        _ORDER[prog] = known
    return known


def _words(node: object) -> Iterator[str]:
    """The string arguments of ``node`` and its children, in the order written."""
    if isinstance(node, Node):
        if node.kind in _CARD_WORDS:
            return
        for arg in node.args:
            yield from _words(arg)
    elif isinstance(node, tuple | list):
        for item in node:
            yield from _words(item)
    elif isinstance(node, str):
        yield node
