"""Compile RECYCLE actions into closures that change the state.

An action is a function ``f(state, env)``. Work is counted (``tick``) so no
action, loop or stage runs without bound between two choices.
"""

from __future__ import annotations

import random
import time
from collections.abc import Callable
from typing import Any

from games.recycle.choices import Choices
from games.recycle.errors import RecycleRuntimeError
from games.recycle.fast import Fn, clamp, move_many, move_top, shuffle_as_random
from games.recycle.kinds import ACTION, BOOL, CARD, CARDS, INT, LOC, PLAYER, STR, TEAM
from games.recycle.state import GAME
from games.recycle.syntax import Node

MAX_REPEAT = 10_000
MAX_HELD = 20_000  # cards in all locations together, remembered copies included
MAX_SECONDS = 5.0  # CPU time of one move (the setup and the play to the first choice count as one)
CLOCK_EVERY = 63  # the clock is read every 64 steps


def tick(st: Any, node: Node, limit: int) -> None:
    """Count one step of work; past ``limit`` steps or ``MAX_SECONDS`` in one move, stop the game
    with a located error."""
    st.steps += 1
    if st.steps > limit or not st.steps & CLOCK_EVERY:
        check_step(st, node, limit)


def check_step(st: Any, node: Node, limit: int) -> None:
    """The checks of a step counted inline: called when ``st.steps`` is past ``limit`` or a
    multiple of 64 (the clock is read then), as ``tick`` calls it."""
    if st.steps > limit:
        raise RecycleRuntimeError(
            f"more than {limit} steps without a player's choice: does this loop ever end?",
            node.line,
            node.column,
        )
    check_time(st, node)


def check_time(st: Any, node: Node) -> None:
    """Stop the game with a located error once the move being made has taken ``MAX_SECONDS`` of CPU.

    The clock starts at a move's first reading (its 64th step): most moves take
    fewer steps and so never make the system call.
    """
    now = time.thread_time()
    if st.began is None:
        st.began = now
    if now - st.began > MAX_SECONDS:
        message = f"one move took more than {MAX_SECONDS} seconds: does this loop ever end?"
        raise RecycleRuntimeError(message, node.line, node.column)


def _moved_many(
    st: Any, env: dict, ends: tuple, most: int, ticks: int | None, node: Node, limit: int
) -> bool:
    """``fast.move_many``, with the clock read as ``tick`` reads it: when the steps it counts
    pass a multiple of 64."""
    before = st.steps
    if not move_many(st, env, *ends, most, ticks, limit):
        return False
    if st.steps > before | CLOCK_EVERY:
        check_time(st, node)
    return True


def _check_held(st: Any, node: Node, more: int) -> None:
    if sum(map(len, st.locs.values())) + more > MAX_HELD:
        raise RecycleRuntimeError(f"more than {MAX_HELD} cards held in all locations", node.line, node.column)


class Actions(Choices):
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

        def run(st, env):
            for item in list(items(st, env)):
                st.steps += 1
                if st.steps > limit or not st.steps & CLOCK_EVERY:
                    check_step(st, node, limit)
                body(st, {**env, var: item})

        return run

    # The actions ----------------------------------------------------------------

    def _put_points(self, node: Node, scope: dict[str, str]) -> Fn:
        name, *awards = node.args
        entries = [self._award(award, scope) for award in awards]
        # The entries made once stay in place; only the others are made each time.
        made = [getattr(entry, "fixed", None) for entry in entries]
        dynamic = [(i, entry) for i, entry in enumerate(entries) if made[i] is None]

        def put(st, env):
            for i, entry in dynamic:
                made[i] = entry(st, env)
            st.points[name] = tuple(made)

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

    def _destination(self, node: Node, scope: dict[str, str]) -> tuple[Fn, str | int]:
        if node.kind not in ("top", "bottom", "nth") or self.kind(node.args[-1], scope) != LOC:
            raise node.error("a card goes to (top LOCATION), (bottom LOCATION) or (N LOCATION)")
        where = node.kind if node.kind != "nth" else node.args[0]
        return self.location(node.args[-1], scope), where

    def _place(self, st: Any, key: tuple, where: str | int, card: int) -> None:
        if key[0] is None:
            return
        cards = st.locs.get(key)
        if cards is None:
            cards = st.locs[key] = []
        if where == "top":
            cards.append(card)
        elif where == "bottom":
            cards.insert(0, card)
        else:
            cards.insert(min(int(where), len(cards)), card)

    def _move(self, node: Node, scope: dict[str, str], keep: bool = False) -> Fn:
        source = self.card(node.args[0], scope)
        dest, where = self._destination(node.args[1], scope)
        place = self._place
        ends = None if keep else self._fixed_ends(node, scope, dest)
        if ends is not None:
            fused = move_top(*ends)
            fused.source, fused.ends = source, ends  # for (repeat all ...), and moving many at once
            return fused

        def move(st, env):
            found = source(st, env)
            if found is None:
                return  # moving a card that is not there does nothing
            key, card = found
            if keep:  # a remembered copy: the only way, with create deck, that cards multiply
                _check_held(st, node, 1)
            else:
                cards = st.locs.get(key)
                if not cards:
                    return
                if cards[-1] == card:
                    cards.pop()
                elif card in cards:
                    cards.remove(card)
                else:
                    return
            to = dest(st, env)
            if where == "top" and to[0] is not None:
                pile = st.locs.get(to)
                if pile is None:
                    st.locs[to] = [card]
                else:
                    pile.append(card)
            else:
                place(st, to, where, card)

        move.source = source  # for (repeat all ...)
        return move

    def _fixed_ends(self, node: Node, scope: dict[str, str], dest: Fn) -> tuple[Fn, Fn] | None:
        """For ``(move (top A) (top B))`` where moving cards cannot change the keys of A and B
        (each the game's, or a player's given by a player form or variable): their key functions."""
        src, to = node.args
        if src.kind != "top" or to.kind != "top":
            return None
        ends = (src.args[-1], to.args[-1])
        for loc in ends:
            if self.kind(loc, scope) != LOC or loc.kind not in ("game_location", "owned_location"):
                return None
            if not isinstance(loc.args[-1], str):  # a name computed in play may change as cards move
                return None
            owner = loc.args[0]
            if loc.kind == "owned_location" and not (
                owner.kind == "player" or (owner.kind == "var" and scope.get(owner.args[0]) == PLAYER)
            ):
                return None
        return self.location(ends[0], scope), dest

    def _remember(self, node: Node, scope: dict[str, str]) -> Fn:
        return self._move(node, scope, keep=True)

    def _forget(self, node: Node, scope: dict[str, str]) -> Fn:
        source = self.card(node.args[0], scope)

        def forget(st, env):
            found = source(st, env)
            if found is not None and found[1] in st.locs.get(found[0], ()):
                st.locs[found[0]].remove(found[1])

        forget.source = source
        return forget

    def _shuffle(self, node: Node, scope: dict[str, str]) -> Fn:
        key = self.location(node.args[0], scope)

        def shuffle(st, env):
            cards = st.locs.get(key(st, env))
            if cards:
                # Each shuffle has its own stream drawn from the game's seed.
                shuffle_as_random(random.Random(st.seed * 1_000_003 + st.shuffles), cards)
            st.shuffles += 1

        return shuffle

    def _turn_pass(self, node: Node, scope: dict[str, str]) -> Fn:
        return lambda st, env: None

    def _repeat(self, node: Node, scope: dict[str, str]) -> Fn:
        count_node, body_node = node.args
        body = self.action(body_node, scope)
        limit = self.p.max_steps
        if count_node == "all":
            source = getattr(body, "source", None)
            if source is None:
                raise node.error("(repeat all ...) repeats a move, remember or forget")
            each = self._each_of_collection(body_node, scope)
            if each is not None:
                return each

            ends = getattr(body, "ends", None)

            def until_empty(st, env):
                if ends is not None and _moved_many(st, env, ends, self.p.card_count + 1, None, node, limit):
                    return
                for _ in range(self.p.card_count + 1):
                    if source(st, env) is None:
                        return
                    tick(st, node, limit)
                    body(st, env)

            return until_empty
        count = self.number(count_node, scope)
        ends = getattr(body, "ends", None)

        def times(st, env):
            n = count(st, env) or 0
            if n > MAX_REPEAT:
                message = f"repeat {n} times is more than {MAX_REPEAT}"
                raise RecycleRuntimeError(message, node.line, node.column)
            if ends is not None and n > 0 and _moved_many(st, env, ends, n, n, node, limit):
                return
            for _ in range(n):
                tick(st, node, limit)
                body(st, env)

        return times

    def _each_of_collection(self, body_node: Node, scope: dict[str, str]) -> Fn | None:
        """``(repeat all (move (top C) ...))`` where ``C`` is not a location (a run, a pair, a
        filter): every card ``C`` holds when the repeat begins, from that end.

        A collection made in play does not change when its cards move, so repeating
        until it is empty would never end; CardStock's virtual collections lose the
        card moved, which comes to the same thing.
        """
        card_node = body_node.args[0]
        if card_node.kind not in ("top", "bottom") or self.kind(card_node.args[0], scope) != CARDS:
            return None
        cards = self.cards(card_node.args[0], scope)
        one = Node("var", ("%each",), card_node.line, card_node.column)
        body = self.action(
            Node(body_node.kind, (one, *body_node.args[1:]), body_node.line, body_node.column),
            {**scope, "%each": CARD},
        )
        from_top, limit = card_node.kind == "top", self.p.max_steps

        def every(st, env):
            found = cards(st, env)
            for card in reversed(found) if from_top else list(found):
                tick(st, body_node, limit)
                body(st, {**env, "%each": card})

        return every

    def _create_deck(self, node: Node, scope: dict[str, str]) -> Fn:
        # (create deck NAME LOCATION (deck ...)): 0.5 names a deck; the name changes nothing here.
        key = self.location(node.args[-2], scope)
        cards = self.p.deck_cards(node)

        def create(st, env):
            _check_held(st, node, len(cards))
            k = key(st, env)
            if k[0] is not None:
                st.locs.setdefault(k, []).extend(cards)

        return create

    def _create_teams(self, node: Node, scope: dict[str, str]) -> Fn:
        raise node.error("teams are made once, in the setup")


__all__ = ["GAME", "Actions", "tick"]
