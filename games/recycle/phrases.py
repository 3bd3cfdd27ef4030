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
from games.recycle.phrases_scope import Bindings
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
# A count whose name already says it is a number ("your Score"); any other reads "the Broken count".
_COUNTING = frozenset(
    {
        "score", "scores", "points", "count", "total", "sum", "bid", "bids", "bet", "bets", "pot",
        "chips", "level", "round", "rounds", "lives", "life", "won",
    }
)  # fmt: skip
_FACE = {"hloc": "face-down ", "vloc": "face-up ", "iloc": "", "mem": "remembered "}
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
    if owner == "it":
        return "its"
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


def count_name(name: str) -> str:
    """Return a stored number's name as a count: "Score", "Broken count"."""
    said = place(name)
    return said if said.split()[-1].lower() in _COUNTING else f"{said} count"


class ValuePhrases(Bindings):
    """Says the operands of one description (its declared names and card attributes:
    ``Bindings``)."""

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
        return self.say_var(name)

    def _names_list(self, names: tuple, noun: str = "", joiner: str = "or") -> str:
        """Say a list of NAMEs: "ace, 2 or king"; places as they are named ("One, Two")."""
        return series([place(n) if noun in ("place", "count") else word(n) for n in names], joiner)

    def _placed(self, kind: str, name: object) -> str | None:
        """Say a place a loop names (``('P hloc 'L)``): "face-down place", else None."""
        if isinstance(name, Node) and name.kind == "var" and self.called(name.args[0]):
            called = self.called(name.args[0]) or ""
            noun = called.removeprefix("that ").removeprefix("the ")
            return f"{_FACE.get(kind, '')}{noun}"
        return None

    def _v_name(self, name: str) -> str:
        return "none" if name == "NONE" else word(name)

    def _v_number(self, number: int) -> str:
        return str(number)

    def _v_all_players(self) -> str:
        return "the players"

    def _v_all_teams(self) -> str:
        return "the teams"

    def _v_game_location(self, kind: str, name: object) -> str:
        return "the " + (self._placed(kind, name) or self._name(name))

    def _v_owned_location(self, owner: Node, kind: str, name: object) -> str:
        return owned(self.value(owner), self._placed(kind, name) or self._name(name))

    def _v_game_storage(self, name: object) -> str:
        return "the " + (count_name(name) if isinstance(name, str) else self._counted(name))

    def _v_owned_storage(self, owner: Node, name: object) -> str:
        return owned(self.value(owner), count_name(name) if isinstance(name, str) else self._counted(name))

    def _counted(self, name: object) -> str:
        """Say a count a loop names (``('P sto 'W)`` for each ``'W`` of a list): "count"."""
        said = self.value(name)
        if said.startswith(("that ", "the other")):
            return said.removeprefix("that ").removeprefix("the ")
        return said

    def _v_game_string(self, name: object) -> str:
        return "the " + self._name(name)

    def _v_owned_string(self, owner: Node, name: object) -> str:
        return owned(self.value(owner), self._name(name))

    def _v_game_points(self, name: object) -> str:
        said = self._name(name)
        return f"the {said}" if said.lower().endswith("points") else f"the {said} points"

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
        if isinstance(of, Node) and of.kind in ("max_card", "min_card"):
            return f"whoever has {self.value(of)}"
        return f"the owner of {self.value(of)}"

    def _v_other_players(self) -> str:
        return "the other players"

    def _v_other_teams(self) -> str:
        return "the other teams"

    def _v_top(self, of: Node) -> str:
        if self.noun(of) == "group":  # the first of the pairs, not a card
            return f"the first of {self.value(of)}"
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
        return self.value(of)

    def _v_max_card(self, of: Node, using: Node) -> str:
        return f"the highest card of {self.value(of)} by {self._points(using)}"

    def _v_min_card(self, of: Node, using: Node) -> str:
        return f"the lowest card of {self.value(of)} by {self._points(using)}"

    def _v_sort(self, of: Node, using: Node) -> str:
        return f"{self.value(of)} in order of their {self.points_name(using)}"

    def _v_union(self, *parts: Node) -> str:
        if len(parts) == 1 and isinstance(parts[0], Node) and parts[0].kind == "agg":
            _, over, var, body = parts[0].args
            noun = self.noun(over, var, body)
            with self.bind(var, noun) as called:
                said = self.value(body)
            if noun in ("player", "team") and said.count(called) == 1 and said.startswith(f"{called}'s "):
                whom = self.domain(over, var, "every")
                return said.replace(f"{called}'s", f"{whom}'s") + " together"
            if noun == "place" and said.endswith(noun) and called not in said:
                resolved = self.resolve(over)
                names = f" ({self._names_list(resolved.args, noun, 'and')})" if is_names(resolved) else ""
                return f"all of {said}s{names}"
            return f"the cards of {said} for {self.domain(over, var, 'every', body)}"
        return series([self.value(p) for p in parts]) + (" together" if len(parts) > 1 else "")

    def _v_intersect(self, *parts: Node) -> str:
        return "the cards in all of " + series([self.value(p) for p in parts])

    def _v_disjunction(self, *parts: Node) -> str:
        return "the cards in exactly one of " + series([self.value(p) for p in parts])

    def _v_tuples(self, count: Node, of: Node, using: Node) -> str:
        many = self.value(count)
        sets = "the pairs" if many == "2" else f"the sets of {many} cards"
        return f"{sets} of {self.value(of)} of equal {self.points_name(using)}"

    def _v_partition(self, *parts: Node) -> str:
        *attrs, of = parts
        return f"the cards of {self.value(of)} grouped by {series([self.value(a) for a in attrs])}"

    def _v_subsets(self, of: Node) -> str:
        return f"every group of cards of {self.value(of)}"

    def _v_runs(self, kind: str, length: Node, of: Node, using: Node) -> str:
        which = "the longest runs" if kind == "largest" else "the runs"
        by = self.points_name(using)
        return f"{which} of {self.value(length)} or more cards of {self.value(of)} in order of their {by}"

    def _v_run(self, end: str, length: Node, of: Node, using: Node) -> str:
        by = self.points_name(using)
        return (
            f"the run of {self.value(length)} or more cards at the {end} of {self.value(of)} "
            f"in order of their {by}"
        )

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

    def where(self, var: object, condition: Node, noun: str, called: str | None = None) -> str:
        """Say a filter's condition on its item ``var``: "whose rank is 8", "where ..."."""
        with self.bind(var, noun, called) as called:
            said = self.value(condition)
        if is_kind_of(condition, "logic") and any(is_kind_of(p, "logic", "agg") for p in condition.args[1:]):
            return "where " + said  # "whose" would not fit each part of a nested condition
        lead = re.match(rf"the ([a-z]+(?: [a-z]+)?) of {re.escape(called)}\b", said)
        if lead:
            said = "whose " + lead.group(1) + said[lead.end() :]
        elif said.startswith(f"{called}'s "):
            said = "whose " + said[len(called) + 3 :]
        else:
            return "where " + said
        said = re.sub(rf"\bthe ([a-z]+) of {re.escape(called)}\b", r"its \1", said)
        said = said.replace(f"{called}'s ", "its ")
        for joiner, said_as in (("; or its ", " or whose "), ("; and its ", " and whose ")):
            said = said.replace(joiner, said_as)
        said = said.replace("; its ", ", whose ")
        return said.replace(" or its ", " or whose ").replace(" and its ", " and whose ")

    def _v_filter(self, of: Node, var: str, condition: Node) -> str:
        noun = self.noun(of)
        if noun in ("player", "team"):
            return f"{self.value(of)} {self.where(var, condition, noun)}"
        return f"the {noun}s of {self.value(of)} {self.where(var, condition, noun)}"

    def _v_size(self, of: Node) -> str:
        of = self.resolve(of)  # a name for a filter: its cards counted
        if isinstance(of, Node) and of.kind == "filter":
            return f"the number of {self._such(of)}"
        noun = self.noun(of)
        if noun in ("player", "team", "group", "number"):
            return f"the number of {self.value(of).removeprefix('the ')}"
        return f"the number of cards in {self.value(of)}"

    def _such(self, of: Node, many: bool = True) -> str:
        """Say a filter as "cards in your Hand whose ..." (one: "card in ...")."""
        noun = self.noun(of.args[0])
        where = self.where(of.args[1], of.args[2], noun)
        if noun in ("player", "team"):
            return f"{noun}{'s' * many} of {self.value(of.args[0])} {where}"
        return f"{noun}{'s' * many} in {self.value(of.args[0])} {where}"

    def _v_sum(self, of: Node, using: Node) -> str:
        cards = self.value(of).removeprefix("the cards of ")
        return f"the total {self.points_name(using)} of the cards in {cards}"

    def points_name(self, using: object) -> str:
        """Say what a point map counts: "Penalty value" (a ``put points`` variable is a map too)."""
        if isinstance(using, Node) and using.kind == "var" and isinstance(using.args[0], str):
            said = place(using.args[0])
            return f"{said.removesuffix(' points').removesuffix('Points') or 'point'} value"
        if isinstance(using, Node) and using.kind in ("game_points", "owned_points"):
            said = self._name(using.args[-1])
            return f"{said.removesuffix(' points').removesuffix('Points') or 'point'} value"
        return f"value by {self.value(using)}"

    def _points(self, using: object) -> str:
        """Say a point map where it orders cards: "their Ranking value"."""
        return f"their {self.points_name(using)}"

    def _v_score(self, of: Node, using: Node) -> str:
        return f"the {self.points_name(using)} of {self.value(of)}"

    def _v_cardatt(self, attr: Node, card: Node) -> str:
        return f"the {self.value(attr).lower()} of {self.value(card)}"

    def _v_arith(self, op: str, left: Node, right: Node) -> str:
        return f"{self.value(left)} {_ARITH.get(op, op)} {self.value(right)}"

    def _v_compare(self, op: str, left: Node, right: Node) -> str:
        said = self._compared(op, left, right)
        # "all of your face-down places are empty": a plural subject takes "are".
        return re.sub(r"^(all of [^;]*?\)) is\b", r"\1 are", said)

    def _compared(self, op: str, left: Node, right: Node) -> str:
        if is_kind_of(right, "name") and right.args[0] == "NONE" and op in ("==", "!="):
            return f"{self.value(left)} is {'not ' * (op == '==')}set"
        if (
            isinstance(left, Node)
            and left.kind == "size"
            and isinstance(right, Node)
            and right.kind == "number"
        ):
            of = self.resolve(left.args[0])
            if (
                isinstance(of, Node)
                and of.kind == "filter"
                and right.args[0] == 0
                and op in ("==", "<=", "!=", ">")
            ):
                there = "there is no" if op in ("==", "<=") else "there is a"
                return f"{there} {self._such(of, many=False)}"
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
        return self._names_list(names)

    def _v_agg(self, quantifier: str, over: Node, var: str, body: Node) -> str:
        which = "some" if quantifier == "any" else "every"
        noun = self.noun(over, var, body)
        with self.bind(var, noun) as called:
            said = self.value(body)
        domain = self.domain(over, var, which, body)
        if said.count(called) == 1 and said.startswith(f"{called}'s ") and not re.search(r" of |\(", domain):
            return f"{domain}'s " + said[len(called) + 3 :]
        return f"for {domain}, {said}"

    def chosen(self, over: object, var: str, which: str, body: object = None) -> str:
        """Say one item ``var`` of ``over`` as a choice or loop introduces it ("a card of your
        Hand whose rank is 8", "each player"); the caller binds ``var`` for the body."""
        head = self.domain(over, var, which, body)
        over = self.resolve(over)
        if isinstance(over, Node) and over.kind == "filter":
            called = self.called(var)
            return f"{head} {self.where(over.args[1], over.args[2], self.noun(over), called)}"
        return head


def is_kind_of(node: object, *kinds: str) -> bool:
    """Return whether ``node`` is a form of one of ``kinds``."""
    return isinstance(node, Node) and node.kind in kinds


def is_names(node: object) -> bool:
    """Return whether ``node`` is a list of NAMEs."""
    return isinstance(node, Node) and node.kind == "names"
