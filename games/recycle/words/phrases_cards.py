"""Collections of cards said in English: the top of a place, a filter ("the cards of your Hand
whose rank is 8"), a count, a sum by a point map, runs, pairs and groups.

``CardPhrases`` is the part of ``phrases.ValuePhrases`` that says them.
"""

from __future__ import annotations

import re

from games.recycle.reading.syntax import Node
from games.recycle.words.phrases_scope import Bindings
from games.recycle.words.phrases_words import is_kind_of, is_names, place, series


class CardPhrases(Bindings):
    """Says the collections of one description's operands (``value`` says the rest)."""

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
            with self.bind(var, noun) as called, self.spelled_out():
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
        with self.bind(var, noun, called) as called, self.spelled_out():
            said = self.value(condition)
        if is_kind_of(condition, "logic") and any(is_kind_of(p, "logic", "agg") for p in condition.args[1:]):
            return "where " + said  # "whose" would not fit each part of a nested condition
        # "the rank of that card", "the Power value of that card": "whose rank", "whose Power value"
        attribute = r"(?:[A-Za-z]+ value|[a-z]+(?: [a-z]+)?)"
        lead = re.match(rf"the ({attribute}) of {re.escape(called)}\b", said)
        if lead:
            said = "whose " + lead.group(1) + said[lead.end() :]
        elif said.startswith(f"{called}'s "):
            said = "whose " + said[len(called) + 3 :]
        else:
            return "where " + said
        said = re.sub(rf"\bthe ([a-z]+|[A-Za-z]+ value) of {re.escape(called)}\b", r"its \1", said)
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
