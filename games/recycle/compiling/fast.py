"""The hot paths of compiled RECYCLE expressions, specialized for the usual shapes.

Every game spends most of its time in a few forms: a comparison with a
constant, ``and``/``or`` of two or three conditions, the top card of a location.
These build closures with as few calls as Python allows; the numbers they make
are clamped so no value grows without bound.
"""

from __future__ import annotations

import operator
import random
from collections.abc import Callable
from typing import Any

from games.recycle.reading.syntax import Node

Fn = Callable[[Any, dict], Any]

COMPARE = {
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


MAX_INT = 10**9  # storage and arithmetic are clamped, so no number grows without bound


def _power(a: int, b: int) -> int:
    if b < 0:
        return 0 if abs(a) != 1 else int(a**b)
    if abs(a) > 1 and b > 64:  # past the clamp already: do not compute a huge power
        return MAX_INT if a > 0 or b % 2 == 0 else -MAX_INT
    return a**b


ARITH = {"+": int.__add__, "-": int.__sub__, "*": int.__mul__, "//": _div, "%": _mod, "^": _power}


def specialized_compare(op: str, a: Fn, b: Fn, left: tuple[bool, Any], right: tuple[bool, Any]) -> Fn | None:
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


OPERATOR = {
    "==": operator.eq, "!=": operator.ne, "<": operator.lt,
    ">": operator.gt, "<=": operator.le, ">=": operator.ge,
}  # fmt: skip


def counted_compare(
    op: str, storage: bool, owner: str | int | tuple, rest: tuple, k: int, seats: tuple = ()
) -> Fn:
    """Return ``(OP (size LOCATION) k)`` or ``(OP STORAGE k)`` as one closure (never ``None``: no checks).

    The key is ``(owner, *rest)``: ``owner`` is a constant key (a tuple), ``"current"``
    (the current player: ``seats``, every seat's location key) or a variable's name. The
    size and the stored number are never ``None``, so ``<`` and ``>`` need no check for it.
    """
    test = OPERATOR[op]
    if op == "==":  # the guards' usual test (leading or following), compared inline: no call
        return _counted_equal(storage, owner, rest, k, seats)
    if storage:
        (name,) = rest
        if isinstance(owner, tuple):
            return lambda st, env: test(st.sto.get(owner, 0), k)
        if owner == "current":
            return lambda st, env: test(st.sto.get((st.cycles[-1][0], name), 0), k)
        return lambda st, env: test(st.sto.get((env.get(owner), name), 0), k)
    kind, name = rest
    if isinstance(owner, tuple):
        return lambda st, env: test(len(st.locs.get(owner, ())), k)
    if owner == "current":
        return lambda st, env: test(len(st.locs.get(seats[st.cycles[-1][0]], ())), k)
    return lambda st, env: test(len(st.locs.get((env.get(owner), kind, name), ())), k)


def _counted_equal(storage: bool, owner: str | int | tuple, rest: tuple, k: int, seats: tuple) -> Fn:
    """``counted_compare`` for ``==``."""
    if storage:
        (name,) = rest
        if isinstance(owner, tuple):
            return lambda st, env: st.sto.get(owner, 0) == k
        if owner == "current":
            return lambda st, env: st.sto.get((st.cycles[-1][0], name), 0) == k
        return lambda st, env: st.sto.get((env.get(owner), name), 0) == k
    kind, name = rest
    if isinstance(owner, tuple):
        return lambda st, env: len(st.locs.get(owner, ())) == k
    if owner == "current":
        return lambda st, env: len(st.locs.get(seats[st.cycles[-1][0]], ())) == k
    return lambda st, env: len(st.locs.get((env.get(owner), kind, name), ())) == k


def sized_compare(op: str, cards: Fn, k: int) -> Fn:
    """Return ``(OP (size CARDS) k)`` for a collection of cards (a filter, a union) in one closure."""
    test = OPERATOR[op]
    held = getattr(cards, "held", None)
    if held is not None and op == "==":  # "holds no card of the led suit": compared inline
        return lambda st, env: len(held(st, env)[1]) == k
    if held is not None:  # the cards of one location, counted without a pair per card
        return lambda st, env: test(len(held(st, env)[1]), k)
    return lambda st, env: test(len(cards(st, env)), k)


def every_player(want_all: bool, op: str, storage: bool, rest: tuple, k: int, prog: Any) -> Fn:
    """Return ``(all|any player 'P (OP X k))``, ``X`` the size of ``('P KIND NAME)`` or
    ``('P sto NAME)`` (``rest`` names it): one closure for the whole loop (every stage's end).
    ``prog`` gives the seats' keys (``Program.seat_keys``)."""
    test = OPERATOR[op]
    if storage:
        (name,) = rest

        def check_stored(st, env):
            sto = st.sto
            for p in range(st.players):
                if test(sto.get((p, name), 0), k) != want_all:
                    return not want_all
            return want_all

        return check_stored
    kind, name = rest
    keys: dict[int, tuple] = {}  # players -> each seat's key, made once
    every = prog.seat_keys(kind, name)

    def seats_of(players: int) -> tuple:
        seats = keys[players] = every[:players]
        return seats

    if op == "==" and want_all:  # the usual end (every hand empty, every seat has played), inline

        def check_every(st, env):  # a loop, not all() of a generator: fewer instructions
            get = st.locs.get
            for key in keys.get(st.players) or seats_of(st.players):  # noqa: SIM110
                if len(get(key, ())) != k:
                    return False
            return True

        return check_every
    if op == ">" and want_all:  # every seat has played (Agram's trick)

        def check_every_over(st, env):
            get = st.locs.get
            for key in keys.get(st.players) or seats_of(st.players):  # noqa: SIM110
                if len(get(key, ())) <= k:
                    return False
            return True

        return check_every_over
    if op in ("==", ">"):
        equal = op == "=="

        def check_inline(st, env):
            get = st.locs.get
            for key in keys.get(st.players) or seats_of(st.players):
                if ((len(get(key, ())) == k) if equal else (len(get(key, ())) > k)) != want_all:
                    return not want_all
            return want_all

        return check_inline

    def check_sizes(st, env):
        get = st.locs.get
        for key in keys.get(st.players) or seats_of(st.players):
            if test(len(get(key, ())), k) != want_all:
                return not want_all
        return want_all

    return check_sizes


def end_card(key: Fn, index: int) -> Fn:
    """Return the top (``index`` -1) or bottom (0) card of a location, or ``None`` when empty.

    The closure keeps ``at_end = (key, index)`` for ``attribute_at_end``. A key
    function with a ``fixed`` key (the game's locations) is not called.
    """
    fixed = getattr(key, "fixed", None)
    if fixed is not None:

        def end(st, env):
            cards = st.locs.get(fixed)
            return (fixed, cards[index]) if cards else None
    else:

        def end(st, env):
            k = key(st, env)
            cards = st.locs.get(k)
            return (k, cards[index]) if cards else None

    end.at_end = (key, index)
    return end


def attribute_at_end(table: list, key: Fn, index: int) -> Fn:
    """Return ``(cardatt ATTR (top|bottom L))``: the attribute from ``table`` of L's end card, or ``None``."""
    fixed = getattr(key, "fixed", None)
    if fixed is not None:

        def fixed_end(st, env):
            cards = st.locs.get(fixed)
            return table[cards[index]] if cards else None

        fixed_end.fixed_at = (table, fixed, index)  # read in place by filters (filters.py)
        return fixed_end

    def end(st, env):
        cards = st.locs.get(key(st, env))
        return table[cards[index]] if cards else None

    return end


def move_top(source: Fn, dest: Fn) -> Fn:
    """Return ``(move (top A) (top B))``: A's top card onto B, as the general move does it.

    ``source`` and ``dest`` give the keys of A and B. A card whose destination
    has no owner (an unbound variable) stays in A, as in the general move.
    """

    def move(st, env):
        cards = st.locs.get(source(st, env))
        if not cards:
            return
        to = dest(st, env)
        if to[0] is not None:
            card = cards.pop()
            pile = st.locs.get(to)
            if pile is None:
                st.locs[to] = [card]
            else:
                pile.append(card)

    return move


def move_many(st: Any, env: dict, source: Fn, dest: Fn, most: int, ticks: int | None, limit: int) -> bool:
    """Move up to ``most`` top cards of A onto B at once, as that many ``move_top`` would.

    For ``(repeat N move)`` (``ticks`` = N steps) and ``(repeat all move)``
    (``ticks`` None: one step per card). The keys of A and B do not depend on
    where cards are, so they stay the same move after move. Returns ``False``,
    having changed nothing, where one move at a time would differ or stop the
    game: A is B, B has no owner, or the steps would pass ``limit``.
    """
    key = source(st, env)
    to = dest(st, env)
    if to == key or to[0] is None:
        return False
    cards = st.locs.get(key) or []
    count = min(len(cards), most)
    spent = count if ticks is None else ticks
    if st.steps + spent > limit:
        return False
    st.steps += spent
    if count:
        moved = cards[-count:]
        del cards[-count:]
        moved.reverse()
        pile = st.locs.get(to)
        if pile is None:
            st.locs[to] = moved
        else:
            pile.extend(moved)
    return True


def logic(conjunction: bool, parts: list[Fn]) -> Fn:
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


def shuffle_as_random(rng: random.Random, cards: list) -> None:
    """Shuffle ``cards`` in place exactly as ``rng.shuffle(cards)`` does, with no call per card.

    CPython's ``Random.shuffle``: from the last place down, swap with a place
    drawn below it by ``getrandbits`` (redrawn while out of range). The same
    seed deals the same cards (tests/games/recycle/test_fast_paths.py checks it).
    """
    getrandbits = rng.getrandbits
    for i in range(len(cards) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        cards[i], cards[j] = cards[j], cards[i]


def draws(node: Any) -> bool:
    """Return whether the expression ``node`` draws a random number (each evaluation draws anew)."""
    return isinstance(node, Node) and (node.kind == "random" or any(draws(arg) for arg in node.args))


def uses(node: Any, var: str) -> bool:
    """Return whether the expression ``node`` reads the variable ``var``, or draws a random number
    (then it may differ from one evaluation to the next, and each draws: it is not computed once)."""
    if not isinstance(node, Node):
        return False
    if node.kind == "var":
        return node.args[0] == var
    if node.kind == "random":
        return True
    return any(uses(arg, var) for arg in node.args)


def clamp(value: int) -> int:
    """Keep a number within +-``MAX_INT``."""
    return MAX_INT if value > MAX_INT else -MAX_INT if value < -MAX_INT else value


def fibonacci(n: int) -> int:
    """Return the ``n``th Fibonacci number (0, 1, 1, 2...), clamped; 0 for ``n`` below 1."""
    a, b = 0, 1
    for _ in range(min(max(n, 0), 60)):  # the 45th is past the clamp already
        a, b = b, a + b
    return clamp(a)


def shape(node: Any, bound: tuple = ()) -> Any:
    """Return a hashable form of ``node`` without its place in the text or the names of the
    variables it binds: equal for forms that compute the same (``(filter L 'C ...)`` and
    ``(filter L 'T ...)`` with 'T for 'C)."""
    if not isinstance(node, Node):
        return node
    if node.kind == "var" and node.args[0] in bound:
        return ("bound", bound[::-1].index(node.args[0]))  # the innermost binding of the name
    if node.kind == "filter":  # (filter SOURCE 'V TEST)
        source, var, test = node.args
        return ("filter", shape(source, bound), shape(test, (*bound, var)))
    if node.kind == "agg":  # (QUANT COLLECTION 'V BODY)
        quant, coll, var, body = node.args
        return ("agg", quant, shape(coll, bound), shape(body, (*bound, var)))
    return (node.kind, *(shape(arg, bound) for arg in node.args))


def memoized(fn: Fn) -> Fn:
    """Return ``fn`` computed once per ``env`` object: a choice's build passes one fresh ``env``
    to all its parts, and the state does not change while it builds, so a collection two parts
    read (a guard's and an ``any``'s) is made once. One assignment keeps threads apart."""
    last: tuple = (None, None)

    def once(st: Any, env: dict) -> Any:
        nonlocal last
        seen, value = last
        if seen is env:
            return value
        value = fn(st, env)
        last = (env, value)
        return value

    return once
