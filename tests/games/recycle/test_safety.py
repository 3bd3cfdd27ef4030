"""A description is data: bad text fails with its line and column, and play is bounded."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

import games.recycle
from games.recycle import RecycleError, RecycleRuntimeError, loads
from games.recycle.reading.syntax import MAX_CHARS, MAX_DEPTH

HEAD = """(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (A, TWO)) (SUIT (HEARTS, SPADES)))))
"""


def error_of(text: str) -> RecycleError:
    with pytest.raises(RecycleError) as caught:
        loads(text)
    return caught.value


def test_syntax_errors_say_where() -> None:
    error = error_of(HEAD + " (do ((shufle (game iloc STOCK))))\n (scoring max 0))")
    assert (error.line, error.column) == (4, 8) and "shufle" in str(error)
    error = error_of(HEAD + " (do ((shuffle (game iloc STOCK)))\n (scoring max 0))")
    assert error.line == 5 and "expected" in str(error)
    error = error_of(HEAD + " (do ((shuffle (game iloc STOCK))))\n (scoring max 0)")
    assert "end of the description" in str(error) and error.line == 5


def test_kind_errors_say_where() -> None:
    error = error_of(HEAD + " (do ((move 3 (top (game vloc PILE)))))\n (scoring max 0))")
    assert (error.line, error.column) == (4, 13) and "card" in str(error)
    error = error_of(
        HEAD + " (do (((< (cardatt RANK (top (game iloc STOCK))) 2) (turn pass))))\n (scoring max 0))"
    )
    assert error.line == 4 and "compare" in str(error)


def test_size_and_depth_are_bounded() -> None:
    assert "limit" in str(error_of(" " * (MAX_CHARS + 1)))
    deep = HEAD + " (do (" + "(not " * MAX_DEPTH + "(== 1 1)" + ")" * MAX_DEPTH + "))\n (scoring max 0))"
    error = error_of(deep)
    assert "deeper" in str(error) and error.line == 4


def test_a_loop_without_a_choice_is_stopped() -> None:
    text = HEAD + " (stage player (end (== 1 0)) (do ((inc (game sto X) 1))))\n (scoring max 0))"
    game = loads(text)
    with pytest.raises(RecycleRuntimeError, match="without a player's choice"):
        game.new(None, None, 0)


def test_a_game_that_never_ends_is_stopped() -> None:
    text = (
        HEAD
        + """ (do ((move (top (game iloc STOCK)) (top (game vloc A)))))
 (stage player (end (== 1 0))
  (choice ((any (game vloc A) 'C (move 'C (top (game vloc B))))
           (any (game vloc B) 'C (move 'C (top (game vloc A)))))))
 (scoring max 0))"""
    )
    game = loads(text)
    game.program.max_moves = 30
    state = game.new(None, None, 0)
    with pytest.raises(RecycleRuntimeError, match="did not end within 30 moves"):
        for _ in range(31):
            (seat,) = game.to_act(state)
            game.apply(state, seat, game.legal_moves(state, seat)[0])
    assert game.is_over(state) and game.to_act(state) == []
    assert "30 moves" in game.result(state)["error"] and game.result(state)["winners"] == []


def test_numbers_and_repeats_are_bounded() -> None:
    text = HEAD + " (do ((repeat (* 1000 1000) (inc (game sto X) 1))))\n (scoring max 0))"
    with pytest.raises(RecycleRuntimeError, match="repeat"):
        loads(text).new(None, None, 0)


def test_the_interpreter_never_evaluates_text_as_code() -> None:
    source = Path(games.recycle.__file__).parent
    paths = list(source.rglob("*.py"))
    assert len(paths) > 30  # every wing's modules, not only the package's top
    for path in paths:
        code = path.read_text(encoding="utf-8")
        assert not re.search(r"(?<![.\w])(eval|exec|compile)\(|__import__|importlib", code), path.name
