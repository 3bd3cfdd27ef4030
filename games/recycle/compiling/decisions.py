"""A choice's listing of plays as a decision tree, made once when the description is compiled.

``runner.plays_of`` lists a choice's moves when every part offers the cards of
one location (guarded or not): it goes through the parts in order, makes each
guard's tests (a test shared by several parts once), reads the cards of each
part whose tests all hold, and stops short when two parts offer cards. Its tests
and readings have no side effects, so what one of them finds often settles
others, and that is known from their forms alone:

- ``(== X 0)`` true makes ``(== X 1)`` false and ``(!= X 0)`` false (X the same
  form, the numbers constants): the parts leading and following a trick;
- ``(== (size C) 0)`` holds exactly when a part offering the collection ``C``
  offers no card: "the hand holds only hearts" and the part offering the hand's
  other cards.

``decision_tree`` plays that loop through once for every outcome and keeps what
is left to do as a tree: a test node is a ``tuple`` ``(test, if true, if
false)``; a reading a ``list`` ``[held, part, if cards, if none]``; a leaf
``END`` (the parts are done) or ``TWICE`` (two parts offer cards: the general
way). Walking it makes the very tests and readings the loop would make, less
those already settled, in the same order.
"""

from __future__ import annotations

from typing import Any

END = 0  # every part done
TWICE = 1  # a second part offers cards
MAX_NODES = 256  # a larger tree is not made (the loop lists the plays)


def _fact(form: Any) -> tuple[Any, str, Any] | None:
    """Return ``(X, op, n)`` for ``(==|!= X n)``, ``n`` a number constant, else ``None``."""
    if type(form) is tuple and len(form) == 4 and form[0] == "compare" and form[1] in ("==", "!="):
        _, op, left, right = form
        if type(right) is tuple and len(right) == 2 and right[0] == "number":
            return left, op, right[1]
    return None


class _Facts:
    """What the tests and readings known so far settle about the others."""

    def __init__(self, forms: dict[int, Any], held_forms: list[Any]) -> None:
        self.forms = {j: _fact(form) for j, form in forms.items()}
        self.held_forms = held_forms

    def test_settled(self, j: int, known: dict[int, bool], empty: dict[Any, bool]) -> bool | None:
        """Return test ``j``'s truth when what is known settles it, else ``None``."""
        if j in known:
            return known[j]
        fact = self.forms[j]
        if fact is None:
            return None
        x, op, n = fact
        for i, value in known.items():
            other = self.forms[i]
            if other is None or other[0] != x:
                continue
            _, other_op, m = other
            if other_op == "==" and value:  # X is m
                return (m == n) == (op == "==")
            if other_op == "!=" and not value:  # X is m
                return (m == n) == (op == "==")
            if m == n:  # X is not n
                return op == "!="
        if n == 0 and type(x) is tuple and len(x) == 2 and x[0] == "size" and x[1] in empty:
            return empty[x[1]] == (op == "==")
        return None

    def cards_settled(self, part: int, known: dict[int, bool]) -> bool | None:
        """Return whether ``part``'s collection is empty when a known test settles it, else ``None``."""
        form = self.held_forms[part]
        if form is None:
            return None
        for j, value in known.items():
            fact = self.forms[j]
            if fact is not None and fact[2] == 0 and fact[0] == ("size", form):
                return value == (fact[1] == "==")
        return None


def decision_tree(helds: tuple, forms: dict[int, Any], held_forms: list[Any]) -> Any:
    """Return ``plays_of``'s loop over ``helds`` (each part's numbered tests and reading) as a
    decision tree; ``None`` when it would pass ``MAX_NODES`` nodes.

    ``forms``: each test's form (``fast.shape``); ``held_forms``: each part's collection's form,
    or ``None``.
    """
    facts = _Facts(forms, held_forms)
    made = [0]

    def walk(i: int, known: dict[int, bool], empty: dict[Any, bool], found: bool) -> Any:
        made[0] += 1
        if made[0] > MAX_NODES:
            raise _TooLarge
        while i < len(helds):
            tests, held = helds[i]
            for j, test in tests:
                value = facts.test_settled(j, known, empty)
                if value is None:
                    return (
                        test,
                        walk(i, {**known, j: True}, empty, found),
                        walk(i, {**known, j: False}, empty, found),
                    )
                if not value:
                    break
            else:
                form = held_forms[i]
                none = empty.get(form) if form is not None else None
                if none is None:
                    none = facts.cards_settled(i, known)
                if not none:
                    more = {**empty, form: False} if form is not None else empty
                    fewer = {**empty, form: True} if form is not None else empty
                    # Cards a second time mean the general way: nothing more to walk then.
                    if_cards = TWICE if found else walk(i + 1, known, more, True)
                    return [held, i, if_cards, walk(i + 1, known, fewer, found)]
            i += 1
        return END

    try:
        return walk(0, {}, {}, False)
    except _TooLarge:
        return None


class _TooLarge(Exception):
    pass


__all__ = ["END", "MAX_NODES", "TWICE", "decision_tree"]
