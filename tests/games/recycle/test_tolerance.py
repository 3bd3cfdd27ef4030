"""What CardStock's reader tolerates, the two reading and playing bugs, and errors in the language's words."""

from __future__ import annotations

import pytest

from games.recycle import RecycleError, loads
from games.recycle.playing.state import GAME
from tests.games.recycle.helpers import play_random

# One card each; whoever holds the higher rank scores it.
SMALL = """;; A two-player game written for these tests
(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (TWO, THREE, FOUR)) (SUIT (HEARTS)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND))))))
 (stage player
  (end (all player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top ((current player) vloc PLAYED)))))))
 (scoring max (size ((current player) vloc PLAYED))))
"""


def test_a_byte_order_mark_is_read_past() -> None:
    game = loads("\ufeff" + SMALL, "Small")
    state, moves = play_random(game, 1)
    assert moves == 2 and game.result(state)["scores"] == [1, 1]


def test_text_after_the_game_is_ignored() -> None:
    game = loads(SMALL + "\n;; notes\n(an unfinished draft (game\n) ) stray words", "Small")
    _, moves = play_random(game, 2)
    assert moves == 2


def test_a_bracket_in_a_comment_is_not_counted() -> None:
    text = SMALL.replace("(stage player\n", "(stage player ;; each plays (one card)) :)\n")
    text = text.replace("(scoring max", ";; a stray ) closes nothing here\n (scoring max")
    game = loads(text, "Small")
    _, moves = play_random(game, 3)
    assert moves == 2


def test_a_bracket_outside_comments_is_still_checked() -> None:
    with pytest.raises(RecycleError, match=r"closes nothing") as caught:
        loads(")" + SMALL)
    assert (caught.value.line, caught.value.column) == (1, 1)


CHOICE_WITHOUT_OPTIONS = """
(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (TWO, THREE)) (SUIT (HEARTS)))))
 (do ((move (top (game iloc STOCK)) (top ((0 player) iloc HAND)))))
 (stage player
  (end (>= (game sto ROUNDS) 2))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE))))))
  (do ((inc (game sto ROUNDS) 1))))
 (scoring max (size (game vloc PILE))))
"""


def test_a_choice_without_options_is_passed_over() -> None:
    # Player 1 holds nothing: its turn's choice has no option, and play goes on.
    game = loads(CHOICE_WITHOUT_OPTIONS, "Pass over")
    state = game.new(None, None, 0)
    assert game.to_act(state) == [0]
    game.apply(state, 0, game.legal_moves(state, 0)[0])
    assert game.is_over(state) and state.sto[(GAME, "ROUNDS")] == 2
    assert game.result(state)["scores"] == [1, 1]


NUMBERED_PLAYER = """
(game
 (setup (create players 3)
        (create deck (game iloc STOCK) (deck (RANK (TWO, THREE, FOUR)) (SUIT (HEARTS)))))
 (do ((repeat 3 (move (top (game iloc STOCK)) (top ((0 player) iloc HAND))))
      (inc ((2 player) sto BONUS) 5)
      (set ((0 team) sto FIRST) 1)))
 (stage player
  (end (== (size ((0 player) iloc HAND)) 0))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top ((1 player) vloc GIVEN)))))))
 (scoring max (+ ((current player) sto BONUS) (size ((current player) vloc GIVEN)))))
"""


def test_a_numbered_player_is_that_player_not_a_card() -> None:
    game = loads(NUMBERED_PLAYER, "Numbered")
    state, moves = play_random(game, 0)
    assert moves == 3
    assert game.result(state)["scores"] == [0, 3, 5]
    assert state.sto[(-2, "FIRST")] == 1  # (0 team): team 0's storage


@pytest.mark.parametrize(
    ("text", "where", "words"),
    [
        ("(game (setup (create players 2))\n (do ((set (game pts X) 1))) (scoring max 0))", (2, 18), "'pts'"),
        (
            "(game (setup (create players 2))\n (do ((move (top (game STACK X)) (top (game vloc Y)))))"
            " (scoring max 0))",
            (2, 24),
            "a location kind (iloc, vloc, hloc, oloc, mem)",
        ),
        (
            "(game (setup (create players 2))\n (do ((inc (game sto X) (range 1 2)))) (scoring max 0))",
            (2, 34),
            "'..'",
        ),
        (
            "(game (setup (create players 2))\n (do ((shuffle (game iloc S))))",
            (2, 31),
            "end of the description",
        ),
    ],
)
def test_reading_errors_are_in_the_language_s_words(text: str, where: tuple[int, int], words: str) -> None:
    with pytest.raises(RecycleError) as caught:
        loads(text)
    error = caught.value
    assert (error.line, error.column) == where
    assert words in str(error)
    assert "lockind" not in str(error).lower() and "__anon" not in str(error).lower()
