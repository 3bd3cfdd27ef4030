"""The kinds of RECYCLE values, and the kind each form stands for (checked at load time).

Runtime values: a number is an int; a string a str; a player a seat number; a
team ``("team", t)``; a card ``(location key, card)`` or ``None`` (no such card);
a location its key ``(owner, kind, name)``; a card collection a list of cards.
"""

from __future__ import annotations

from typing import Any

from games.recycle.compiling.fast import ARITH, clamp
from games.recycle.reading.syntax import Node

NOTHING = "unbound variable"  # fits any kind, and is None at run time
INTS, POINTS, CARDSETS = "numbers", "point map", "card collections"
INT, BOOL, STR, CARD, CARDS, LOC, PLAYER, TEAM, PLAYERS, TEAMS, STRS, ACTION = (
    "number",
    "truth",
    "string",
    "card",
    "cards",
    "location",
    "player",
    "team",
    "players",
    "teams",
    "strings",
    "action",
)


class Kinds:
    """What kind of value each form is; ``program`` supplies declared variables and warnings."""

    def __init__(self, program: Any) -> None:
        self.p = program
        # While a choice's guards and collections compile: (the choice's scope, its shared
        # collections by shape), so a collection met twice is computed once a build (Choices.shared).
        self.memo: tuple[dict, dict] | None = None
        self.shared_table: dict = {}

    def kind(self, node: Node, scope: dict[str, str]) -> str:
        """Return the kind of value ``node`` stands for."""
        k = node.kind
        if k == "var":
            name = node.args[0]
            if name in scope:
                return scope[name]
            return self.p.declared_kind(name) if self.p.is_declared(name) else NOTHING
        simple = {
            "name": STR, "number": INT, "all_players": PLAYERS, "all_teams": TEAMS,
            "other_players": PLAYERS, "other_teams": TEAMS, "game_location": LOC,
            "owned_location": LOC, "game_storage": INT, "owned_storage": INT, "player": PLAYER,
            "team_of_cycle": TEAM, "team_of": TEAM, "owner": PLAYER, "actual": CARD, "max_card": CARD,
            "min_card": CARD, "union": CARDS,
            "size": INT, "sum": INT, "score": INT, "arith": INT, "cardatt": STR,
            "compare": BOOL, "logic": BOOL, "negate": BOOL, "names": STRS, "game_string": STR,
            "owned_string": STR, "game_points": POINTS, "owned_points": POINTS, "top_n": CARDS,
            "bottom_n": CARDS, "sort": CARDS, "intersect": CARDS, "disjunction": CARDS,
            "tuples": CARDSETS, "partition": CARDSETS, "subsets": CARDSETS, "runs": CARDSETS,
            "run": CARDS, "range": INTS, "random": INT, "triangular": INT, "fibonacci": INT,
        }  # fmt: skip
        if k in simple:
            return simple[k]
        if k == "filter":  # a filter keeps the kind of what it goes through
            source = self.kind(node.args[0], scope)
            return source if source in (PLAYERS, TEAMS, STRS, INTS, CARDSETS) else CARDS
        if k in ("top", "bottom", "nth"):  # of a collection of collections: one collection
            return CARDS if self.kind(node.args[-1], scope) == CARDSETS else CARD
        if k == "agg":
            _, coll, var, body = node.args
            inner = {**scope, var: self.item_kind(coll, scope)}
            body_kind = self.kind(body, inner) if body.kind in VALUE_FORMS else ACTION
            if body_kind in (LOC, CARDS):
                return CARDS
            if body_kind == INT and body.kind in ("game_storage", "owned_storage"):
                return INT  # (all COLLECTION 'V STORAGE): the sum
            return BOOL if body_kind == BOOL else ACTION
        return ACTION

    def item_kind(self, node: Node, scope: dict[str, str]) -> str:
        """Return the kind of the items of the collection ``node``."""
        kind = self.kind(node, scope)
        items = {
            PLAYERS: PLAYER, TEAMS: TEAM, TEAM: PLAYER, STRS: STR, CARDS: CARD, LOC: CARD, INTS: INT,
            CARDSETS: CARDS,
        }  # fmt: skip
        if kind not in items:
            raise node.error(f"cannot go through a {kind}: give players, teams, cards, names or numbers")
        return items[kind]

    def expect(self, node: Node, scope: dict[str, str], *kinds: str) -> str:
        """Return ``node``'s kind, raising a located error unless it is one of ``kinds``."""
        kind = self.kind(node, scope)
        if kind == NOTHING:
            return kinds[0]
        if kind not in kinds:
            # CrazyEights4.gdl's (top (game str SUIT)): say what to write instead.
            stored_word = kind == STR and LOC in kinds
            hint = "; a stored word is no place: use it where the word goes" if stored_word else ""
            raise node.error(f"expected a {' or '.join(kinds)} here, not a {kind}{hint}")
        return kind

    def constant(self, node: Node) -> tuple[bool, Any]:
        """Return ``(True, value)`` for a literal (a number, a NAME, a declared variable)."""
        if node.kind in ("number", "name"):
            return True, node.args[0]
        if node.kind == "var" and self.p.is_declared(node.args[0]):
            return self.p.declared_constant(node.args[0])
        if node.kind == "arith":  # folded, so a declared (// 36 'NUMP) is a number at load
            (known_a, a), (known_b, b) = self.constant(node.args[1]), self.constant(node.args[2])
            if known_a and known_b and isinstance(a, int) and isinstance(b, int):
                return True, clamp(ARITH[node.args[0]](a, b))
        return False, None


VALUE_FORMS = frozenset(
    {
        "var", "name", "number", "all_players", "all_teams", "agg", "game_location", "owned_location",
        "game_storage", "owned_storage", "player", "team_of_cycle", "team_of", "owner", "other_players",
        "other_teams", "top", "bottom", "nth", "actual", "max_card", "min_card", "union", "filter",
        "size", "sum", "score", "cardatt", "arith", "compare", "logic", "negate", "names",
        "game_string", "owned_string", "game_points", "owned_points", "top_n", "bottom_n", "sort",
        "intersect", "disjunction", "tuples", "partition", "subsets", "runs", "run", "range", "random",
        "triangular", "fibonacci",
    }
)  # fmt: skip
