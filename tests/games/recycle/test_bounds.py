"""Limits sized for real files: large descriptions read; a move's time and the groups it makes are bounded."""

from __future__ import annotations

import time

import pytest

from games.recycle import RecycleRuntimeError, loads
from games.recycle.compiling import groups
from games.recycle.playing import bounds
from games.recycle.reading.syntax import MAX_CHARS, MAX_DEPTH

HEAD = """(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN,
                                                     J, Q, K)) (SUIT (HEARTS, SPADES)))))
"""


def test_a_description_the_size_of_a_generated_one_reads() -> None:
    # CardStock's generator writes descriptions of 87 KB, nested 72 deep, with "' NAME" variables.
    form = (
        " (do ((inc (game sto X) (+ (size (game iloc STOCK))"
        " (size (filter (game iloc STOCK) ' C (== 1 1)))))))\n"
    )
    deep = " (do ((" + "(not " * 65 + "(== 1 1)" + ")" * 65 + " (inc (game sto X) 0))))\n"
    text = HEAD + deep + form * (90_000 // len(form)) + " (scoring max (game sto X)))"
    assert 90_000 < len(text) < MAX_CHARS and MAX_DEPTH >= 72
    game = loads(text, "Large")
    state = game.new(None, None, 0)
    assert game.is_over(state) and state.sto[(-1, "X")] == 52 * (90_000 // len(form))


def test_one_slow_move_is_stopped_with_its_form(monkeypatch: pytest.MonkeyPatch) -> None:
    # Few steps, each costly: every subset of 14 cards, 9,000 times.
    monkeypatch.setattr(bounds, "MAX_SECONDS", 0.5)
    text = (
        HEAD + " (do ((repeat 14 (move (top (game iloc STOCK)) (top (game vloc PILE))))))\n"
        " (do ((all (range 1..9000) 'I\n"
        "   ((> (size (subsets (game vloc PILE))) 0) (inc (game sto X) 1)))))\n"
        " (scoring max 0))"
    )
    game = loads(text, "Slow")
    began = time.monotonic()
    with pytest.raises(RecycleRuntimeError, match=r"more than 0\.5 seconds") as caught:
        game.new(None, None, 0)
    assert caught.value.line == 6 and time.monotonic() - began < 30


def test_collections_of_collections_are_bounded() -> None:
    text = (
        HEAD + " (do ((repeat 20 (move (top (game iloc STOCK)) (top (game vloc PILE))))\n"
        "      (set (game sto N) (size (subsets (game vloc PILE))))))\n"
        " (scoring max 0))"
    )
    game = loads(text, "Subsets")
    with pytest.raises(RecycleRuntimeError, match=f"more than {groups.MAX_GROUPS} collections") as caught:
        game.new(None, None, 0)
    assert (caught.value.line, caught.value.column) == (6, 31)


def test_a_game_without_end_names_the_stage_it_is_stuck_in() -> None:
    text = (
        HEAD + " (do ((move (top (game iloc STOCK)) (top (game vloc A)))))\n"
        " (stage player (end (== 1 0))\n"
        "  (choice ((any (game vloc A) 'C (move 'C (top (game vloc B))))\n"
        "           (any (game vloc B) 'C (move 'C (top (game vloc A)))))))\n"
        " (scoring max 0))"
    )
    game = loads(text, "Endless")
    game.program.max_moves = 20
    state = game.new(None, None, 0)
    with pytest.raises(RecycleRuntimeError, match="did not end within 20 moves") as caught:
        while True:
            (seat,) = game.to_act(state)
            game.apply(state, seat, game.legal_moves(state, seat)[0])
    assert (caught.value.line, caught.value.column) == (6, 2)
    assert game.result(state)["error"].startswith("line 6, column 2: ")
