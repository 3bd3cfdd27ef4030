"""A RECYCLE operand said in English: the words ``describe`` builds the rules text from.

``ValuePhrases.value`` says an operand ("your Hand", "the top card of the Stock",
"T's Score is at least 7"); ``phrases_actions.Phrases`` adds the actions. The
current player is "you" (a player reading the rules is the one on turn). Every
form of the grammar has a phrase, so any description that loads can be said;
names go through ``names.readable``.
"""

from __future__ import annotations

import re

from games.recycle.names import readable
from games.recycle.syntax import Node

# Card attribute values as a player says them (RANK A is "ace", TWO is "2").
_VALUE_WORDS = {
    "A": "ace", "K": "king", "Q": "queen", "J": "jack", "TWO": "2", "THREE": "3", "FOUR": "4",
    "FIVE": "5", "SIX": "6", "SEVEN": "7", "EIGHT": "8", "NINE": "9", "TEN": "10", "ONE": "1",
    "ACE": "ace", "KING": "king", "QUEEN": "queen", "JACK": "jack",
}  # fmt: skip
_ARITH = {"+": "plus", "-": "minus", "*": "times", "//": "divided by", "%": "modulo", "^": "to the power"}
_COMPARE = {
    "==": "is", "!=": "is not", "<": "is less than", ">": "is more than",
    "<=": "is at most", ">=": "is at least",
}  # fmt: skip
_WHO = {"current": "you", "next": "the next player", "previous": "the previous player"}
_TEAM_WHO = {
    "current": "your team",
    "next": "the next player's team",
    "previous": "the previous player's team",
}
_CARD_SOURCES = frozenset(
    {"game_location", "owned_location", "top_n", "bottom_n", "union", "sort", "intersect", "disjunction"}
)
LOCATION_KINDS = {
    "iloc": "seen only by its owner",
    "vloc": "face up, seen by everyone",
    "hloc": "face down, seen by no one",
    "mem": "remembered copies of cards",
}


def word(name: str) -> str:
    """Return a card attribute's value as a player says it: ``EIGHT`` is "8", ``CLUBS`` "clubs"."""
    return _VALUE_WORDS.get(name) or readable(name).lower()


def place(name: str) -> str:
    """Return a place's, store's or attribute's name as a player reads it (``TRICKSWON``: "Tricks won")."""
    return readable(name)


def possessive(owner: str) -> str:
    """Return ``owner``'s possessive: "you" is "your", "P" is "P's"."""
    if owner == "you":
        return "your"
    if owner == "your team":
        return "your team's"
    return owner + "'s"


def owned(owner: str, name: str) -> str:
    """Return ``name`` of ``owner``: "your Hand", "P's Hand", "the Won of the owner of ..."."""
    if len(owner.split()) > 4:
        return f"the {name} of {owner}"
    return f"{possessive(owner)} {name}"


def series(items: list[str], joiner: str = "and") -> str:
    """Return ``items`` as "a, b and c"."""
    items = [item for item in items if item]
    if len(items) <= 1:
        return "".join(items)
    return ", ".join(items[:-1]) + f" {joiner} " + items[-1]


class ValuePhrases:
    """Says the operands of one description; ``declared`` names its declared variables."""

    def __init__(self, declared: frozenset[str] = frozenset()) -> None:
        self.declared = declared

    # Values -----------------------------------------------------------------

    def value(self, node: object) -> str:
        """Return an operand (a value, a collection, a condition) as words."""
        if isinstance(node, str):
            return _WHO.get(node, word(node))
        if isinstance(node, int):
            return str(node)
        if not isinstance(node, Node):
            return str(node)
        method = getattr(self, "_v_" + node.kind, None)
        if method is None:
            return node.kind.replace("_", " ")
        return method(*node.args)

    def _name(self, name: object) -> str:
        return place(name) if isinstance(name, str) else self.value(name)

    def _v_var(self, name: str) -> str:
        # A declared name or a long one reads as words ('PLAYABLE: "Playable"); a letter stays.
        return place(name) if name in self.declared or len(name) > 2 else name

    def _v_name(self, name: str) -> str:
        return "none" if name == "NONE" else word(name)

    def _v_number(self, number: int) -> str:
        return str(number)

    def _v_all_players(self) -> str:
        return "the players"

    def _v_all_teams(self) -> str:
        return "the teams"

    def _v_game_location(self, kind: str, name: object) -> str:
        return "the " + self._name(name)

    def _v_owned_location(self, owner: Node, kind: str, name: object) -> str:
        return owned(self.value(owner), self._name(name))

    def _v_game_storage(self, name: object) -> str:
        return "the game's " + self._name(name)

    def _v_owned_storage(self, owner: Node, name: object) -> str:
        return owned(self.value(owner), self._name(name))

    _v_game_string = _v_game_storage
    _v_owned_string = _v_owned_storage

    def _v_game_points(self, name: object) -> str:
        return f"the {self._name(name)} points"

    def _v_owned_points(self, owner: Node, name: object) -> str:
        return f"{possessive(self.value(owner))} {self._name(name)} points"

    def _v_player(self, who: object) -> str:
        if isinstance(who, int):
            return f"player {who + 1}"
        return _WHO.get(str(who), str(who))

    def _v_team_of_cycle(self, who: object) -> str:
        if isinstance(who, int):
            return f"team {who + 1}"
        return _TEAM_WHO.get(str(who), str(who))

    def _v_team_of(self, of: Node) -> str:
        return possessive(self.value(of)) + " team"

    def _v_owner(self, of: Node) -> str:
        return f"the owner of {self.value(of)}"

    def _v_other_players(self) -> str:
        return "the other players"

    def _v_other_teams(self) -> str:
        return "the other teams"

    def _v_top(self, of: Node) -> str:
        return f"the top card of {self.value(of)}"

    def _v_bottom(self, of: Node) -> str:
        return f"the bottom card of {self.value(of)}"

    def _v_top_n(self, count: Node, of: Node) -> str:
        return f"the top {self.value(count)} cards of {self.value(of)}"

    def _v_bottom_n(self, count: Node, of: Node) -> str:
        return f"the bottom {self.value(count)} cards of {self.value(of)}"

    def _v_nth(self, index: int, of: Node) -> str:
        return f"item {index + 1} of {self.value(of)}"

    def _v_actual(self, of: Node) -> str:
        return f"the card {self.value(of)} itself"

    def _v_max_card(self, of: Node, using: Node) -> str:
        return f"the highest card of {self.value(of)} by {self._points(using)}"

    def _v_min_card(self, of: Node, using: Node) -> str:
        return f"the lowest card of {self.value(of)} by {self._points(using)}"

    def _v_sort(self, of: Node, using: Node) -> str:
        return f"{self.value(of)} in order of {self.value(using)}"

    def _v_union(self, *parts: Node) -> str:
        if len(parts) == 1 and isinstance(parts[0], Node) and parts[0].kind == "agg":
            _, over, var, body = parts[0].args
            said = self.value(body)
            if isinstance(over, Node) and over.kind in ("all_players", "all_teams", "other_players"):
                whom = {"all_players": "every player", "all_teams": "every team"}.get(
                    over.kind, "every other player"
                )
                if f"{var}'s" in said:
                    return said.replace(f"{var}'s", f"{whom}'s") + " together"
            return f"the cards of {said} for {self._domain(over, var, 'every')}"
        return series([self.value(p) for p in parts]) + (" together" if len(parts) > 1 else "")

    def _v_intersect(self, *parts: Node) -> str:
        return "the cards in all of " + series([self.value(p) for p in parts])

    def _v_disjunction(self, *parts: Node) -> str:
        return "the cards in exactly one of " + series([self.value(p) for p in parts])

    def _v_tuples(self, count: Node, of: Node, using: Node) -> str:
        return f"the sets of {self.value(count)} cards of {self.value(of)} equal in {self.value(using)}"

    def _v_partition(self, *parts: Node) -> str:
        *attrs, of = parts
        return f"the cards of {self.value(of)} grouped by {series([self.value(a) for a in attrs])}"

    def _v_subsets(self, of: Node) -> str:
        return f"every group of cards of {self.value(of)}"

    def _v_runs(self, kind: str, of: Node, attr: Node, using: Node) -> str:
        which = "the longest runs" if kind == "largest" else "the runs"
        return f"{which} in {self.value(attr)} of {self.value(of)} by {self.value(using)}"

    def _v_run(self, end: str, of: Node, attr: Node, using: Node) -> str:
        return f"the run in {self.value(attr)} from the {end} of {self.value(of)} by {self.value(using)}"

    def _v_range(self, low: Node, high: Node) -> str:
        return f"the numbers from {self.value(low)} to {self.value(high)}"

    def _v_random(self, low: Node, high: Node | None = None) -> str:
        if high is None:
            return f"a random one of {self.value(low)}"
        return f"a random number from {self.value(low)} to {self.value(high)}"

    def _v_triangular(self, of: Node) -> str:
        return f"the triangular number of {self.value(of)}"

    def _v_fibonacci(self, of: Node) -> str:
        return f"the Fibonacci number of {self.value(of)}"

    def _v_filter(self, of: Node, var: str, condition: Node) -> str:
        return f"the cards {self._v_var(var)} of {self.value(of)} where {self.value(condition)}"

    def _v_size(self, of: Node) -> str:
        if isinstance(of, Node) and of.kind == "filter":
            return f"the number of {self._such(of)}"
        return f"the number of cards in {self.value(of)}"

    def _such(self, of: Node, noun: str = "cards") -> str:
        """Say a filter as "cards C in your Hand where ..." (``noun``: "card" for one)."""
        var, where = self._v_var(of.args[1]), self.value(of.args[2])
        return f"{noun} {var} in {self.value(of.args[0])} where {where}"

    def _v_sum(self, of: Node, using: Node) -> str:
        return f"the total of {self.value(of)} in {self._points(using)}"

    def _points(self, using: object) -> str:
        """Say a point map: "the Score points" (a ``put points`` variable is a map too)."""
        if isinstance(using, Node) and using.kind == "var":
            return f"the {self._v_var(using.args[0])} points"
        return self.value(using)

    def _v_score(self, of: Node, using: Node) -> str:
        return f"the value of {self.value(of)} in {self._points(using)}"

    def _v_cardatt(self, attr: Node, card: Node) -> str:
        return f"the {self.value(attr).lower()} of {self.value(card)}"

    def _v_arith(self, op: str, left: Node, right: Node) -> str:
        return f"{self.value(left)} {_ARITH.get(op, op)} {self.value(right)}"

    def _v_compare(self, op: str, left: Node, right: Node) -> str:
        if (
            isinstance(left, Node)
            and left.kind == "size"
            and isinstance(right, Node)
            and right.kind == "number"
        ):
            of = left.args[0]
            if (
                isinstance(of, Node)
                and of.kind == "filter"
                and right.args[0] == 0
                and op in ("==", "<=", "!=", ">")
            ):
                there = "there is no" if op in ("==", "<=") else "there is a"
                return f"{there} {self._such(of, 'card')}"
            if right.args[0] == 0 and op in ("==", "<="):
                return f"{self.value(of)} is empty"
            if right.args[0] == 0 and op in ("!=", ">"):
                return f"{self.value(of)} is not empty"
        return f"{self.value(left)} {_COMPARE.get(op, op)} {self.value(right)}"

    def _v_logic(self, op: str, *parts: Node) -> str:
        said = [self.value(p) for p in parts]
        return series(said, op) if len(said) < 3 else "; ".join(said[:-1]) + f"; {op} " + said[-1]

    def _v_negate(self, of: Node) -> str:
        return f"it is not so that {self.value(of)}"

    def _v_names(self, *names: str) -> str:
        return series([word(n) for n in names], "or")

    def _v_agg(self, quantifier: str, over: Node, var: str, body: Node) -> str:
        which = "some" if quantifier == "any" else "every"
        return f"for {self._domain(over, var, which)}, {self.value(body)}"

    def chosen(self, over: object, var: str, which: str) -> str:
        """Say one item ``var`` of ``over``: "a card C of your Hand where ...", "each player P"."""
        noun = self.noun(over)
        shown = self._v_var(var)
        head = f"{which} {noun} {shown}" if noun else (shown if which == "a" else f"{which} {shown}")
        if isinstance(over, Node) and over.kind == "filter":
            # The filter's own variable is the one chosen: say it once ("a card C of your Hand where...").
            where = re.sub(rf"\b{re.escape(self._v_var(over.args[1]))}\b", shown, self.value(over.args[2]))
            return f"{head} of {self.value(over.args[0])} where {where}"
        if isinstance(over, Node) and over.kind in ("all_players", "all_teams"):
            return head
        return (
            f"{head} from {self.value(over)}"
            if which == "a" and not noun
            else f"{head} of {self.value(over)}"
        )

    def noun(self, over: object) -> str:
        """Return what a collection holds: "player", "team", "card", or '' when not known."""
        if not isinstance(over, Node):
            return ""
        if over.kind in ("all_players", "other_players"):
            return "player"
        if over.kind in ("all_teams", "other_teams"):
            return "team"
        if over.kind == "filter":
            return self.noun(over.args[0])
        return "card" if over.kind in _CARD_SOURCES else ""

    def _domain(self, over: Node, var: str, which: str) -> str:
        if isinstance(over, Node) and over.kind == "all_players":
            return f"{which} player {var}"
        if isinstance(over, Node) and over.kind == "all_teams":
            return f"{which} team {var}"
        if isinstance(over, Node) and over.kind == "other_players":
            return f"{which} other player {var}"
        return f"{which} {var} of {self.value(over)}"
