"""Compile RECYCLE scalar expressions (numbers, truths, strings, players, locations) into closures.

Each expression becomes a function ``f(state, env)``; ``env`` maps the variables
bound by ``any``/``all``/``filter`` to their values. Kinds are checked here, at
load time, so a description that compares a card with a number fails with the
form's line and column instead of misbehaving in play.
"""

from __future__ import annotations

import random

from games.recycle.compiling.fast import (
    ARITH,
    COMPARE,
    Fn,
    attribute_at_end,
    clamp,
    counted_compare,
    fibonacci,
    logic,
    sized_compare,
    specialized_compare,
)
from games.recycle.playing.state import GAME, owner_label, team_owner
from games.recycle.reading.kinds import (
    BOOL,
    CARD,
    CARDS,
    CARDSETS,
    INT,
    INTS,
    LOC,
    NOTHING,
    PLAYER,
    PLAYERS,
    STR,
    STRS,
    TEAM,
    TEAMS,
    Kinds,
)  # fmt: skip
from games.recycle.reading.syntax import Node


class Values(Kinds):
    """Numbers, truths, strings, players, teams, storage keys and locations."""

    def var(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile a variable: a bound one reads ``env``; a declared one is a constant."""
        name = node.args[0]
        if name in scope:
            return lambda st, env: env.get(name)
        if self.p.is_declared(name):
            return self.p.declared_value(name)
        self.p.warn(node, f"'{name} is not bound here; it stands for nothing")
        return lambda st, env: None

    def number(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile an expression for a number."""
        self.expect(node, scope, INT, PLAYER)
        k, a = node.kind, node.args
        if k == "number":
            value = a[0]
            return lambda st, env: value
        if k == "var":
            return self.var(node, scope)
        if k in ("game_storage", "owned_storage"):
            key = self.storage_key(node, scope)
            return lambda st, env: st.sto.get(key(st, env), 0)
        if k == "size":
            return self.size(a[0], scope)
        if k == "arith":
            op = ARITH[a[0]]
            left, right = self.number(a[1], scope), self.number(a[2], scope)
            return lambda st, env: clamp(op(left(st, env) or 0, right(st, env) or 0))
        if k in ("sum", "score"):
            return self.scored(node, scope)
        if k in ("random", "triangular", "fibonacci"):
            return self.series(node, scope)
        if k == "agg":
            return self.aggregate_sum(node, scope)
        return self.player(node, scope)

    def series(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile ``(random N)`` (0..N), ``(random A .. B)``, ``(tri N)`` and ``(fib N)``."""
        parts = [self.number(x, scope) for x in node.args]
        if node.kind == "triangular":
            (n,) = parts
            return lambda st, env: clamp((v := n(st, env) or 0) * (v + 1) // 2)
        if node.kind == "fibonacci":
            (n,) = parts
            return lambda st, env: fibonacci(n(st, env) or 0)
        low, high = (lambda st, env: 0, parts[0]) if len(parts) == 1 else parts

        def draw(st, env):
            a, b = low(st, env) or 0, high(st, env) or 0
            # Each draw has its own stream from the game's seed, as shuffles do.
            value = random.Random(st.seed * 1_000_003 + st.shuffles).randint(min(a, b), max(a, b))
            st.shuffles += 1
            return value

        return draw

    def size(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile ``(size X)`` for a location, card collection, players, teams or names."""
        kind = self.kind(node, scope)
        if kind == LOC:
            if node.kind == "game_location" and isinstance(node.args[1], str):
                const = self.p.one_key((GAME, node.args[0], node.args[1]))
                return lambda st, env: len(st.locs.get(const, ()))
            if node.kind == "owned_location" and isinstance(node.args[2], str):  # the usual owners, inlined
                owner, kind_, name = node.args
                if owner.kind == "var" and scope.get(owner.args[0]) == PLAYER:
                    var = owner.args[0]
                    return lambda st, env: len(st.locs.get((env.get(var), kind_, name), ()))
                if owner.kind == "player" and owner.args[0] == "current":
                    seats = self.p.seat_keys(kind_, name)
                    return lambda st, env: len(st.locs.get(seats[st.cycles[-1][0]], ()))
            key = self.location(node, scope)
            return lambda st, env: len(st.locs.get(key(st, env), ()))
        if kind in (PLAYERS, TEAMS, STRS, INTS, CARDSETS):
            items = self.collection(node, scope)
            return lambda st, env: len(items(st, env))
        cards = self.cards(node, scope)
        return lambda st, env: len(cards(st, env))

    def scored(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile ``(sum CARDS using MAP)`` and ``(score CARD using MAP)``."""
        what, map_node = node.args
        tables, mapname = self.p.score_table, self.points_key(map_node, scope)
        if node.kind == "score":
            card = self.card(what, scope)

            def one(st, env):
                c = card(st, env)
                return 0 if c is None else tables(st, mapname(st, env))[c[1]]

            return one
        cards = self.cards(what, scope)
        held = getattr(cards, "held", None)
        if held is not None:  # one location's cards: summed without a pair per card

            def held_total(st, env):
                table = tables(st, mapname(st, env))
                return sum(map(table.__getitem__, held(st, env)[1]))

            return held_total

        def total(st, env):
            table = tables(st, mapname(st, env))
            return sum([table[c] for _, c in cards(st, env)])

        return total

    def points_key(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile a point map's name: ``'MAP`` (0.4), ``(game points NAME)`` or ``(WHO points NAME)``.

        A game's map is kept under its NAME (so 0.4's ``'MAP`` and 0.5's ``(game points
        MAP)`` are one map); an owner's under ``OWNER:NAME`` (``0:SCORE``, ``team1:BID``).
        """
        if node.kind == "var" and node.args[0] not in scope:
            key = node.args[0]
            return lambda st, env: key
        if node.kind not in ("game_points", "owned_points"):
            raise node.error("expected a point map such as (game points NAME) or 'NAME here")
        name = self._name(node.args[-1], scope)
        if node.kind == "game_points":
            return name
        who = self.owner(node.args[0], scope)
        # An owner that is no one (an unbound variable) has no map: no points.
        return lambda st, env: None if (o := who(st, env)) is None else f"{owner_label(o)}:{name(st, env)}"

    def _name(self, name: str | Node, scope: dict[str, str]) -> Fn:
        """Compile a location's or storage's name: a NAME, or a string computed in play."""
        if isinstance(name, str):
            return lambda st, env: name
        value = self.string(name, scope) if self.kind(name, scope) != INT else self.number(name, scope)
        return lambda st, env: str(value(st, env))

    def truth(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile a condition."""
        kind = self.expect(node, scope, BOOL)
        del kind
        k, a = node.kind, node.args
        if k == "negate":
            inner = self.truth(a[0], scope)
            return lambda st, env: not inner(st, env)
        if k == "logic":
            parts = [self.truth(x, scope) for x in a[1:]]
            return logic(a[0] == "and", parts)
        if k == "compare":
            return self.compare(node, scope)
        if k == "agg":
            return self.aggregate_truth(node, scope)
        return self.var(node, scope)

    def compare(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile ``(OP A B)``: numbers, strings, cards or players, both of one kind."""
        op, left, right = node.args
        kinds = {self.kind(left, scope), self.kind(right, scope)} - {NOTHING} or {INT}
        test = COMPARE[op]
        if kinds <= {INT, PLAYER}:
            counted = self._counted(op, left, right, scope)
            if counted is not None:
                return counted
            a, b = self.number(left, scope), self.number(right, scope)
        elif kinds == {STR}:
            if op not in ("==", "!="):
                raise node.error(f"strings are compared with == or !=, not {op}")
            a, b = self.string(left, scope), self.string(right, scope)
        elif kinds == {CARD}:
            if op not in ("==", "!="):
                raise node.error(f"cards are compared with == or !=, not {op}")
            ca, cb = self.card(left, scope), self.card(right, scope)

            def a(st, env):
                c = ca(st, env)
                return None if c is None else c[1]

            def b(st, env):
                c = cb(st, env)
                return None if c is None else c[1]
        elif kinds == {TEAM}:
            a, b = self.team(left, scope), self.team(right, scope)
        else:
            raise node.error(f"cannot compare a {' with a '.join(sorted(kinds))}")
        return specialized_compare(op, a, b, self.constant(left), self.constant(right)) or (
            lambda st, env: test(a(st, env), b(st, env))
        )

    def _counted(self, op: str, left: Node, right: Node, scope: dict[str, str]) -> Fn | None:
        """``(OP (size L) N)`` or ``(OP STORAGE N)``, ``N`` a constant, the key's owner the game,
        the current player or a player variable: one closure (``fast.counted_compare``)."""
        known, k = self.constant(right)
        if not known or not isinstance(k, int):
            return None
        if left.kind == "size" and self.kind(left.args[0], scope) == CARDS:
            return sized_compare(op, self.cards(left.args[0], scope), k)
        if left.kind == "size" and left.args[0].kind in ("game_location", "owned_location"):
            where, storage = left.args[0], False
        elif left.kind in ("game_storage", "owned_storage"):
            where, storage = left, True
        else:
            return None
        if not isinstance(where.args[-1], str):  # a name computed in play: the general way
            return None
        if where.kind.startswith("game"):
            key = self.p.one_key((GAME, *where.args))
            return counted_compare(op, storage, key, where.args, k)
        owner, *rest = where.args
        if owner.kind == "player" and owner.args[0] == "current":
            seats = () if storage else self.p.seat_keys(*rest)
            return counted_compare(op, storage, "current", tuple(rest), k, seats)
        if owner.kind == "var" and scope.get(owner.args[0]) == PLAYER:
            counted = counted_compare(op, storage, owner.args[0], tuple(rest), k)
            counted.per_player = (owner.args[0], op, storage, tuple(rest), k)  # for (all player 'P ...)
            return counted
        return None

    def string(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile a string: a NAME, ``(cardatt ATTR CARD)`` or a string variable."""
        self.expect(node, scope, STR)
        if node.kind == "name":
            value = node.args[0]
            return lambda st, env: value
        if node.kind == "cardatt":
            attr_node, card_node = node.args
            card = self.card(card_node, scope)
            if attr_node.kind == "name":
                table = self.p.attribute_table(attr_node.args[0])
                if card_node.kind == "var" and card_node.args[0] in scope:
                    var = card_node.args[0]
                    return lambda st, env: None if (c := env.get(var)) is None else table[c[1]]
                at_end = getattr(card, "at_end", None)
                if at_end is not None:
                    return attribute_at_end(table, *at_end)
                return lambda st, env: None if (c := card(st, env)) is None else table[c[1]]
            attr = self.string(attr_node, scope)
            tables = self.p.attribute_tables

            def dynamic(st, env):
                c, name = card(st, env), attr(st, env)
                table = tables.get(name)
                return None if c is None or table is None else table[c[1]]

            return dynamic
        if node.kind in ("game_string", "owned_string"):
            key = self.storage_key(node, scope)
            return lambda st, env: st.strs.get(key(st, env), "")
        return self.var(node, scope)

    def player(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile a player: ``(current player)``, ``(2 player)``, ``(owner CARD)``, a variable."""
        self.expect(node, scope, PLAYER)
        k, a = node.kind, node.args
        if k == "var":
            return self.var(node, scope)
        if k == "owner":
            card = self.card(a[0], scope)

            def owner(st, env):
                c = card(st, env)
                return None if c is None or c[0][0] < 0 else c[0][0]

            return owner
        who = a[0]
        n_of = self.p.player_count
        if who == "current":
            return lambda st, env: st.cycles[-1][0]
        if who == "next":

            def peek_next(st, env):
                cycle = st.cycles[-1]
                return cycle[1] if cycle[1] >= 0 else (cycle[0] + 1) % st.players

            return peek_next
        if who == "previous":
            return lambda st, env: (st.cycles[-1][0] - 1) % st.players
        index = int(who)
        if not 0 <= index < n_of:
            raise node.error(f"there is no player {index} among {n_of}")
        return lambda st, env: index

    def team(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile a team: ``(current team)``, ``(team PLAYER)``, a team variable."""
        self.expect(node, scope, TEAM)
        k, a = node.kind, node.args
        if k == "var":
            return self.var(node, scope)
        team_of = self.p.team_of
        if k == "team_of":
            who = self.player(a[0], scope)
            return lambda st, env: None if (p := who(st, env)) is None else ("team", team_of[p])
        who = a[0]
        teams = len(self.p.teams)
        if who == "current":
            return lambda st, env: ("team", st.tcycles[-1][0])
        if who == "next":
            return lambda st, env: ("team", (st.tcycles[-1][0] + 1) % teams)
        if who == "previous":
            return lambda st, env: ("team", (st.tcycles[-1][0] - 1) % teams)
        index = int(who)
        if not 0 <= index < teams:
            raise node.error(f"there is no team {index} among {teams}")
        return lambda st, env: ("team", index)

    def owner(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile who owns a location or storage: a player or a team, as an owner number."""
        kind = self.expect(node, scope, PLAYER, TEAM)
        if kind == PLAYER:
            return self.player(node, scope)
        team = self.team(node, scope)
        return lambda st, env: None if (t := team(st, env)) is None else team_owner(t[1])

    def storage_key(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile ``(game sto NAME)``, ``(WHO sto NAME)`` (or ``str``) to its key ``(owner, name)``."""
        if node.kind not in ("game_storage", "owned_storage", "game_string", "owned_string"):
            raise node.error("expected a storage such as (game sto NAME) or ((current player) sto NAME)")
        name_arg = node.args[-1]
        if node.kind.startswith("game_"):
            if isinstance(name_arg, str):
                key = self.p.one_key((GAME, name_arg))
                return lambda st, env: key
            name = self._name(name_arg, scope)
            return lambda st, env: (GAME, name(st, env))
        who = self.owner(node.args[0], scope)
        if isinstance(name_arg, str):
            return lambda st, env: (who(st, env), name_arg)
        name = self._name(name_arg, scope)
        return lambda st, env: (who(st, env), name(st, env))

    def location(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile a location to its key ``(owner, kind, name)``."""
        self.expect(node, scope, LOC)
        if node.kind == "var":
            return self.var(node, scope)
        if node.kind == "game_location":
            kind, name_arg = node.args
            if not isinstance(name_arg, str):
                name = self._name(name_arg, scope)
                return lambda st, env: (GAME, kind, name(st, env))
            key = self.p.one_key((GAME, kind, name_arg))

            def fixed(st, env):
                return key

            fixed.fixed = key  # read without a call by the hot paths (fast.end_card)
            return fixed
        owner_node, kind, name = node.args
        if not isinstance(name, str):
            who_, name_ = self.owner(owner_node, scope), self._name(name, scope)
            return lambda st, env: (who_(st, env), kind, name_(st, env))
        if owner_node.kind == "player" and owner_node.args[0] == "current":
            seats = self.p.seat_keys(kind, name)
            return lambda st, env: seats[st.cycles[-1][0]]
        if owner_node.kind == "var" and scope.get(owner_node.args[0]) == PLAYER:
            var = owner_node.args[0]
            seats = self.p.seat_keys(kind, name)

            def of_seat(st, env):  # a seat's own key; anything else (unbound: None) made
                p = env.get(var)
                return seats[p] if type(p) is int and 0 <= p < len(seats) else (p, kind, name)

            return of_seat
        who = self.owner(owner_node, scope)
        return lambda st, env: (who(st, env), kind, name)
