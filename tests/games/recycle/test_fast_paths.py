"""The interpreter's shortcuts play as the general way: moves made many at once, plays listed directly.

``(repeat N (move (top A) (top B)))`` and ``(repeat all ...)`` move their cards
in one slice; each card must land as one move at a time would put it, and where
that differs (A is B) or the step bound falls inside the repeat, the loop runs.
A choice whose parts all offer cards lists ``play`` moves without building each
option; a card offered twice still gives ``choice`` moves. The shuffle deals
as ``random.Random.shuffle`` does, so a seed deals the same cards as before.
"""

from __future__ import annotations

import random

import pytest

import games.recycle.compiling.program
from games.recycle import RecycleRuntimeError, loads
from games.recycle.compiling.fast import shuffle_as_random
from games.recycle.playing.state import GAME

HEAD = """(game
 (setup (create players 2)
        (create deck (game vloc A) (deck (RANK (A, TWO, THREE, FOUR)) (SUIT (HEARTS)))))
"""


def names(game, state, key: tuple) -> list[str]:
    """Return the cards at ``key``, bottom first, by name."""
    return [game.program.names[c] for c in state.locs.get(key, [])]


def test_repeated_moves_land_as_one_move_at_a_time() -> None:
    game = loads(
        HEAD
        + """ (do ((repeat 3 (move (top (game vloc A)) (top (game vloc B))))
      (repeat 10 (move (top (game vloc A)) (top (game vloc C))))
      (repeat all (move (top (game vloc B)) (top (game vloc B))))
      (repeat all (move (top (game vloc B)) (top ((next player) vloc D))))))
 (scoring max 0))"""
    )
    state = game.new(None, None, 0)
    # A's top (4H) moves first, so B holds A's top three upside down; 10 moves empty A.
    assert names(game, state, (GAME, "vloc", "C")) == ["AH"]
    assert names(game, state, (GAME, "vloc", "A")) == []
    # Moving B's top onto B itself changes nothing; then B goes over to seat 1, upside down again.
    assert names(game, state, (1, "vloc", "D")) == ["2H", "3H", "4H"]
    assert names(game, state, (GAME, "vloc", "B")) == []


def test_the_step_bound_inside_a_repeated_move_still_stops_the_game(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(games.recycle.compiling.program, "MAX_STEPS", 20)
    repeat = " (do ((repeat 30 (move (top (game vloc A)) (top (game vloc B))))))\n (scoring max 0))"
    game = loads(HEAD + repeat)
    with pytest.raises(RecycleRuntimeError, match="more than 20 steps") as caught:
        game.new(None, None, 0)
    assert caught.value.line == 4  # the repeat's line


def offered_twice(second: str) -> str:
    return (
        HEAD
        + f""" (do ((repeat 2 (move (top (game vloc A)) (top ((current player) iloc HAND))))))
 (stage player (end (== (size (game vloc PILE)) 1))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE))))
           (any {second} 'C (move 'C (top (game vloc PILE)))))))
 (scoring max 0))"""
    )


def test_cards_offered_once_are_plays_and_offered_twice_are_choices() -> None:
    once = loads(offered_twice("(filter ((current player) iloc HAND) 'X (== (cardatt RANK 'X) NOSUCH))"))
    state = once.new(None, None, 0)
    assert once.legal_moves(state, 0) == [{"play": "3H"}, {"play": "4H"}]
    once.apply(state, 0, {"play": "4H"})
    assert names(once, state, (GAME, "vloc", "PILE")) == ["4H"]

    twice = loads(offered_twice("((current player) iloc HAND)"))
    state = twice.new(None, None, 0)
    moves = twice.legal_moves(state, 0)
    assert moves == [{"choice": [b, c]} for b in (0, 1) for c in ("4H", "3H")]
    twice.apply(state, 0, {"choice": [1, "3H"]})
    assert names(twice, state, (GAME, "vloc", "PILE")) == ["3H"]


def test_the_shuffle_deals_as_the_standard_library_does() -> None:
    for seed in range(200):
        for size in (0, 1, 2, 3, 35, 52, 104):
            mine, theirs = list(range(size)), list(range(size))
            shuffle_as_random(random.Random(seed), mine)
            random.Random(seed).shuffle(theirs)
            assert mine == theirs
