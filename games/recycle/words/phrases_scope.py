"""What a RECYCLE variable is called in the rules text: never its letter.

A loop or a choice binds a variable to an item of a collection; the rules call
that item by what it is ("that player", "that card", "that place", "that rank",
"the other player" when a player is already in scope). A declared name is said
as its value (``'NUMP``: "4"; ``'PLAYABLE``: "the cards of your Hand whose rank
is 8"). ``Bindings.domain`` says the collection a loop or choice goes over ("each
player", "a rank (ace, 2, ... or king)", "each place (One, Two and Three)").
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any

from games.recycle.reading.syntax import NAMED_FORMS, Node

_ORDINALS = ("that", "the other", "the third", "the fourth", "the fifth")
_CARD_SOURCES = frozenset(
    {
        "game_location", "owned_location", "top_n", "bottom_n", "union", "sort", "intersect",
        "disjunction", "filter", "tuples",
    }
)  # fmt: skip
_GROUPS = frozenset({"partition", "runs", "subsets", "tuples"})
MAX_INLINE_DEPTH = 6  # declared names said as their value, each inside the next at most this deep


class Bindings:
    """The variables in scope while a phrase is said, and the description's declared names."""

    value: Any  # ValuePhrases.value
    _names_list: Any

    def __init__(
        self, declared: dict[str, Node] | None = None, attributes: dict[str, frozenset[str]] | None = None
    ) -> None:
        self.declared = declared or {}
        self.attributes = attributes or {}
        self.bound: dict[str, tuple[str, str]] = {}  # variable -> (noun, what it is called)
        self.lets: dict[str, Node] = {}  # a ``let`` variable -> the value it stands for
        self._inlining: list[str] = []
        self.phrases: Counter[str] = Counter()  # the long values said, for ``naming.named`` to name
        self.spelled = 0  # > 0 while a phrase must say "that player's", not "their" (``spelled_out``)
        # > 0 while a choice's options are said: only there is an ``any`` a choice; elsewhere
        # CardStock runs its body for every item (``GameIterator.ProcessAgg``).
        self.choosing = 0

    @contextmanager
    def bind(self, var: object, noun: str, called: str | None = None) -> Iterator[str]:
        """Call ``var`` by ``noun`` ("that player"; "the other player" if a player is already
        in scope) while the block says its body; yield what it is called."""
        if not isinstance(var, str):
            yield called or f"that {noun}"
            return
        if called is None:
            taken = sum(1 for n, _ in self.bound.values() if n == noun)
            called = f"{_ORDINALS[min(taken, len(_ORDINALS) - 1)]} {noun}"
        before = self.bound.get(var)
        self.bound[var] = (noun, called)
        try:
            yield called
        finally:
            if before is None:
                self.bound.pop(var, None)
            else:
                self.bound[var] = before

    @contextmanager
    def among_options(self) -> Iterator[None]:
        """Say a choice's options in the block: an ``any`` there is a choice ("choose a card")."""
        self.choosing += 1
        try:
            yield
        finally:
            self.choosing -= 1

    @contextmanager
    def spelled_out(self) -> Iterator[None]:
        """Say "that player's Hand", not "their Hand", in the block: its words are then
        rewritten ("every player's Hand", "whose Hand"), which needs the owner spelled out."""
        self.spelled += 1
        try:
            yield
        finally:
            self.spelled -= 1

    def called(self, name: str) -> str | None:
        """Return what a bound variable is called, or None."""
        found = self.bound.get(name)
        return found[1] if found else None

    def say_var(self, name: str) -> str:
        """Say a variable: what it is bound to, a declared name's value, else "it"."""
        called = self.called(name)
        if called:
            return called
        if name in self.declared and name not in self._inlining and len(self._inlining) < MAX_INLINE_DEPTH:
            self._inlining.append(name)
            try:
                return self.value(self.declared[name])
            finally:
                self._inlining.pop()
        return "it"

    def resolve(self, over: object) -> object:
        """Return a collection with a declared name replaced by what it stands for."""
        seen = 0
        while isinstance(over, Node) and over.kind == "var" and seen < 8:
            name = over.args[0]
            if name in self.lets:
                over = self.lets[name]
            elif name in self.declared and name not in self.bound:
                over = self.declared[name]
            else:
                break
            seen += 1
        return over

    def noun(self, over: object, var: object = None, body: object = None) -> str:
        """Return what one item of ``over`` is: player, team, card, place, rank, number, group."""
        over = self.resolve(over)
        if not isinstance(over, Node):
            return "one"
        kind = over.kind
        if kind in ("all_players", "other_players", "team_of_cycle", "team_of", "owner", "player"):
            return "player"
        if kind in ("all_teams", "other_teams"):
            return "team"
        if kind == "filter":
            return self.noun(over.args[0])
        if kind == "names":
            return self.names_noun(over.args, var, body)
        if kind == "range":
            return "number"
        if kind in _GROUPS:
            return "group"
        if kind == "var" and over.args[0] in self.bound:
            noun = self.bound[over.args[0]][0]
            return "card" if noun in ("group", "") else "one"
        return "card" if kind in _CARD_SOURCES else "one"

    def names_noun(self, values: tuple, var: object, body: object) -> str:
        """Return what a list of NAMEs is: places when the loop names a place by it, else the
        attribute all of them are values of ("rank", "suit"), else "word"."""
        if var is not None and _names_a_place(body, var):
            return "place"
        if var is not None and _names_a_place(body, var, "storage"):
            return "count"
        for attr, known in self.attributes.items():
            if values and all(v in known for v in values):
                return attr.lower()
        return "word"

    def domain(self, over: object, var: object, which: str, body: object = None) -> str:
        """Say the collection a loop or choice goes over, with ``which`` ("each", "every",
        "some", "a"): "each player", "a card of your Hand", "each place (One and Two)"."""
        over = self.resolve(over)
        noun = self.noun(over, var, body)
        article = "an" if which == "a" and noun[:1] in "aeiou" else which
        called = (self.called(var) or "") if isinstance(var, str) else ""
        if which == "a" and called.startswith("the other "):
            article = "another"  # a second card chosen beside the first: "another card of your Hand"
        elif which == "a" and called.startswith(_ORDINALS[2:]):
            article = "a " + called.split(" ")[1]  # "choose a third card ...", then "the third card"
        if not isinstance(over, Node):
            return f"{article} {noun}"
        kind = over.kind
        if kind in ("all_players", "all_teams"):
            return f"{article} {noun}"
        if kind in ("other_players", "other_teams"):
            return f"another {noun}" if which == "a" else f"{which} other {noun}"
        if kind in ("team_of_cycle", "team_of"):
            return f"{article} player of {self.value(over)}"
        if kind == "names":
            return f"{article} {noun} ({self._names_list(over.args, noun, 'or' if which == 'a' else 'and')})"
        if kind == "range":
            low, high = (self.value(a) for a in over.args)
            return f"{article} number from {low} to {high}"
        if kind == "partition":
            *attrs, of = over.args
            same = " and ".join(self.value(a).lower() for a in attrs)
            return f"{article} group of cards of {self.value(of)} of the same {same}"
        if kind == "subsets":
            return f"{article} group of cards of {self.value(over.args[0])}"
        if kind in _GROUPS:
            return f"{'each' if which == 'every' else which} of {self.value(over)}"
        if kind == "filter":
            return self.domain(over.args[0], None, which)
        return f"{article} {noun} of {self.value(over)}"


def _names_a_place(body: object, var: object, what: str = "location") -> bool:
    """Return whether ``body`` uses the variable ``var`` as the name of a place (``what``:
    "storage", of a count)."""
    if not isinstance(body, Node):
        return False
    if body.kind in NAMED_FORMS and isinstance(body.args[-1], Node):
        last = body.args[-1]
        if last.kind == "var" and last.args[0] == var and what in body.kind:
            return True
    return any(_names_a_place(arg, var, what) for arg in body.args)
