"""Compile RECYCLE's filters of cards: the usual tests made without a call per card.

``(filter C 'V (== (cardatt ATTR 'V) X))`` is one table lookup per card, ``X``
computed once; a test with one side that does not read the card computes that
side once per filter, not once per card.
"""

from __future__ import annotations

from itertools import filterfalse
from typing import Any

from games.recycle.compiling.fast import Fn, draws, uses
from games.recycle.compiling.groups import Groups
from games.recycle.reading.kinds import CARD, INT, NOTHING, STR
from games.recycle.reading.syntax import Node


class Filters(Groups):
    """The filters' fast shapes (``CardSets.cards`` tries them before the general way)."""

    def _filter_by_attribute(self, cards: Fn, test: Node, var: str, scope: dict[str, str]) -> Fn | None:
        """For ``(==|!= (cardatt ATTR 'V) X)``, ``X`` not using ``'V``: one table lookup per card.

        ``X`` is computed once per filter (expressions have no side effects);
        other tests return ``None`` and are compiled the general way.
        """
        if test.kind != "compare" or test.args[0] not in ("==", "!="):
            return None
        op, left, right = test.args
        inner = {**scope, var: CARD}
        for mine, other in ((left, right), (right, left)):
            card_node = mine.args[1] if mine.kind == "cardatt" else None
            if (
                card_node is not None
                and mine.args[0].kind == "name"
                and card_node.kind == "var"
                and card_node.args[0] == var
                and not uses(other, var)
                and self.kind(other, inner) in (STR, NOTHING)
            ):
                break
        else:
            return None
        table = self.p.attribute_table(mine.args[0].args[0])
        known, value = self.constant(other)
        side = (lambda st, env: value) if known else self.string(other, inner)
        equal = op == "=="
        where = getattr(cards, "key", None)
        if where is not None:  # a location: its cards are made only for those kept

            def kept_at(st, env):
                v = side(st, env)
                k = where(st, env)
                if equal:
                    return [(k, c) for c in st.locs.get(k, ()) if table[c] == v]
                return [(k, c) for c in st.locs.get(k, ()) if table[c] != v]

            def held(st, env):
                v = side(st, env)
                k = where(st, env)
                if equal:
                    return k, [c for c in st.locs.get(k, ()) if table[c] == v]
                return k, [c for c in st.locs.get(k, ()) if table[c] != v]

            if hasattr(cards, "held") and not draws(other):
                kept_at.held = _held_in_hand(self.p, cards, side, table, equal, (known, value)) or held
            return kept_at

        def kept(st, env):
            k = side(st, env)
            if equal:
                return [c for c in cards(st, env) if table[c[1]] == k]
            return [c for c in cards(st, env) if table[c[1]] != k]

        return kept

    def _hoist(self, test: Node, var: str, scope: dict[str, str]) -> tuple[Fn, Fn] | None:
        """For ``(OP X Y)`` where one side does not use ``var``: compute that side once per filter.

        Expressions have no side effects, so the value is the same for every card.
        Returns ``(side, check)``: ``side`` is evaluated once; ``check`` reads it as ``%side``.
        """
        if test.kind != "compare":
            return None
        _, left, right = test.args
        for index, side in ((2, right), (1, left)):
            if uses(side, var) or self.constant(side)[0] or side.kind == "var":
                continue
            kind = self.kind(side, scope)
            if kind not in (STR, INT):
                continue
            value = self.string(side, scope) if kind == STR else self.number(side, scope)
            args = list(test.args)
            args[index] = Node("var", ("%side",), side.line, side.column)
            check = self.truth(
                Node("compare", tuple(args), test.line, test.column), {**scope, var: CARD, "%side": kind}
            )
            return value, check
        return None

    @staticmethod
    def _filter_hoisted(cards: Fn, var: str, value: Fn, check: Fn) -> Fn:
        def kept(st, env):
            inner = dict(env)
            inner["%side"] = value(st, env)
            out = []
            for c in cards(st, env):
                inner[var] = c
                if check(st, inner):
                    out.append(c)
            return out

        return kept


def _held_in_hand(prog: Any, cards: Fn, side: Fn, table: list, equal: bool, constant: tuple) -> Fn | None:
    """``(filter ((current player) KIND NAME) 'V (==|!= (cardatt A 'V) X))``, ``X`` a constant
    or ``(cardatt B (top|bottom (game KIND NAME)))`` (following the led suit), as ``(key,
    cards)``, the hand's key and ``X`` read in place."""
    current, end = getattr(cards, "current", None), getattr(side, "fixed_at", None)
    if current is None:
        return None
    kind, name = current
    seats = prog.seat_keys(kind, name)
    tests, fill = prog.member_tests(table)
    keep = filter if equal else filterfalse  # the cards whose value is, or is not, X
    if end is None:
        known, v = constant
        if not known:
            return None

        def held_by_constant(st, env):
            k = seats[st.cycles[-1][0]]
            return k, list(keep(tests.get(v) or fill(v), st.locs.get(k, ())))

        return held_by_constant
    side_table, fixed, index = end

    def held(st, env):
        locs = st.locs
        led = locs.get(fixed)
        v = side_table[led[index]] if led else None
        k = seats[st.cycles[-1][0]]
        return k, list(keep(tests.get(v) or fill(v), locs.get(k, ())))

    return held
