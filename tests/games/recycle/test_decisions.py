"""A choice's plays listed by its decision tree (compiling/decisions.py) are the general way's moves.

The tree makes the tests and readings the parts' loop would make, less those
that what is already known settles; the moves must be the same, and the
settled ones must not be made.
"""

from __future__ import annotations

import random

import pytest

from games.recycle import library, load
from games.recycle.compiling.decisions import END, TWICE, decision_tree
from games.recycle.playing import runner

SIZE_LEAD = ("size", ("game_location", "mem", "LEAD"))
HAND = ("owned_location", ("player", "current"), "iloc", "HAND")
FOLLOW = ("filter", HAND, ("same suit",))


def _is(form: object, n: int, op: str = "==") -> tuple:
    return ("compare", op, form, ("number", n))


@pytest.mark.parametrize("name", sorted(library()))
def test_the_tree_lists_the_general_ways_moves(name: str) -> None:
    game = load(library()[name])
    prog = game.program
    for seed in range(4):
        rng = random.Random(seed)
        state = game.new(game.info.default_players, None, seed)
        for _ in range(400):
            if game.is_over(state):
                break
            seat = game.to_act(state)[0]
            listed = runner.build_options(prog, state, state.choice)[0]
            general = runner.build_options(prog, state, state.choice, {}, tried=True)[0]
            assert listed == general
            legal = game.legal_moves(state, seat)
            game.advance(state, seat, legal[int(rng.random() * len(legal))])


def test_what_is_known_settles_the_other_tests() -> None:
    made: list[str] = []

    def test(name: str, value: bool):
        def made_test(st, env):
            made.append(name)
            return value

        return made_test

    def held(name: str, cards: list):
        def reading(st, env):
            made.append(name)
            return "key", cards

        return reading

    # Lead (the led pile empty) any card; follow with the led suit when the hand has it, else any.
    forms = {0: _is(SIZE_LEAD, 0), 1: _is(SIZE_LEAD, 1), 2: _is(("size", FOLLOW), 0)}
    helds = (
        (((0, test("lead", False)),), held("hand", [1, 2])),
        (((1, test("follow", True)), (2, test("void", False))), held("hand", [1, 2])),
        (((1, test("follow", True)),), held("suit", [2])),
    )
    tree = decision_tree(helds, forms, [HAND, HAND, FOLLOW])
    node, one = tree, None
    while type(node) in (tuple, list):
        if type(node) is tuple:
            node = node[1] if node[0](None, None) else node[2]
        else:
            _, cards = node[0](None, None)
            if cards:
                one, node = (node[1], cards), node[2]
            else:
                node = node[3]
    assert node == END and one == (2, [2])
    # "follow" once (the second part's is settled), no second "lead", and the suit read once.
    assert made == ["lead", "follow", "void", "suit"]


def test_two_parts_offering_cards_are_left_to_the_general_way() -> None:
    helds = (((), lambda st, env: ("a", [1])), ((), lambda st, env: ("b", [2])))
    tree = decision_tree(helds, {}, [None, None])
    assert tree[2][2] == TWICE
