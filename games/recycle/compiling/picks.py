"""Choices among the subsets of some cards, found without listing every subset.

``(subsets C)`` makes every subset of C: 2^n of them, 16,384 for a 14-card hand.
``(filter (subsets C) 'S TEST)`` keeps those TEST holds for. Here the subsets are
searched instead: TEST's conjuncts that bound the subset's size (``(<= (size 'S)
3)``) or the sum of its points (``(== (sum 'S using M) (score (top TRICK) using
M))``) prune the search, as a player counting to the card's value would; the
other conjuncts are tested on each subset found. The subsets come out in the
order ``subsets`` makes them (card ``i`` of C is bit ``i``; the subsets in
increasing order of their bits), so a filter searched is the filter made.

A choice part ``(any (subsets C) 'S ACTION)`` or ``(any (filter (subsets C) 'S
TEST) 'S ACTION)`` is a *pick* (``pick_part``): when it has at most
``MAX_LISTED`` options they are all listed; otherwise ``SAMPLED`` of them are
(the bots choose among those) and the seat to act is told which cards it may
pick and what the set must satisfy (``Offer.describe``). A set picked is
checked against the rule (``Offer.admit``) without listing the others.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from games.recycle.compiling.fast import COMPARE, Fn, uses
from games.recycle.errors import RecycleRuntimeError
from games.recycle.reading.syntax import Node

MAX_LISTED = 64  # a pick with at most this many options lists them all
SAMPLED = 24  # else this many are listed, drawn from the seed and the move number
MAX_VISITS = 20_000  # steps of the search while a choice is built at the table
MAX_SEARCHED = 4 * 131_072  # steps of a filter's search anywhere (groups.MAX_GROUPS made at most)
FLIP = {"==": "==", "!=": "!=", "<": ">", ">": "<", "<=": ">=", ">=": "<="}


class SubsetRule:
    """A filter of ``(subsets C)`` compiled: C, the bounds on size and sums, the other tests."""

    __slots__ = ("cards", "each", "node", "once", "sizes", "sums", "tables", "var")

    def __init__(self, comp: Any, node: Node, scope: dict[str, str]) -> None:
        # ``node``: (subsets C), or (filter (subsets C) 'V TEST).
        self.node, self.tables = node, comp.p.score_table
        self.sizes: list[tuple[str, Fn]] = []
        self.sums: list[tuple[str, Fn, Fn]] = []
        self.once: list[Fn] = []
        self.each: list[Fn] = []
        if node.kind == "filter":
            source, self.var, test = node.args
            self.cards = comp.cards(source.args[0], scope)
            self.add_test(comp, test, {**scope, self.var: comp.item_kind(source, scope)})
        else:
            self.var = ""
            self.cards = comp.cards(node.args[0], scope)

    def add_test(self, comp: Any, test: Node, scope: dict[str, str], var: str | None = None) -> None:
        """Take ``test`` (on the subset bound to ``var``, by default the filter's) into the rule."""
        var = var or self.var
        conjuncts = test.args[1:] if test.kind == "logic" and test.args[0] == "and" else (test,)
        for part in conjuncts:
            if not uses(part, var):
                self.once.append(comp.truth(part, scope))
                continue
            found = _bound_of(comp, part, var, scope)
            if found is None:
                check = comp.truth(part, scope)
                self.each.append(check if var == self.var else _renamed(check, var, self.var))
            elif found[0] == "size":
                self.sizes.append(found[1:])
            else:
                self.sums.append(found[1:])

    def setting(self, st: Any, env: dict) -> Setting | None:
        """Return the rule as it stands now, or ``None`` when a test that reads no subset fails."""
        if not all(test(st, env) for test in self.once):
            return None
        return Setting(self, st, env)


def _renamed(check: Fn, var: str, name: str) -> Fn:
    return lambda st, env: check(st, {**env, var: env[name]})


def _bound_of(comp: Any, node: Node, var: str, scope: dict[str, str]) -> tuple | None:
    """``(OP (size 'V) N)`` or ``(OP (sum 'V using M) N)`` (either side), N not reading 'V."""
    if node.kind != "compare":
        return None
    op, left, right = node.args
    for this, other, how in ((left, right, op), (right, left, FLIP[op])):
        if uses(other, var) or not (this.args and isinstance(this.args[0], Node)):
            continue
        inner = this.args[0]
        if inner.kind != "var" or inner.args[0] != var:
            continue
        if this.kind == "size":
            return ("size", how, comp.number(other, scope))
        if this.kind == "sum":
            return ("sum", how, comp.points_key(this.args[1], scope), comp.number(other, scope))
    return None


class Setting:
    """A rule on one state: the cards, the bounds, and the search of the subsets allowed."""

    def __init__(self, rule: SubsetRule, st: Any, env: dict) -> None:
        self.rule, self.st, self.env = rule, st, env
        self.cards = list(rule.cards(st, env))
        n = len(self.cards)
        self.low, self.high, self.empty = 0, n, False
        self.checks: list[tuple[str, list[int], int | None]] = []  # (op, points per card, target)
        for op, bound in rule.sizes:
            value = bound(st, env)
            self.checks.append((op, [1] * n, value))
            if value is None:
                self.empty = True
            elif op in ("==", "<=", "<"):
                self.high = min(self.high, value - (op == "<"))
            if value is not None and op in ("==", ">=", ">"):
                self.low = max(self.low, value + (op == ">"))
        for op, mapname, bound in rule.sums:
            table = rule.tables(st, mapname(st, env))
            points = [table[c[1]] for c in self.cards]
            value = bound(st, env)
            self.checks.append((op, points, value))
            self.empty = self.empty or value is None
        # Checks that prune: every card's points not negative (sizes count 1 a card).
        self.pruning = [
            (op, points, value, _totals(points))
            for op, points, value in self.checks
            if value is not None and op != "!=" and min(points, default=0) >= 0
        ]

    def subset(self, mask: int) -> list:
        """Return the cards of ``mask`` in C's order."""
        return [c for i, c in enumerate(self.cards) if mask >> i & 1]

    def admits(self, mask: int) -> bool:
        """Return whether the subset ``mask`` passes every test."""
        if self.empty:
            return False
        for op, points, value in self.checks:
            total = sum(p for i, p in enumerate(points) if mask >> i & 1)
            if not COMPARE[op](total, value):
                return False
        if self.rule.each:
            env = {**self.env, self.rule.var: self.subset(mask)}
            return all(test(self.st, env) for test in self.rule.each)
        return True

    def search(self, limit: int, visits: int, rng: random.Random | None = None) -> tuple[list[int], bool]:
        """Return up to ``limit`` subsets allowed, as bit masks in ``subsets``' order, and whether
        they are all of them; the search stops after ``visits`` steps. With ``rng``, the first
        subset found on a path drawn at random (a sample) instead."""
        if self.empty or self.low > self.high:
            return [], True
        n = len(self.cards)
        found: list[int] = []
        stack = [(n, 0, 0, (0,) * len(self.pruning))]
        steps = 0
        while stack:
            i, mask, size, totals = stack.pop()
            steps += 1
            if steps > visits:
                return found, False
            if size > self.high or size + i < self.low or self._pruned(i, totals):
                continue
            if i == 0:
                if self.admits(mask):
                    found.append(mask)
                    if len(found) > limit or rng is not None:
                        return found[:limit], rng is None and False
                continue
            i -= 1
            grown = tuple(t + p[1][i] for t, p in zip(totals, self.pruning, strict=True))
            taken = (i, mask | 1 << i, size + 1, grown)
            left = (i, mask, size, totals)
            # Popped last is tried first: without the card first, so masks come out in increasing order.
            stack.extend((left, taken) if rng is not None and rng.random() < 0.5 else (taken, left))
        return found, rng is None

    def _pruned(self, i: int, totals: tuple) -> bool:
        """Whether no subset on from here can pass a pruning check (cards ``i-1..0`` still open)."""
        for (op, _, value, rest), total in zip(self.pruning, totals, strict=True):
            if (op in ("==", "<=") and total > value) or (op == "<" and total >= value):
                return True
            most = total + rest[i]
            if (op in ("==", ">=") and most < value) or (op == ">" and most <= value):
                return True
        return False

    def sample(self, rng: random.Random, count: int, visits: int) -> list[int]:
        """Return up to ``count`` subsets allowed, each the first found on a path drawn at random."""
        masks: set[int] = set()
        each = max(visits // (count * 2), 4 * len(self.cards) + 4)  # all of them: about ``visits`` steps
        for _ in range(count * 2):
            if len(masks) >= count:
                break
            masks.update(self.search(1, each, rng)[0])
        return sorted(masks)


def _totals(points: list[int]) -> list[int]:
    """``out[i]``: the sum of ``points[0:i]`` (what the cards still open can add)."""
    out = [0]
    for p in points:
        out.append(out[-1] + p)
    return out


def filtered(rule: SubsetRule, node: Node, most: int) -> Callable[[Any, dict], list]:
    """Return the collection ``(filter (subsets C) ...)``: every subset allowed (at most ``most``)."""

    def subsets(st: Any, env: dict) -> list:
        setting = rule.setting(st, env)
        if setting is None:
            return []
        found, complete = setting.search(most, MAX_SEARCHED)
        if not complete:
            what = f"more than {most} collections made" if len(found) >= most else "too many subsets tried"
            raise RecycleRuntimeError(f"{what} here", node.line, node.column)
        return [setting.subset(m) for m in found]

    return subsets


class Offer:
    """A pick of a choice now: its branch, its rule on this state, and the action of a set."""

    __slots__ = ("act", "branch", "listed", "setting", "var")

    def __init__(self, branch: int, setting: Setting, act: Fn, var: str, listed: bool) -> None:
        self.branch, self.setting, self.act, self.var, self.listed = branch, setting, act, var, listed

    def describe(self, names: list[str], where: Callable[[tuple], dict]) -> dict[str, Any]:
        """Return the pick as the seat to act reads it (docs/protocol.md, "pick")."""
        s = self.setting
        out: dict[str, Any] = {
            "branch": self.branch,
            "cards": [names[c[1]] for c in s.cards],
            "from": [where(key) for key in dict.fromkeys(c[0] for c in s.cards)],
            "min": s.low,
            "max": s.high,
            "listed": self.listed,
            "exact": not s.rule.each and all(op != "!=" for op, _, _ in s.checks[: len(s.rule.sizes)]),
        }
        sums = s.checks[len(s.rule.sizes) :]
        if sums:
            out["sums"] = [
                {"op": op, "total": value, "points": dict(zip(out["cards"], points, strict=True))}
                for op, points, value in sums
            ]
        return out

    def admit(self, names: list[str], chosen: Any) -> list:
        """Return the cards ``chosen`` (names in C's order) as the option's binding; raise
        ``ValueError`` saying why they are not a set this pick allows."""
        s = self.setting
        if not isinstance(chosen, list) or not all(isinstance(c, str) for c in chosen):
            raise ValueError("a pick is a list of card names")
        index = {names[c[1]]: i for i, c in enumerate(s.cards)}
        picked = [index.get(name) for name in chosen]
        if None in picked:
            bad = chosen[picked.index(None)]
            raise ValueError(f"{bad} is not one of the cards you may pick")
        if len(set(picked)) != len(picked):
            raise ValueError("a card is named twice")
        if picked != sorted(picked):
            raise ValueError("list the cards in the order the pick gives them")
        if not s.low <= len(picked) <= s.high:
            raise ValueError(f"pick between {s.low} and {s.high} cards, not {len(picked)}")
        mask = sum(1 << i for i in picked)
        if not s.admits(mask):
            raise ValueError("these cards are not a set the rules allow now")
        return s.subset(mask)


def pick_part(comp: Any, node: Node, scope: dict[str, str]) -> Fn | None:
    """Compile a choice part that picks a subset (``(any (subsets C) 'S ACTION)``, filtered or
    guarded), else ``None``. The function returns every option, as any part does; its ``pick``
    returns ``(options listed, (setting, action, variable, listed?))`` or ``None``."""
    guard = None
    if node.kind == "guarded":
        guard, node = node.args
    if node.kind != "agg" or node.args[0] != "any" or comp.branches(node.args[3]):
        return None
    _, coll, var, body = node.args
    if coll.kind not in ("subsets", "filter") or (coll.kind == "filter" and coll.args[0].kind != "subsets"):
        return None
    rule = SubsetRule(comp, coll, scope)
    inner = {**scope, var: comp.item_kind(coll, scope)}
    if guard is not None:
        rule.once.append(comp.truth(guard, scope))
    action_node = body
    if body.kind == "guarded" and not comp.branches(body.args[1]):
        if not rule.var:
            rule.var = var
        rule.add_test(comp, body.args[0], inner, var=var)
        action_node = body.args[1]
    act = comp.action(action_node, inner)

    def offer(st: Any, env: dict) -> tuple[list, tuple | None]:
        setting = rule.setting(st, env)
        if setting is None:
            return [], None
        found, complete = setting.search(MAX_LISTED, MAX_VISITS)
        if not complete:
            rng = random.Random(st.seed * 1_000_003 + st.moves)
            found = setting.sample(rng, SAMPLED, MAX_VISITS) or found[:SAMPLED]
        options = []
        for mask in found:
            chosen = setting.subset(mask)
            options.append(((chosen,), [(act, {**env, var: chosen})]))
        return options, ((setting, act, var, complete) if options else None)

    def every(st: Any, env: dict) -> list:
        return offer(st, env)[0]

    every.pick = offer
    return every
