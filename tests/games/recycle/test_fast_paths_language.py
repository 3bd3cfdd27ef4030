"""The shortcuts keep the language's rules: names computed in play, random draws, the clock, items.

Each shortcut reads a fixed shape; where a form of the language would make the
shape mean something else (a location named by a string computed in play, a
guard that draws a random number, steps counted many at once, items that are
numbers or collections), the game plays as the general way plays it.
"""

from __future__ import annotations

import pytest

from games.recycle import RecycleRuntimeError, loads
from games.recycle.playing import bounds
from games.recycle.playing.state import GAME

HEAD = """(game
 (setup (create players 2)
        (create deck (game vloc A) (deck (RANK (A, TWO, THREE, FOUR)) (SUIT (HEARTS)))))
"""


def names(game, state, key: tuple) -> list[str]:
    """Return the cards at ``key``, bottom first, by name."""
    return [game.program.names[c] for c in state.locs.get(key, [])]


def test_a_location_named_in_play_is_read_and_moved_to_under_that_name() -> None:
    game = loads(
        HEAD
        + """ (do ((repeat 2 (move (top (game vloc A)) (top (game iloc (cardatt RANK (top (game vloc A)))))))
      (set (game str P) HAND)
      (repeat 2 (move (top (game vloc A)) (top ((current player) iloc (game str P)))))
      ((== (size ((current player) iloc (game str P))) 2) (set (game sto TWO) 1))
      ((all player 'Q (< (size ('Q iloc (game str P))) 3)) (set (game sto FEW) 1))
      (set (game sto ALL) (size (all player 'Q ('Q iloc (game str P)))))))
 (stage player (end (== (size (game vloc DONE)) 1))
  (choice ((any ((current player) iloc (game str P)) 'C (move 'C (top (game vloc DONE)))))))
 (scoring max 0))"""
    )
    state = game.new(None, None, 0)
    # Each card goes where its own rank names: the destination is read before the card leaves
    # the top of A (as CardStock's ProcessMove reads both ends first).
    assert names(game, state, (GAME, "iloc", "FOUR")) == ["4H"]
    assert names(game, state, (GAME, "iloc", "THREE")) == ["3H"]
    assert names(game, state, (0, "iloc", "HAND")) == ["2H", "AH"]
    assert [state.sto.get((GAME, n)) for n in ("TWO", "FEW", "ALL")] == [1, 1, 2]
    assert game.legal_moves(state, 0) == [{"play": "AH"}, {"play": "2H"}]


def test_a_guard_that_draws_draws_for_every_card_it_is_checked_for() -> None:
    deal = " (do ((repeat 3 (move (top (game vloc A)) (top ((current player) iloc HAND))))))\n"
    per_card = loads(
        HEAD
        + deal
        + """ (stage player (end (== (size (game vloc DONE)) 1))
  (choice ((any ((current player) iloc HAND) 'C ((== (random 0) 0) (move 'C (top (game vloc DONE))))))))
 (scoring max 0))"""
    )
    state = per_card.new(None, None, 0)
    assert per_card.legal_moves(state, 0) == [{"play": "2H"}, {"play": "3H"}, {"play": "4H"}]
    assert state.shuffles == 3  # (random 0) is always 0, and each of the three checks drew
    per_part = loads(
        HEAD
        + deal
        + """ (stage player (end (== (size (game vloc DONE)) 1))
  (choice (((== (random 0) 0) (any ((current player) iloc HAND) 'C (move 'C (top (game vloc DONE)))))
           (any ((current player) iloc HAND) 'C (move 'C (top (game vloc DONE)))))))
 (scoring max 0))"""
    )
    state = per_part.new(None, None, 0)
    assert len(per_part.legal_moves(state, 0)) == 6  # each card offered twice: choice moves
    assert state.shuffles == 1  # the part's guard drew once, though the plays were tried first


def test_a_filter_whose_side_draws_draws_for_every_card() -> None:
    game = loads(
        HEAD
        + """ (do ((set (game sto N) (size (filter (game vloc A) 'C (== (random 0) 0))))))
 (scoring max 0))"""
    )
    state = game.new(None, None, 0)
    assert state.sto[(GAME, "N")] == 4 and state.shuffles == 4


def test_the_clock_is_read_in_repeated_moves_and_in_every_turn_of_a_loop(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(bounds, "MAX_SECONDS", -1.0)  # any reading of the clock stops the game
    moves = loads(
        HEAD + " (do ((repeat 100 (move (top (game vloc A)) (top (game vloc B))))))\n (scoring max 0))"
    )
    with pytest.raises(RecycleRuntimeError, match="seconds") as caught:
        moves.new(None, None, 0)
    assert caught.value.line == 4
    # 64 steps a turn (the repeat's and 63 of the do's): the repeat's own count never lands on 64.
    body = " ".join(["(inc (game sto X) 1)"] * 63)
    loop = loads(HEAD + f" (do ((repeat 200 (do ({body})))))\n (scoring max 0))")
    with pytest.raises(RecycleRuntimeError, match="seconds"):
        loop.new(None, None, 0)


def test_items_that_are_numbers_or_collections_make_choice_moves() -> None:
    game = loads(
        HEAD
        + """ (do ((repeat 2 (move (top (game vloc A)) (top ((current player) iloc HAND))))))
 (stage player (end (== (game sto DONE) 1))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE))))
           (any (range 1..2) 'N (inc (game sto DONE) 'N))
           (any (partition SUIT ((current player) iloc HAND)) 'S (set (game sto DONE) 1)))))
 (scoring max 0))"""
    )
    state = game.new(None, None, 0)
    assert game.legal_moves(state, 0) == [
        {"choice": [0, "4H"]},
        {"choice": [0, "3H"]},
        {"choice": [1, 1]},
        {"choice": [1, 2]},
        {"choice": [2, ["4H", "3H"]]},
    ]
    game.apply(state, 0, {"choice": [2, ["4H", "3H"]]})
    assert game.is_over(state)
