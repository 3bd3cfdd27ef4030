"""A RECYCLE choice's options, built from the state when the choice is reached.

``any`` over a collection offers one option per item (its binding labels the
move), a ``do`` offers the product of its parts, and a guard at the choice's
level drops its branch when false. Every option is a list of ``(action, env)``
run in order when chosen, so later parts see what earlier parts did
(``remember (top TRICK)`` after the card moved there).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.recycle.compiling.cardsets import CardSets
from games.recycle.compiling.decisions import decision_tree
from games.recycle.compiling.fast import Fn, draws, memoized, shape, uses
from games.recycle.reading.kinds import CARD
from games.recycle.reading.syntax import Node

Option = tuple[tuple, list]  # (bindings, [(action, env), ...])
Options = Callable[[Any, dict], list]
ACTION_FORMS = frozenset(
    {
        "put_points", "cycle", "set", "inc", "dec", "move", "remember", "forget", "shuffle",
        "turn_pass", "repeat", "create_deck", "create_teams", "do", "guarded", "agg", "let",
    }
)  # fmt: skip


_NOTHING: list = [((), [])]


class Choices(CardSets):
    """Options of a choice; the actions themselves are compiled by ``Actions.action``."""

    def branches(self, node: Node) -> bool:
        """Return whether ``node`` offers a choice among several options (holds an action ``any``)."""
        k = node.kind
        if k == "agg":
            return node.args[0] == "any" and node.args[3].kind in ACTION_FORMS
        if k == "do":
            return any(self.branches(x) for x in node.args)
        if k == "guarded":
            return self.branches(node.args[1])
        if k == "let":
            return self.branches(node.args[2])
        return False

    def options(self, node: Node, scope: dict[str, str], top: bool = False) -> Options:
        """Compile ``node`` to a function returning its options ``[(bindings, [(action, env)])]``.

        ``top``: a part of the choice itself, where a false guard offers nothing
        (inside a ``do`` a plain guard is checked when the option runs).
        """
        k, a = node.kind, node.args
        if not top and not self.branches(node):
            act = self.action(node, scope)
            return lambda st, env: [((), [(act, env)])]
        if k == "guarded":
            cond = a[0]
            if cond.kind == "logic" and cond.args[0] == "and" and len(cond.args) in (3, 4):
                # (and P Q) or (and P Q R), the usual guards of a part, without a call for the and.
                conds = cond.args[1:]
            else:
                conds = (cond,)
            tests = [self.built_once(self.truth, x, scope) for x in conds]
            # A guard that draws is evaluated once per build: build_options may not try plays_of first.
            body = self.options(a[1], scope, top=True)
            return _guarded(tests, body, [shape(x) for x in conds], offers=not draws(cond))
        if k == "agg" and a[0] == "any" and a[3].kind in ACTION_FORMS:
            _, coll, var, body_node = a
            items = self.built_once(self.collection, coll, scope)
            inner = {**scope, var: self.item_kind(coll, scope)}
            leaf = self._leaf(body_node, inner)
            if leaf is not None:  # the usual case, made without the general machinery
                test, act = leaf
                # A guard that does not read the variable is the same for every item: checked once.
                once = test is not None and not uses(body_node.args[0], var)

                where = getattr(items, "key", None)  # a location: its cards are read here

                def per_leaf(st, env):
                    if once and not test(st, env):
                        return []
                    if once or test is None:
                        if env:
                            return [((item,), [(act, {**env, var: item})]) for item in items(st, env)]
                        if where is not None:
                            k = where(st, env)
                            cards = st.locs.get(k, ())
                            return [((item,), [(act, {var: item})]) for c in cards for item in ((k, c),)]
                        return [((item,), [(act, {var: item})]) for item in items(st, env)]
                    out = []
                    for item in items(st, env):
                        bound = {**env, var: item} if env else {var: item}
                        if test(st, bound):
                            out.append(((item,), [(act, bound)]))
                    return out

                if inner[var] == CARD and (once or test is None):
                    # The cards offered, for build_options' plays (see plays_of).
                    held = getattr(items, "held", None)
                    if once:
                        per_leaf.cards = lambda st, env: items(st, env) if test(st, env) else []
                        if held is not None:  # (its tests, its (key, cards), its form) for plays_of
                            per_leaf.held_parts = (((shape(body_node.args[0]), test),), held, shape(coll))
                    else:
                        per_leaf.cards = items
                        if held is not None:
                            per_leaf.held_parts = ((), held, shape(coll))
                    per_leaf.act_var = (act, var)
                return per_leaf
            body = self.options(body_node, inner, top=True)

            def per_item(st, env):
                out = []
                for item in items(st, env):
                    for bindings, acts in body(st, {**env, var: item}):
                        out.append(((item, *bindings), acts))
                return out

            return per_item
        if k == "let":
            # A value bound around an any (Lost Cities' cards of the colour chosen): the any still
            # offers an option per item, as CardStock's RecurseDo binds and goes on; run as an
            # action it would do its body for every item (every card of the colour played at once).
            value_node, var, body_node = a
            value = self.value(value_node, scope)
            bound = self.options(body_node, {**scope, var: self.kind(value_node, scope)}, top=top)
            return lambda st, env: bound(st, {**env, var: value(st, env)})
        if k == "do":
            parts = [(self.options(x, scope), *self._plain_guard(x, scope), self.branches(x)) for x in a]

            def product(st, env):
                combos: list = [((), [])]
                for part, test, bare, branching in parts:
                    if test is not None and not any(acts for _, acts in combos):
                        # Nothing of the option runs before this guard: it is checked now,
                        # as CardStock checks it, on the state the option starts from.
                        found = [((), [(bare, env)])] if test(st, env) else _NOTHING
                    elif branching and any(acts for _, acts in combos):
                        combos = _after(st, env, part, combos)
                        continue
                    else:
                        # A part offering nothing (an any over no items, a false guard) adds
                        # nothing to the option, as in CardStock: it does not remove it.
                        found = part(st, env) or _NOTHING
                    combos = [(b1 + b2, acts1 + acts2) for b1, acts1 in combos for b2, acts2 in found]
                return combos

            return product
        act = self.action(node, scope)
        return lambda st, env: [((), [(act, env)])]

    def built_once(self, compile_: Callable[[Node, dict], Fn], node: Node, scope: dict[str, str]) -> Fn:
        """Compile a guard or collection read while the choice is built, sharing its collections
        (filters, unions) with the choice's other parts that read the same (see ``shared``)."""
        saved = self.memo
        self.memo = (scope, self.shared_table)
        try:
            return compile_(node, scope)
        finally:
            self.memo = saved

    def shared(self, node: Node, scope: dict[str, str]) -> Fn:
        """Return the choice's one closure for the collection ``node`` (``cards`` calls it while
        ``memo`` is set): made once per build, unless it draws (each reading draws)."""
        _, table = self.memo
        key = shape(node)
        found = table.get(key)
        if found is None:
            saved, self.memo = self.memo, None
            try:
                found = self.cards(node, scope)
            finally:
                self.memo = saved
            if not draws(node):
                held = getattr(found, "held", None)
                # With a (key, cards) reading, that is the one kept; the pairs are made from it.
                found = memoized(found) if held is None else _pairs(memoized(held))
            table[key] = found
        return found

    def _leaf(self, node: Node, scope: dict[str, str]) -> tuple[Fn | None, Fn] | None:
        """Return ``(guard or None, action)`` when ``node`` offers one option (or none), else ``None``."""
        if node.kind == "guarded" and not self.branches(node.args[1]):
            return self.truth(node.args[0], scope), self.action(node.args[1], scope)
        if node.kind == "do" and node.args and self._plain_guard(node.args[0], scope)[0] is not None:
            return None  # its first guard is checked when the choice is built: the general way
        if node.kind != "guarded" and not self.branches(node):
            return None, self.action(node, scope)
        return None

    def _plain_guard(self, node: Node, scope: dict[str, str]) -> tuple[Fn | None, Fn | None]:
        """Return ``(guard, action)`` for a guard around an action that does not branch, else Nones."""
        if node.kind == "guarded" and not self.branches(node.args[1]):
            return self.truth(node.args[0], scope), self.action(node.args[1], scope)
        return None, None


def _after(st: Any, env: dict, part: Options, combos: list) -> list:
    """Return ``combos`` each followed by the options ``part`` offers on the state its actions make.

    CardStock builds a later ``any`` of an option on the state the option's earlier actions
    leave (it runs them and undoes them): Scopa's capture reads the card just played. Here
    they run on a copy; the option's actions run again on the game when it is chosen.
    """
    out = []
    for bindings, acts in combos:
        if acts:
            trial = st.copy()
            for act, bound in acts:
                act(trial, bound)
            found = part(trial, dict(env)) or _NOTHING  # a new env: nothing memoized on the game is read
        else:
            found = part(st, env) or _NOTHING
        out.extend((bindings + more, acts + then) for more, then in found)
    return out


def _guarded(tests: list[Fn], body: Options, shapes: list, offers: bool) -> Options:
    """Return the options of ``body`` when every test holds, else none (one closure for 1 to 3 tests).

    When ``body`` offers cards (``cards``, ``act_var``) and ``offers``, so does the guarded part.
    """
    cards = getattr(body, "cards", None) if offers else None
    guarded = _when(tests, body, [])
    if cards is not None:
        guarded.cards, guarded.act_var = _when(tests, cards, []), body.act_var
        held = getattr(body, "held_parts", None)
        if held is not None:  # the guard's tests first, then the body's
            guarded.held_parts = ((*zip(shapes, tests, strict=True), *held[0]), *held[1:])
    return guarded


def _when(tests: list[Fn], body: Fn, otherwise: Any) -> Fn:
    """Return ``body``'s value when every test holds, else ``otherwise`` (one closure for 1 to 3 tests)."""
    if len(tests) == 3:
        p, q, r = tests
        return lambda st, env: body(st, env) if p(st, env) and q(st, env) and r(st, env) else otherwise
    if len(tests) == 2:
        p, q = tests
        return lambda st, env: body(st, env) if p(st, env) and q(st, env) else otherwise
    (p,) = tests
    return lambda st, env: body(st, env) if p(st, env) else otherwise


def _pairs(held: Fn) -> Fn:
    """Return the collection ``[(key, card)...]`` read from ``held``'s ``(key, cards)``."""

    def pairs(st, env):
        k, cards = held(st, env)
        return [(k, c) for c in cards]

    pairs.held = held
    return pairs


def plays_plan(parts: list[Options]) -> tuple[tuple[Fn, ...], tuple, tuple | None, int, Any] | None:
    """Return, for a choice whose every part offers cards, each part's cards, its ``(action,
    variable)`` and, when every part reads one location, each part's tests (numbered, equal
    forms one number) and ``(key, cards)``, how many tests, and the loop over them as a
    decision tree (``decisions.py``; ``None`` when too large): ``runner.plays_of`` lists the
    moves from them. ``None`` when a part offers something else."""
    offers = [getattr(part, "cards", None) for part in parts]
    if None in offers:
        return None
    held = [getattr(part, "held_parts", None) for part in parts]
    if None in held:
        return tuple(offers), tuple(part.act_var for part in parts), None, 0, None
    # Tests of the same form (parts guarded alike) are one test, made at most once a build.
    ids: dict = {}
    helds = tuple(
        (tuple((ids.setdefault(form, len(ids)), test) for form, test in tests), body)
        for tests, body, _ in held
    )
    tree = decision_tree(helds, {j: form for form, j in ids.items()}, [form for _, _, form in held])
    return tuple(offers), tuple(part.act_var for part in parts), helds, len(ids), tree
