"""Compile RECYCLE's card moves: ``move``, ``remember``, ``forget``, ``shuffle``, ``repeat``, ``create deck``.

A card leaves its location and goes to the top, the bottom or a place of
another; ``(move (top A) (top B))`` between locations whose keys moving cards
cannot change is one closure, and repeated it moves its cards as one slice.
"""

from __future__ import annotations

import random
from typing import Any

from games.recycle.compiling.choices import Choices
from games.recycle.compiling.fast import Fn, move_top, shuffle_as_random
from games.recycle.playing.bounds import MAX_REPEAT, RecycleRuntimeError, check_held, moved_many, tick
from games.recycle.reading.kinds import CARD, CARDS, LOC, PLAYER
from games.recycle.reading.syntax import Node


class Moves(Choices):
    """The actions that move cards (``Actions.action`` dispatches to them by form)."""

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

        fast = None if keep else self._move_bound_card(node, scope, source)
        if fast is not None:
            return fast

        def move(st, env):
            found = source(st, env)
            if found is None:
                return  # moving a card that is not there does nothing
            # Both ends are found before the card leaves, as CardStock's ProcessMove does: a
            # destination read from the card's own place ((owner (max ...)) of it) still finds it.
            to = dest(st, env)
            if to[0] is None:
                return  # a destination of nobody's (an unbound variable): the card stays
            key, card = found
            if keep:  # a remembered copy: the only way, with create deck, that cards multiply
                check_held(st, node, 1)
            elif not take_card(st.locs, key, card):
                return
            if where == "top":
                put_on_top(st.locs, to, card)
            else:
                place(st, to, where, card)

        move.source = source  # for (repeat all ...)
        return move

    def _move_bound_card(self, node: Node, scope: dict[str, str], source: Fn) -> Fn | None:
        """``(move 'C (top ((current player) KIND NAME)))``, ``'C`` a bound card (a play): the
        general move in one closure, the variable and the key read in place."""
        card_node, to_node = node.args
        loc = to_node.args[-1]
        if not (
            card_node.kind == "var"
            and card_node.args[0] in scope
            and to_node.kind == "top"
            and loc.kind == "owned_location"
            and isinstance(loc.args[2], str)
            and loc.args[0].kind == "player"
            and loc.args[0].args[0] == "current"
        ):
            return None
        var, (_, kind, name) = card_node.args[0], loc.args
        seats = self.p.seat_keys(kind, name)

        def move(st, env):  # take_card and put_on_top inline: every card play comes here
            found = env.get(var)
            if found is None:
                return
            key, card = found
            locs = st.locs
            cards = locs.get(key)
            if not cards:
                return
            if cards[-1] == card:
                cards.pop()
            elif card in cards:
                cards.remove(card)
            else:
                return
            to = seats[st.cycles[-1][0]]
            pile = locs.get(to)
            if pile is None:
                locs[to] = [card]
            else:
                pile.append(card)

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

            def every_card(st, env):
                # As CardStock's ProcessRepeat: as many times as the location of the first
                # card holds cards when the repeat begins (a move onto the same place, or a
                # remembered copy, so ends; the copies of a deck made twice all move).
                found = source(st, env)
                if found is None:
                    return
                count = len(st.locs.get(found[0], ()))
                if ends is not None and moved_many(st, env, ends, count, None, node, limit):
                    return
                for _ in range(count):
                    tick(st, node, limit)
                    body(st, env)

            return every_card
        count = self.number(count_node, scope)
        ends = getattr(body, "ends", None)

        def times(st, env):
            n = count(st, env) or 0
            if n > MAX_REPEAT:
                message = f"repeat {n} times is more than {MAX_REPEAT}"
                raise RecycleRuntimeError(message, node.line, node.column)
            if ends is not None and n > 0 and moved_many(st, env, ends, n, n, node, limit):
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
            check_held(st, node, len(cards))
            k = key(st, env)
            if k[0] is not None:
                st.locs.setdefault(k, []).extend(cards)

        return create


def take_card(locs: dict, key: tuple, card: Any) -> bool:
    """Take ``card`` out of the place ``key`` (from the top when it is there, as most moves are);
    return whether it was there."""
    cards = locs.get(key)
    if not cards:
        return False
    if cards[-1] == card:
        cards.pop()
    elif card in cards:
        cards.remove(card)
    else:
        return False
    return True


def put_on_top(locs: dict, to: tuple, card: Any) -> None:
    """Put ``card`` on top of the place ``to`` (made when it is new)."""
    pile = locs.get(to)
    if pile is None:
        locs[to] = [card]
    else:
        pile.append(card)
