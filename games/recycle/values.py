"""Compile RECYCLE expressions (numbers, truths, strings, cards, collections) into closures.

Each expression becomes a function ``f(state, env)``; ``env`` maps the variables
bound by ``any``/``all``/``filter`` to their values. Kinds are checked here, at
load time, so a description that compares a card with a number fails with the
form's line and column instead of misbehaving in play.

Runtime values: a number is an int; a string a str; a player a seat number; a
team ``("team", t)``; a card ``(location key, card)`` or ``None`` (no such card);
a location its key ``(owner, kind, name)``; a card collection a list of cards.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.recycle.state import GAME, team_owner
from games.recycle.syntax import Node

Fn = Callable[[Any, dict], Any]

NOTHING = "unbound variable"  # fits any kind, and is None at run time
INT, BOOL, STR, CARD, CARDS, LOC, PLAYER, TEAM, PLAYERS, TEAMS, STRS, ACTION = (
    "number",
    "truth",
    "string",
    "card",
    "cards",
    "location",
    "player",
    "team",
    "players",
    "teams",
    "strings",
    "action",
)
_COMPARE = {
    "==": lambda a, b: a == b,
    "!=": lambda a, b: a != b,
    "<": lambda a, b: a is not None and b is not None and a < b,
    ">": lambda a, b: a is not None and b is not None and a > b,
    "<=": lambda a, b: a is not None and b is not None and a <= b,
    ">=": lambda a, b: a is not None and b is not None and a >= b,
}


def _div(a: int, b: int) -> int:
    return a // b if b else 0


def _mod(a: int, b: int) -> int:
    return a % b if b else 0


_ARITH = {"+": int.__add__, "-": int.__sub__, "*": int.__mul__, "//": _div, "%": _mod}
MAX_INT = 10**9  # storage and arithmetic are clamped, so no number grows without bound


def _specialized(op: str, a: Fn, b: Fn, left: tuple[bool, Any], right: tuple[bool, Any]) -> Fn | None:
    """Return a faster closure for the common comparisons (the hot path of every game)."""
    if right[0] and not left[0]:
        k = right[1]
        if op == "==":
            return lambda st, env: a(st, env) == k
        if op == "!=":
            return lambda st, env: a(st, env) != k
        if op == ">":
            return lambda st, env: (v := a(st, env)) is not None and v > k
        if op == "<":
            return lambda st, env: (v := a(st, env)) is not None and v < k
    if op == "==":
        return lambda st, env: a(st, env) == b(st, env)
    if op == "!=":
        return lambda st, env: a(st, env) != b(st, env)
    return None


def _end_card(key: Fn, index: int) -> Fn:
    """Return the top (``index`` -1) or bottom (0) card of a location, or ``None`` when empty."""

    def end(st, env):
        k = key(st, env)
        cards = st.locs.get(k)
        return (k, cards[index]) if cards else None

    return end


def _logic(conjunction: bool, parts: list[Fn]) -> Fn:
    """Return ``and``/``or`` of ``parts``, short-circuit, without a generator for two or three."""
    if len(parts) == 2:
        p, q = parts
        if conjunction:
            return lambda st, env: p(st, env) and q(st, env)
        return lambda st, env: p(st, env) or q(st, env)
    if len(parts) == 3:
        p, q, r = parts
        if conjunction:
            return lambda st, env: p(st, env) and q(st, env) and r(st, env)
        return lambda st, env: p(st, env) or q(st, env) or r(st, env)
    if conjunction:
        return lambda st, env: all(p(st, env) for p in parts)
    return lambda st, env: any(p(st, env) for p in parts)


def _uses(node: Any, var: str) -> bool:
    """Return whether the expression ``node`` reads the variable ``var``."""
    if not isinstance(node, Node):
        return False
    if node.kind == "var":
        return node.args[0] == var
    return any(_uses(arg, var) for arg in node.args)


def clamp(value: int) -> int:
    """Keep a number within +-``MAX_INT``."""
    return MAX_INT if value > MAX_INT else -MAX_INT if value < -MAX_INT else value


class Values:
    """The expression half of the compiler; ``program`` supplies cards, players and warnings."""

    def __init__(self, program: Any) -> None:
        self.p = program

    # Kinds -----------------------------------------------------------------

    def kind(self, node: Node, scope: dict[str, str]) -> str:
        """Return the kind of value ``node`` stands for."""
        k = node.kind
        if k == "var":
            name = node.args[0]
            if name in scope:
                return scope[name]
            return self.p.declared_kind(name) if self.p.is_declared(name) else NOTHING
        simple = {
            "name": STR, "number": INT, "all_players": PLAYERS, "all_teams": TEAMS,
            "other_players": PLAYERS, "other_teams": TEAMS, "game_location": LOC,
            "owned_location": LOC, "game_storage": INT, "owned_storage": INT, "player": PLAYER,
            "team_of_cycle": TEAM, "team_of": TEAM, "owner": PLAYER, "top": CARD, "bottom": CARD,
            "nth": CARD, "actual": CARD, "max_card": CARD, "min_card": CARD, "union": CARDS,
            "filter": CARDS, "size": INT, "sum": INT, "score": INT, "arith": INT, "cardatt": STR,
            "compare": BOOL, "logic": BOOL, "negate": BOOL, "names": STRS,
        }  # fmt: skip
        if k in simple:
            return simple[k]
        if k == "agg":
            _, coll, var, body = node.args
            inner = {**scope, var: self.item_kind(coll, scope)}
            body_kind = self.kind(body, inner) if body.kind in VALUE_FORMS else ACTION
            if body_kind in (LOC, CARDS):
                return CARDS
            return BOOL if body_kind == BOOL else ACTION
        return ACTION

    def item_kind(self, node: Node, scope: dict[str, str]) -> str:
        """Return the kind of the items of the collection ``node``."""
        kind = self.kind(node, scope)
        items = {PLAYERS: PLAYER, TEAMS: TEAM, TEAM: PLAYER, STRS: STR, CARDS: CARD, LOC: CARD}
        if kind not in items:
            raise node.error(f"cannot go through a {kind}: give players, teams, cards or names")
        return items[kind]

    def expect(self, node: Node, scope: dict[str, str], *kinds: str) -> str:
        """Return ``node``'s kind, raising a located error unless it is one of ``kinds``."""
        kind = self.kind(node, scope)
        if kind == NOTHING:
            return kinds[0]
        if kind not in kinds:
            raise node.error(f"expected a {' or '.join(kinds)} here, not a {kind}")
        return kind

    # Compilers by kind -------------------------------------------------------

    def var(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile a variable: a bound one reads ``env``; a declared one is a constant."""
        name = node.args[0]
        if name in scope:
            return lambda st, env: env.get(name)
        if self.p.is_declared(name):
            value = self.p.declared_value(name)
            return lambda st, env: value
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
            op = _ARITH[a[0]]
            left, right = self.number(a[1], scope), self.number(a[2], scope)
            return lambda st, env: clamp(op(left(st, env) or 0, right(st, env) or 0))
        if k in ("sum", "score"):
            return self.scored(node, scope)
        return self.player(node, scope)

    def size(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile ``(size X)`` for a location, card collection, players, teams or names."""
        kind = self.kind(node, scope)
        if kind == LOC:
            if node.kind == "game_location":
                const = (GAME, node.args[0], node.args[1])
                return lambda st, env: len(st.locs.get(const, ()))
            if node.kind == "owned_location":  # the two usual owners, inlined
                owner, kind_, name = node.args
                if owner.kind == "var" and scope.get(owner.args[0]) == PLAYER:
                    var = owner.args[0]
                    return lambda st, env: len(st.locs.get((env.get(var), kind_, name), ()))
                if owner.kind == "player" and owner.args[0] == "current":
                    return lambda st, env: len(st.locs.get((st.cycles[-1][0], kind_, name), ()))
            key = self.location(node, scope)
            return lambda st, env: len(st.locs.get(key(st, env), ()))
        if kind in (PLAYERS, TEAMS, STRS):
            items = self.collection(node, scope)
            return lambda st, env: len(items(st, env))
        cards = self.cards(node, scope)
        return lambda st, env: len(cards(st, env))

    def scored(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile ``(sum CARDS using 'MAP)`` and ``(score CARD using 'MAP)``."""
        what, mapname = node.args
        score = self.p.card_score
        if node.kind == "score":
            card = self.card(what, scope)

            def one(st, env):
                c = card(st, env)
                return 0 if c is None else score(st, mapname, c[1])

            return one
        cards, tables = self.cards(what, scope), self.p.score_table

        def total(st, env):
            table = tables(st, mapname)
            return sum(table[c] for _, c in cards(st, env))

        return total

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
            return _logic(a[0] == "and", parts)
        if k == "compare":
            return self.compare(node, scope)
        if k == "agg":
            return self.aggregate_truth(node, scope)
        return self.var(node, scope)

    def compare(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile ``(OP A B)``: numbers, strings, cards or players, both of one kind."""
        op, left, right = node.args
        kinds = {self.kind(left, scope), self.kind(right, scope)} - {NOTHING} or {INT}
        test = _COMPARE[op]
        if kinds <= {INT, PLAYER}:
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
        return _specialized(op, a, b, self.constant(left), self.constant(right)) or (
            lambda st, env: test(a(st, env), b(st, env))
        )

    def constant(self, node: Node) -> tuple[bool, Any]:
        """Return ``(True, value)`` for a literal (a number, a NAME, a declared variable)."""
        if node.kind in ("number", "name"):
            return True, node.args[0]
        if node.kind == "var" and self.p.is_declared(node.args[0]):
            return True, self.p.declared_value(node.args[0])
        return False, None

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
                return lambda st, env: None if (c := card(st, env)) is None else table[c[1]]
            attr = self.string(attr_node, scope)
            tables = self.p.attribute_tables

            def dynamic(st, env):
                c, name = card(st, env), attr(st, env)
                table = tables.get(name)
                return None if c is None or table is None else table[c[1]]

            return dynamic
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
        """Compile ``(game sto NAME)`` or ``(WHO sto NAME)`` to its key ``(owner, name)``."""
        if node.kind == "game_storage":
            key = (GAME, node.args[0])
            return lambda st, env: key
        if node.kind != "owned_storage":
            raise node.error("expected a storage such as (game sto NAME) or ((current player) sto NAME)")
        who, name = self.owner(node.args[0], scope), node.args[1]
        return lambda st, env: (who(st, env), name)

    def location(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile a location to its key ``(owner, kind, name)``."""
        self.expect(node, scope, LOC)
        if node.kind == "var":
            return self.var(node, scope)
        if node.kind == "game_location":
            key = (GAME, node.args[0], node.args[1])
            return lambda st, env: key
        owner_node, kind, name = node.args
        if owner_node.kind == "player" and owner_node.args[0] == "current":
            return lambda st, env: (st.cycles[-1][0], kind, name)
        if owner_node.kind == "var" and scope.get(owner_node.args[0]) == PLAYER:
            var = owner_node.args[0]
            return lambda st, env: (env.get(var), kind, name)
        who = self.owner(owner_node, scope)
        return lambda st, env: (who(st, env), kind, name)

    def cards(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile a card collection to a function returning a list of cards ``(key, card)``."""
        kind = self.expect(node, scope, LOC, CARDS)
        if kind == LOC:
            key = self.location(node, scope)

            def at(st, env):
                k = key(st, env)
                return [(k, c) for c in st.locs.get(k, ())]

            return at
        k, a = node.kind, node.args
        if k == "var":
            return self.var(node, scope)
        if k == "union":
            parts = [self.cards(x, scope) for x in a]
            return lambda st, env: [c for part in parts for c in part(st, env)]
        if k == "filter":
            source, var, test = a
            cards = self.cards(source, scope)
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

    def _hoist(self, test: Node, var: str, scope: dict[str, str]) -> tuple[Fn, Fn] | None:
        """For ``(OP X Y)`` where one side does not use ``var``: compute that side once per filter.

        Expressions have no side effects, so the value is the same for every card.
        Returns ``(side, check)``: ``side`` is evaluated once; ``check`` reads it as ``%side``.
        """
        if test.kind != "compare":
            return None
        _, left, right = test.args
        for index, side in ((2, right), (1, left)):
            if _uses(side, var) or self.constant(side)[0] or side.kind == "var":
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

    def card(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile one card: ``(top X)``, ``(bottom X)``, ``(N X)``, ``(max X using 'M)``, a variable."""
        self.expect(node, scope, CARD)
        k, a = node.kind, node.args
        if k == "var":
            return self.var(node, scope)
        if k == "actual":
            return self.card(a[0], scope)
        if k in ("top", "bottom", "nth"):
            index = -1 if k == "top" else 0 if k == "bottom" else a[0]
            source = a[-1]
            if self.kind(source, scope) == LOC:
                key = self.location(source, scope)
                if k != "nth":
                    return _end_card(key, index)

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
            cards, mapname = self.cards(a[0], scope), a[1]
            tables = self.p.score_table
            sign = 1 if k == "max_card" else -1

            def best(st, env):
                table = tables(st, mapname)
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
            names = tuple(a)
            return lambda st, env: names
        if kind == TEAM:  # a team goes through its players
            team = self.team(node, scope)
            members = self.p.teams
            return lambda st, env: [] if (t := team(st, env)) is None else members[t[1]]
        if kind in (LOC, CARDS):
            return self.cards(node, scope)
        raise node.error(f"cannot go through a {kind}")

    # Aggregations ------------------------------------------------------------

    def aggregate_truth(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile ``(any|all COLLECTION 'V CONDITION)``."""
        quant, coll, var, body = node.args
        items = self.collection(coll, scope)
        test = self.truth(body, {**scope, var: self.item_kind(coll, scope)})
        want_all = quant == "all"

        def check(st, env):
            inner = dict(env)
            for item in items(st, env):
                inner[var] = item
                if test(st, inner) != want_all:
                    return not want_all
            return want_all

        return check

    def aggregate_cards(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile ``(all COLLECTION 'V CARDS)``: the cards of every item, in order."""
        quant, coll, var, body = node.args
        if quant != "all":
            raise node.error("(any ...) over locations is not a collection; use (all ...)")
        items = self.collection(coll, scope)
        cards = self.cards(body, {**scope, var: self.item_kind(coll, scope)})

        def gather(st, env):
            inner = dict(env)
            out = []
            for item in items(st, env):
                inner[var] = item
                out.extend(cards(st, inner))
            return out

        return gather


VALUE_FORMS = frozenset(
    {
        "var", "name", "number", "all_players", "all_teams", "agg", "game_location", "owned_location",
        "game_storage", "owned_storage", "player", "team_of_cycle", "team_of", "owner", "other_players",
        "other_teams", "top", "bottom", "nth", "actual", "max_card", "min_card", "union", "filter",
        "size", "sum", "score", "cardatt", "arith", "compare", "logic", "negate", "names",
    }
)  # fmt: skip
