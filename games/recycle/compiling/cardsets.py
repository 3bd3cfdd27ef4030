"""Compile RECYCLE card expressions and collections into closures.

A card is ``(location key, card)`` or ``None``; a collection of cards a list of
them (a location's, bottom first). Filters compute a comparison's side that does
not depend on the card once per filter, not once per card.
"""

from __future__ import annotations

from games.recycle.compiling import picks
from games.recycle.compiling.fast import Fn, draws, end_card, every_player
from games.recycle.compiling.filters import Filters
from games.recycle.compiling.groups import MAX_GROUPS
from games.recycle.errors import RecycleRuntimeError
from games.recycle.reading.kinds import (
    CARD,
    CARDS,
    CARDSETS,
    INTS,
    LOC,
    PLAYERS,
    STRS,
    TEAM,
    TEAMS,
)
from games.recycle.reading.syntax import Node

MAX_RANGE = 10_000
SHARED = frozenset({"filter", "union", "agg"})  # collections worth computing once per choice build


class CardSets(Filters):
    """Cards, card collections, and collections to go through (players, teams, names)."""

    def cards(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile a card collection to a function returning a list of cards ``(key, card)``."""
        kind = self.expect(node, scope, LOC, CARDS)
        if self.memo is not None and scope is self.memo[0] and node.kind in SHARED:
            return self.shared(node, scope)
        if kind == LOC:
            key = self.location(node, scope)
            owner = node.args[0] if node.kind == "owned_location" else None
            current = owner is not None and owner.kind == "player" and owner.args[0] == "current"
            if current and isinstance(node.args[2], str):  # not a name computed in play
                _, loc_kind, name = node.args
                seats = self.p.seat_keys(loc_kind, name)

                def at(st, env):  # the current player's location (a hand), its key read here
                    k = seats[st.cycles[-1][0]]
                    return [(k, c) for c in st.locs.get(k, ())]

                def held(st, env):
                    k = seats[st.cycles[-1][0]]
                    return k, st.locs.get(k, ())
            else:

                def at(st, env):
                    k = key(st, env)
                    return [(k, c) for c in st.locs.get(k, ())]

                def held(st, env):
                    k = key(st, env)
                    return k, st.locs.get(k, ())

            at.key = key  # for filters that read the location themselves
            if current and isinstance(node.args[2], str):
                at.current = node.args[1:]  # (KIND, NAME) of the current player's location
            if not draws(node):  # (key, its cards): one reading for the plays and sizes (fast.held)
                at.held = held
            return at
        k, a = node.kind, node.args
        if k == "var":
            return self.var(node, scope)
        if k == "union":
            parts = [self.cards(x, scope) for x in a]
            if len(parts) == 1:  # (union C): C itself
                return parts[0]
            return lambda st, env: [c for part in parts for c in part(st, env)]
        if k in ("intersect", "disjunction", "sort", "top_n", "bottom_n", "run", "top", "bottom", "nth"):
            return self.combined(node, scope)
        if k == "filter":
            source, var, test = a
            cards = self.cards(source, scope)
            by_table = self._filter_by_attribute(cards, test, var, scope)
            if by_table is not None:
                return by_table
            hoisted = self._hoist(test, var, scope)
            if hoisted is not None:
                return self._filter_hoisted(cards, var, *hoisted)
            check = self.truth(test, {**scope, var: CARD})

            def kept(st, env):
                inner = dict(env)
                out = []
                for c in cards(st, env):
                    inner[var] = c
                    if check(st, inner):
                        out.append(c)
                return out

            return kept
        # (all COLLECTION 'V LOCATION-or-CARDS): the union over the items.
        return self.aggregate_cards(node, scope)

    def combined(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile the collections made from others: ``intersect``, ``disjunction``, ``sort``,
        ``(top N C)``, ``(bottom N C)``, and ``(top|bottom|N COLLECTIONS)`` (one of them)."""
        k, a = node.kind, node.args
        if k in ("top", "bottom", "nth"):
            sets = self.cardsets(a[-1], scope)
            # CardStock's order: the top of a collection of collections is its first.
            index = 0 if k == "top" else -1 if k == "bottom" else a[0]
            return lambda st, env: found[index] if -len(found := sets(st, env)) <= index < len(found) else []
        if k in ("top_n", "bottom_n"):
            count, cards = self.number(a[0], scope), self.cards(a[1], scope)
            if k == "top_n":  # topmost first, as CardStock lists them
                return lambda st, env: cards(st, env)[::-1][: max(count(st, env) or 0, 0)]
            return lambda st, env: cards(st, env)[: max(count(st, env) or 0, 0)]
        if k == "sort":
            cards, tables, mapname = self.cards(a[0], scope), self.p.score_table, self.points_key(a[1], scope)

            def ordered(st, env):
                table = tables(st, mapname(st, env))
                return sorted(cards(st, env), key=lambda c: table[c[1]])

            return ordered
        if k == "run":
            return self.run_sequence(node, scope)
        parts = self._parts(a, scope)
        if k == "intersect":

            def common(st, env):
                found = [part for part in parts(st, env)]
                if not found:
                    return []
                rest = [{c for _, c in part} for part in found[1:]]
                return [c for c in found[0] if all(c[1] in other for other in rest)]

            return common

        def once(st, env):
            counts: dict[int, int] = {}
            cards = []
            for part in parts(st, env):
                for c in part:
                    counts[c[1]] = counts.get(c[1], 0) + 1
                    cards.append(c)
            return [c for c in cards if counts[c[1]] == 1]

        return once

    def _parts(self, args: tuple, scope: dict[str, str]) -> Fn:
        """Compile the operands of a set operation: collections, or one ``(all C 'V CARDS)`` of them."""
        if len(args) == 1 and args[0].kind == "agg" and args[0].args[0] == "all":
            _, coll, var, body = args[0].args
            items = self.collection(coll, scope)
            each = self.cards(body, {**scope, var: self.item_kind(coll, scope)})
            return lambda st, env: [each(st, {**env, var: item}) for item in items(st, env)]
        parts = [self.cards(x, scope) for x in args]
        return lambda st, env: [part(st, env) for part in parts]

    def card(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile one card: ``(top X)``, ``(bottom X)``, ``(N X)``, ``(max X using 'M)``, a variable."""
        self.expect(node, scope, CARD)
        k, a = node.kind, node.args
        if k == "var":
            return self.var(node, scope)
        if k == "actual":
            if self.kind(a[0], scope) == CARDS:  # (actual (top 'PAIRS)): the top card of a pair
                cards = self.cards(a[0], scope)
                return lambda st, env: found[-1] if (found := cards(st, env)) else None
            return self.card(a[0], scope)
        if k in ("top", "bottom", "nth"):
            index = -1 if k == "top" else 0 if k == "bottom" else a[0]
            source = a[-1]
            if self.kind(source, scope) == LOC:
                key = self.location(source, scope)
                if k != "nth":
                    return end_card(key, index)

                def fast(st, env):
                    k_ = key(st, env)
                    cards = st.locs.get(k_)
                    if not cards or not -len(cards) <= index < len(cards):
                        return None
                    return (k_, cards[index])

                return fast
            cards = self.cards(source, scope)

            def pick(st, env):
                found = cards(st, env)
                return found[index] if -len(found) <= index < len(found) else None

            return pick
        if k in ("max_card", "min_card"):
            cards, mapname = self.cards(a[0], scope), self.points_key(a[1], scope)
            tables = self.p.score_table
            sign = 1 if k == "max_card" else -1
            seat_keys = getattr(cards, "seat_keys", None)
            if seat_keys is not None:  # every seat's location (a trick): no pair made per card

                def best_of_seats(st, env):
                    table = tables(st, mapname(st, env))
                    found, top_score = None, None
                    get = st.locs.get
                    for key in seat_keys(st.players):
                        for c in get(key, ()):
                            s = sign * table[c]
                            if top_score is None or s > top_score:  # the first of equals wins
                                found, top_score = (key, c), s
                    return found

                return best_of_seats

            def best(st, env):
                table = tables(st, mapname(st, env))
                found, top_score = None, None
                for c in cards(st, env):
                    s = sign * table[c[1]]
                    if top_score is None or s > top_score:  # the first of equals wins
                        found, top_score = c, s
                return found

            return best
        raise node.error(f"expected a card here, not {k}")

    def collection(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile something to go through: players, teams, names, or cards."""
        kind = self.kind(node, scope)
        k, a = node.kind, node.args
        if k == "filter" and a[0].kind == "subsets":  # searched, not every subset made (picks.py)
            return picks.filtered(picks.SubsetRule(self, node, scope), node, MAX_GROUPS)
        if k == "filter" and kind not in (LOC, CARDS):  # players, teams, names, numbers, collections
            source, var, test = a
            items = self.collection(source, scope)
            check = self.truth(test, {**scope, var: self.item_kind(source, scope)})
            return lambda st, env: [i for i in items(st, env) if check(st, {**env, var: i})]
        if kind == PLAYERS:
            if k == "all_players":
                return lambda st, env: range(st.players)
            if k == "other_players":
                # From the seat after the current one, round the table.
                return lambda st, env: [(st.cycles[-1][0] + i) % st.players for i in range(1, st.players)]
            if k == "team_of_cycle" or k == "team_of" or (k == "var" and kind == PLAYERS):
                return self.var(node, scope)
        if kind == TEAMS:
            count = len(self.p.teams)
            if k == "all_teams":
                return lambda st, env: [("team", t) for t in range(count)]
            if k == "other_teams":
                return lambda st, env: [("team", (st.tcycles[-1][0] + i) % count) for i in range(1, count)]
        if kind == STRS:
            if k == "var":
                return self.var(node, scope)
            names = tuple(a)
            return lambda st, env: names
        if kind == INTS:
            if k == "var":
                return self.var(node, scope)
            low, high = self.number(a[0], scope), self.number(a[1], scope)

            def numbers(st, env):
                first, last = low(st, env) or 0, high(st, env) or 0
                if last - first > MAX_RANGE:
                    message = f"a range of more than {MAX_RANGE} numbers"
                    raise RecycleRuntimeError(message, node.line, node.column)
                return range(first, last + 1)  # both ends included, as in CardStock

            return numbers
        if kind == CARDSETS:
            return self.cardsets(node, scope)
        if kind == TEAM:  # a team goes through its players
            team = self.team(node, scope)
            members = self.p.teams
            return lambda st, env: [] if (t := team(st, env)) is None else members[t[1]]
        if kind in (LOC, CARDS):
            return self.cards(node, scope)
        raise node.error(f"cannot go through a {kind}")

    def aggregate_truth(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile ``(any|all COLLECTION 'V CONDITION)``."""
        quant, coll, var, body = node.args
        items = self.collection(coll, scope)
        test = self.truth(body, {**scope, var: self.item_kind(coll, scope)})
        want_all = quant == "all"
        per_player = getattr(test, "per_player", None)
        if coll.kind == "all_players" and per_player is not None and per_player[0] == var:
            return every_player(want_all, *per_player[1:], self.p)

        def check(st, env):
            inner = dict(env)
            for item in items(st, env):
                inner[var] = item
                if test(st, inner) != want_all:
                    return not want_all
            return want_all

        return check

    def aggregate_sum(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile ``(all COLLECTION 'V STORAGE)``: the sum of the storage for every item."""
        _, coll, var, body = node.args
        items = self.collection(coll, scope)
        value = self.number(body, {**scope, var: self.item_kind(coll, scope)})
        return lambda st, env: sum(value(st, {**env, var: item}) or 0 for item in items(st, env))

    def aggregate_cards(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile ``(all COLLECTION 'V CARDS)``: the cards of every item, in order."""
        quant, coll, var, body = node.args
        if quant != "all":
            raise node.error("(any ...) over locations is not a collection; use (all ...)")
        items = self.collection(coll, scope)
        cards = self.cards(body, {**scope, var: self.item_kind(coll, scope)})
        owner = body.args[0] if body.kind == "owned_location" and isinstance(body.args[2], str) else None
        if coll.kind == "all_players" and owner is not None and owner.kind == "var" and owner.args[0] == var:
            # (all player 'P ('P KIND NAME)): every seat's location, read in one closure.
            _, kind, name = body.args

            keys: dict[int, tuple] = {}  # players -> each seat's key, made once
            every = self.p.seat_keys(kind, name)

            def seat_keys(players: int) -> tuple:
                seats = keys.get(players)
                if seats is None:
                    seats = keys[players] = every[:players]
                return seats

            def every_seat(st, env):
                seats = keys.get(st.players) or seat_keys(st.players)
                get = st.locs.get
                return [(k, c) for k in seats for c in get(k, ())]

            every_seat.seat_keys = seat_keys  # for (max|min ... using 'MAP), read seat by seat
            return every_seat

        def gather(st, env):
            inner = dict(env)
            out = []
            for item in items(st, env):
                inner[var] = item
                out.extend(cards(st, inner))
            return out

        return gather
