"""Hostile descriptions: whatever the text, loading and playing it fail only with a ``GameError``.

Texts are CardStock's own codings with pieces cut, doubled or swapped, and
bracketed soups of RECYCLE's own words, so most of them get deep into the
compiler and the interpreter rather than stopping at the first character.
"""

from __future__ import annotations

import functools
import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine import GameError
from games.recycle import RecycleError, library, loads
from games.recycle.reading.listing import extract_listing
from games.recycle.reading.syntax import MAX_DEPTH
from tests.games.recycle.helpers import SEED_POSTS, seed_post


@functools.cache
def seed_listing(game: str) -> str:
    """The RECYCLE listing of a game's seed post, read once (inside a test: it may skip)."""
    return extract_listing(seed_post(game).read_text(encoding="utf-8"))


# The library's newer games, damaged too: they use forms the seeds do not.
LIBRARY_GAMES = ("whist", "crazy_eights", "go_fish")


def listing(name: str) -> str:
    """A seed post's listing (read inside a test: it may skip) or a library game's text."""
    return library()[name].read_text(encoding="utf-8") if name in LIBRARY_GAMES else seed_listing(name)


WORDS = [
    "game",
    "setup",
    "create",
    "players",
    "teams",
    "deck",
    "stage",
    "player",
    "team",
    "end",
    "choice",
    "do",
    "any",
    "all",
    "filter",
    "move",
    "remember",
    "forget",
    "shuffle",
    "repeat",
    "cycle",
    "next",
    "current",
    "previous",
    "owner",
    "top",
    "bottom",
    "max",
    "min",
    "using",
    "union",
    "size",
    "sum",
    "score",
    "cardatt",
    "put",
    "points",
    "set",
    "inc",
    "dec",
    "sto",
    "iloc",
    "vloc",
    "hloc",
    "mem",
    "and",
    "or",
    "not",
    "==",
    "!=",
    "<",
    ">",
    "+",
    "-",
    "*",
    "//",
    "%",
    "HAND",
    "STOCK",
    "RANK",
    "SUIT",
    "A",
    "K",
    "HEARTS",
    "'P",
    "'C",
    "0",
    "1",
    "4",
    "13",
    "99999999999",
    # CardStock's 0.5 words
    "str",
    "oloc",
    "range",
    "..",
    ":",
    "random",
    "tri",
    "fib",
    "^",
    "intersect",
    "disjunction",
    "sort",
    "tuples",
    "partition",
    "subsets",
    "runs",
    "run",
    "largest",
    "let",
    "declare",
]


def exercise(text: str) -> None:
    """Load ``text`` and play a few random moves; only game errors may come out."""
    try:
        game = loads(text)
    except RecycleError as error:
        assert str(error)
        return
    rng = random.Random(0)
    try:
        state = game.new(None, None, 0)
        for _ in range(40):
            if game.is_over(state):
                break
            (seat,) = game.to_act(state)
            game.apply(state, seat, game.random_move(state, seat, rng))
            game.view(state, seat)
    except GameError as error:
        assert str(error)


@settings(max_examples=120, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    post=st.sampled_from([*sorted(SEED_POSTS), *LIBRARY_GAMES]),
    cuts=st.lists(
        st.tuples(st.floats(0, 1), st.integers(1, 40), st.sampled_from(["cut", "double", "word"])), max_size=3
    ),
    word=st.sampled_from(WORDS),
)
def test_damaged_codings_fail_cleanly(post: str, cuts: list, word: str) -> None:
    text = listing(post)
    for at, length, how in cuts:
        i = int(at * len(text))
        if how == "cut":
            text = text[:i] + text[i + length :]
        elif how == "double":
            text = text[:i] + text[i : i + length] * 2 + text[i:]
        else:
            text = text[:i] + f" {word} " + text[i:]
    exercise(text)


@settings(max_examples=120, deadline=None)
@given(st.recursive(st.sampled_from(WORDS), lambda inner: st.lists(inner, max_size=5), max_leaves=40))
def test_word_soups_fail_cleanly(tree: object) -> None:
    def render(node: object) -> str:
        return node if isinstance(node, str) else "(" + " ".join(render(n) for n in node) + ")"

    head = (
        "(game (setup (create players 2)"
        " (create deck (game iloc STOCK) (deck (RANK (A, K)) (SUIT (HEARTS)))))"
    )
    exercise(f"{head} (do ({render(tree)})) (scoring max 0))")
    exercise(f"{head} {render(tree)} (scoring max 0))")


def test_the_deepest_allowed_nesting_compiles_and_runs() -> None:
    depth = MAX_DEPTH - 6
    text = (
        "(game (setup (create players 2))\n (do (("
        + "(not " * depth
        + "(== 1 1)"
        + ")" * depth
        + " (inc (game sto X) 1))))\n (scoring max (game sto X)))"
    )
    game = loads(text)
    state = game.new(None, None, 0)
    assert game.is_over(state)
    assert game.result(state)["scores"] == [int(depth % 2 == 0)] * 2
