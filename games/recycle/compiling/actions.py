"""Compile RECYCLE actions into closures that change the state.

An action is a function ``f(state, env)``. Work is counted (``bounds.tick``) so
no action, loop or stage runs without bound between two choices. The actions
that move cards are compiled in ``moving.py``.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from games.recycle.compiling.fast import Fn, clamp, uses
from games.recycle.compiling.moving import Moves
from games.recycle.playing.bounds import CLOCK_EVERY, check_step
from games.recycle.reading.kinds import ACTION, BOOL, CARD, INT, LOC, PLAYER, STR, TEAM
from games.recycle.reading.syntax import Node


class Actions(Moves):
    """The action half of the compiler."""

    def action(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile one action (or ``do``, guard, ``any``/``all``, ``let``) to run it."""
        k, a = node.kind, node.args
        limit = self.p.max_steps
        if k == "do":
            parts = [self.action(x, scope) for x in a]

            def run_all(st, env):
                for part in parts:
                    st.steps += 1
                    if st.steps > limit or not st.steps & CLOCK_EVERY:
                        check_step(st, node, limit)
                    part(st, env)

            return run_all
        if k == "guarded":
            test, body = self.truth(a[0], scope), self.action(a[1], scope)

            def guarded(st, env):
                if test(st, env):
                    body(st, env)

            return guarded
        if k == "agg":
            return self.each(node, scope)
        if k == "let":
            value_node, var, body_node = a
            value = self.value(value_node, scope)
            body = self.action(body_node, {**scope, var: self.kind(value_node, scope)})
            return lambda st, env: body(st, {**env, var: value(st, env)})
        handler = getattr(self, "_" + k, None)
        if handler is None:
            raise node.error(f"{k} is not an action")
        return handler(node, scope)

    def value(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile any value by its kind (for ``let`` and ``declare``)."""
        kind = self.kind(node, scope)
        return {
            INT: self.number, BOOL: self.truth, STR: self.string, CARD: self.card, LOC: self.location,
            PLAYER: self.player, TEAM: self.team,
        }.get(kind, self.collection)(node, scope)  # fmt: skip

    def each(self, node: Node, scope: dict[str, str]) -> Fn:
        """Compile ``(any|all COLLECTION 'V ACTION)`` run outside a choice: the action for every item.

        CardStock runs an ``any`` outside a choice for every item too (Stealing
        Bundles' steal from every matching bundle relies on it).
        """
        _, coll, var, body_node = node.args
        if self.kind(node, scope) != ACTION:
            raise node.error("this (any/all ...) is a value, not an action")
        items = self.collection(coll, scope)
        body = self.action(body_node, {**scope, var: self.item_kind(coll, scope)})
        limit = self.p.max_steps
        if coll.kind == "all_players" and getattr(body, "ends", None) is not None:
            every = _every_seat_moves(node, body, limit, self.p)
            if every is not None:
                return every

        def run(st, env):
            inner = dict(env)  # one binding at a time: no action keeps its env
            for item in list(items(st, env)):
                st.steps += 1
                if st.steps > limit or not st.steps & CLOCK_EVERY:
                    check_step(st, node, limit)
                inner[var] = item
                body(st, inner)

        return run

    # The actions ----------------------------------------------------------------

    def _put_points(self, node: Node, scope: dict[str, str]) -> Fn:
        name, *awards = node.args
        entries = [self._award(award, scope) for award in awards]
        # The entries made once stay in place; only the others are made each time.
        made = [getattr(entry, "fixed", None) for entry in entries]
        dynamic = [(i, entry) for i, entry in enumerate(entries) if made[i] is None]

        last: list = [tuple(made)]

        def put(st, env):
            changed = False
            for i, entry in dynamic:
                now = entry(st, env)
                if now is not made[i]:
                    made[i], changed = now, True
            if changed:
                last[0] = tuple(made)
            # The same map is the same tuple: Program.score_table finds its table by identity.
            st.points[name] = last[0]

        return put

    def _set_points(self, node: Node, scope: dict[str, str]) -> Fn:
        """``(set (game points NAME) (AWARD...))``, the 0.5 form of ``put points``."""
        target, *awards = node.args
        key = self.points_key(target, scope)
        entries = [self._award(award, scope) for award in awards]

        def put(st, env):
            k = key(st, env)
            if k is not None:
                st.points[k] = tuple([entry(st, env) for entry in entries])

        return put

    def _award(self, award: Node, scope: dict[str, str]) -> Fn:
        """Compile one entry of a point map: ``((ATTR VALUES)... POINTS)`` -> ``(conditions, points)``."""
        *subawards, points_node = award.args
        known, fixed_points = self.constant(points_node)
        points = self.number(points_node, scope)
        fixed, dynamic = [], []
        for sub in subawards:
            attr, value_node = sub.args
            if value_node.kind == "names":
                fixed.append((attr, frozenset(value_node.args)))
            elif self.constant(value_node)[0]:
                fixed.append((attr, frozenset((self.constant(value_node)[1],))))
            else:
                dynamic.append((attr, self.string(value_node, scope)))
        if known and not dynamic:  # the usual entry, made once
            entry = (tuple(fixed), fixed_points)

            def same(st, env):
                return entry

            same.fixed = entry
            return same

        if known and len(dynamic) == 1:  # one value read in play (the led suit): one entry per value
            ((attr, value),) = dynamic
            per_value: dict = {}

            def made_for(st, env):
                v = value(st, env)
                entry = per_value.get(v)
                if entry is None:
                    if len(per_value) > 64:
                        per_value.clear()
                    entry = per_value[v] = ((*fixed, (attr, frozenset((v,)))), fixed_points or 0)
                return entry

            return made_for

        def made(st, env):
            conds = fixed + [(attr, frozenset((value(st, env),))) for attr, value in dynamic]
            return (tuple(conds), points(st, env) or 0)  # no number (an unbound variable): 0

        return made

    def _cycle(self, node: Node, scope: dict[str, str]) -> Fn:
        which, target = node.args
        if isinstance(target, str):
            who = self.player(Node("player", (target,), node.line, node.column), scope)
        else:
            who = self.player(target, scope)

        def cycle(st, env):
            seat = who(st, env)
            if seat is None:
                return
            if which == "next":
                st.cycles[-1][1] = seat
            else:
                st.cycles[-1][0] = seat

        return cycle

    def _set(self, node: Node, scope: dict[str, str]) -> Fn:
        if node.args[0].kind in ("game_string", "owned_string"):
            key, text = self.storage_key(node.args[0], scope), self.string(node.args[1], scope)

            def store(st, env):
                k = key(st, env)
                if k[0] is not None:
                    st.strs[k] = text(st, env) or ""

            return store
        return self._store(node, scope, lambda old, new: new)

    def _inc(self, node: Node, scope: dict[str, str]) -> Fn:
        return self._store(node, scope, lambda old, new: old + new)

    def _dec(self, node: Node, scope: dict[str, str]) -> Fn:
        return self._store(node, scope, lambda old, new: old - new)

    def _store(self, node: Node, scope: dict[str, str], combine: Callable[[int, int], int]) -> Fn:
        key, amount = self.storage_key(node.args[0], scope), self.number(node.args[1], scope)

        def store(st, env):
            k = key(st, env)
            if k[0] is not None:
                st.sto[k] = clamp(combine(st.sto.get(k, 0), amount(st, env) or 0))

        return store

    def _turn_pass(self, node: Node, scope: dict[str, str]) -> Fn:
        return lambda st, env: None

    def _create_teams(self, node: Node, scope: dict[str, str]) -> Fn:
        raise node.error("teams are made once, in the setup")


def _every_seat_moves(node: Node, body: Fn, limit: int, prog: Any) -> Fn | None:
    """``(all player 'P (move (top ('P KIND NAME)) (top B)))`` (the trick gathered): ``each``
    and its fused move (``fast.move_top``) in one closure, each seat's key made in place."""
    _, _, var, body_node = node.args
    source = body_node.args[0].args[-1]
    owner = source.args[0]
    if source.kind != "owned_location" or owner.kind != "var" or owner.args[0] != var:
        return None
    _, kind, name = source.args
    dest = body.ends[1]
    # A destination that does not name the seat is the same for every seat (moves do not change it).
    same = not uses(body_node.args[1], var)

    keys: dict[int, tuple] = {}  # players -> (seat, its key) of every seat, made once
    every = prog.seat_keys(kind, name)

    def every_seat(st, env):
        locs = st.locs
        # The seats' steps counted at once, unless one of them is checked (the bound, the clock).
        first, last = st.steps, st.steps + st.players
        counted = last > limit or last | CLOCK_EVERY != first | CLOCK_EVERY
        if not counted:
            st.steps = last
            if same:  # one pile for every seat's card, found at the first card (as one move at a time)
                seats = keys.get(st.players)
                if seats is None:
                    seats = keys[st.players] = tuple(enumerate(every[: st.players]))
                pile = None
                for seat, key in seats:
                    cards = locs.get(key)
                    if cards:
                        if pile is None:
                            to = dest(st, {**env, var: seat})
                            if to[0] is None:  # a destination of nobody's: every card stays
                                return
                            pile = locs.get(to)
                            if pile is None:
                                pile = locs[to] = []
                        pile.append(cards.pop())
                return
        inner = dict(env)
        to = None
        for seat in range(st.players):
            if counted:
                st.steps += 1
                if st.steps > limit or not st.steps & CLOCK_EVERY:
                    check_step(st, node, limit)
            cards = locs.get((seat, kind, name))
            if not cards:
                continue
            if to is None or not same:
                inner[var] = seat
                to = dest(st, inner)
            if to[0] is not None:  # a destination of nobody's: the card stays, as a move does
                card = cards.pop()
                pile = locs.get(to)
                if pile is None:
                    locs[to] = [card]
                else:
                    pile.append(card)

    return every_seat


__all__ = ["Actions"]
