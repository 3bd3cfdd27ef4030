"""Compile RECYCLE's collections of card collections: ``tuples``, ``partition``, ``subsets``, ``runs``.

Each is a list of card lists (each card ``(location key, card)``), so a card taken
from one still knows where it lies. How many collections one form may make is
bounded (``MAX_GROUPS``): ``subsets`` of a large hand would be millions.
"""

from __future__ import annotations

from itertools import combinations, pairwise
from typing import Any

from games.recycle.compiling.fast import Fn
from games.recycle.compiling.values import Values
from games.recycle.errors import RecycleRuntimeError
from games.recycle.reading.kinds import STR
from games.recycle.reading.syntax import Node

MAX_GROUPS = 131_072  # collections one tuples/subsets/runs form makes (every subset of 17 cards)


class Groups(Values):
    """The collections of collections, and ``run`` (the longest run at an end of a collection)."""

    def cardsets(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile a collection of card collections to a function returning a list of card lists."""
        k, a = node.kind, node.args
        if k == "var":
            return self.var(node, scope)
        tables = self.p.score_table
        if k == "tuples":
            size, cards = self.number(a[0], scope), self.cards(a[1], scope)
            mapname = self.points_key(a[2], scope)

            def tuples(st, env):
                table, n = tables(st, mapname(st, env)), size(st, env) or 0
                by_score: dict[int, list] = {}
                for c in cards(st, env):
                    by_score.setdefault(table[c[1]], []).append(c)
                out: list = []
                for score in sorted(by_score):  # CardStock's bins, lowest score first
                    for combo in combinations(by_score[score], n):
                        out.append(list(combo))
                        _bound(out, node)
                return out

            return tuples
        if k == "partition":
            return self._partition(node, scope)
        if k == "subsets":
            cards = self.cards(a[0], scope)

            def subsets(st, env):
                out: list = [[]]
                for c in cards(st, env):
                    out.extend([*subset, c] for subset in list(out))
                    _bound(out, node)
                return out

            return subsets
        if k == "runs":
            return self._runs(node, scope)
        raise node.error(f"expected a collection of card collections here, not {k}")

    def _partition(self, node: Node, scope: dict[str, str]) -> Fn:
        """``(partition ATTR C...)`` (0.5.8 on) or ``(partition C... ATTR)`` (0.5): by attribute value."""
        a = node.args
        attr_node, sources = (a[0], a[1:]) if self.kind(a[0], scope) == STR else (a[-1], a[:-1])
        if self.kind(attr_node, scope) != STR or not sources:
            raise node.error("a partition is (partition ATTRIBUTE COLLECTION...)")
        attr = self.string(attr_node, scope)
        parts = [self.cards(x, scope) for x in sources]
        tables = self.p.attribute_tables

        def partition(st, env):
            table = tables.get(attr(st, env))
            groups: dict[Any, list] = {}
            for part in parts:
                for c in part(st, env):
                    groups.setdefault(None if table is None else table[c[1]], []).append(c)
            return list(groups.values())

        return partition

    def _runs(self, node: Node, scope: dict[str, str]) -> Fn:
        """``(runs largest|all N C using MAP)``: runs of consecutive scores, at least N long.

        As CardStock's ``GameIterator``: the cards sorted by score, equal scores making
        alternative runs; ``largest`` keeps each run whole, ``all`` also every run
        starting at any card and every prefix of N or more. A run found twice is kept once.
        """
        which, size_node, cards_node, map_node = node.args
        size, cards = self.number(size_node, scope), self.cards(cards_node, scope)
        tables, mapname = self.p.score_table, self.points_key(map_node, scope)

        def runs(st, env):
            table, least = tables(st, mapname(st, env)), size(st, env) or 0
            ordered = sorted(cards(st, env), key=lambda c: table[c[1]])
            out: list = []
            current: list[list] = []
            for j, c in enumerate(ordered):
                score = table[c[1]]
                before = table[ordered[j - 1][1]] if j else None
                if j and score == before:
                    current += [[*run[:-1], c] for run in current if run[-1] is ordered[j - 1]]
                elif j and score == before + 1:
                    if which == "all":
                        out.extend(list(run) for run in current if len(run) >= least)
                    for run in current:
                        run.append(c)
                else:
                    out.extend(run for run in current if len(run) >= least)
                    current = []
                if not current or which == "all":  # a run may start at this card
                    current.append([c])
                _bound(current, node)
                _bound(out, node)
            out.extend(run for run in current if len(run) >= least)
            return _unique(out)

        return runs

    def run_sequence(self, node: Node, scope: dict[str, str]) -> Fn:
        """``(run top|bottom N C using MAP)``: the longest run of N or more cards at that end of C."""
        end, size_node, cards_node, map_node = node.args
        size, cards = self.number(size_node, scope), self.cards(cards_node, scope)
        tables, mapname = self.p.score_table, self.points_key(map_node, scope)

        def run(st, env):
            table, least, found = tables(st, mapname(st, env)), size(st, env) or 0, cards(st, env)
            best: list = []
            for n in range(max(least, 1), len(found) + 1):
                chosen = found[len(found) - n :] if end == "top" else found[:n]
                ordered = sorted(chosen, key=lambda c: table[c[1]])
                if all(table[b[1]] == table[a[1]] + 1 for a, b in pairwise(ordered)):
                    best = ordered
            return best

        return run


def _unique(groups: list) -> list:
    """Return ``groups`` without repeats (the same cards in the same order), first kept."""
    seen: set = set()
    out = []
    for group in groups:
        key = tuple(c[1] for c in group)
        if key not in seen:
            seen.add(key)
            out.append(group)
    return out


def _bound(groups: list, node: Node) -> None:
    if len(groups) > MAX_GROUPS:
        raise RecycleRuntimeError(f"more than {MAX_GROUPS} collections made here", node.line, node.column)
