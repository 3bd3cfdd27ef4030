"""A RECYCLE game's move log, read again after a reload, names each move by the words of the
choice it was made at (the log's ``said``), not by the choice pending now."""

from __future__ import annotations

import random

import pytest
from playwright.sync_api import expect

from tests.browser.driver import play_against_bots, read_state, take_turn
from tests.browser.test_recycle_page import staff_page
from tests.browser.test_recycle_table import add_game

pytestmark = [pytest.mark.browser]

# Each turn two choices whose first branches read differently: draw, then put a card down.
TWO_CHOICES = """(game
 (setup (create players 2)
  (create deck (game iloc STOCK)
   (deck (RANK (A, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, J, Q, K)) (SUIT (CLUBS, HEARTS)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (move (top (game iloc STOCK)) (top ('P iloc HAND))))))
 (stage player (end (< (size (game iloc STOCK)) 4))
  (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))
           (move (top (game iloc STOCK)) (top (game vloc DISCARD)))))
  (choice (((> (size ((current player) iloc HAND)) 0)
            (move (top ((current player) iloc HAND)) (top (game vloc DISCARD))))
           (move (top (game iloc STOCK)) (top (game vloc DISCARD))))))
 (scoring max (size ((current player) iloc HAND))))"""

DRAW, PUT_DOWN = "Draw from stock", "Put your top hand card on the discard"


def test_the_log_after_a_reload_names_each_move_as_it_was_offered(own_server, new_page) -> None:
    staff = staff_page(own_server, new_page)
    game_id = add_game(staff, "Two choices", TWO_CHOICES)
    page = new_page(viewport={"width": 1280, "height": 800})
    play_against_bots(page, own_server.url, "Ann", game_id)
    rng, made = random.Random(1), []
    while len(made) < 4:
        state = read_state(page)
        label = state["buttons"][0] if state["myTurn"] and state["buttons"] else None
        if take_turn(page, rng, state=state):  # the first button: the first branch
            made.append(label)
        else:
            page.wait_for_timeout(50)
    assert DRAW in made and PUT_DOWN in made, made
    page.reload()
    mine = page.locator("#move-log li", has_text="You chose")
    expect(mine).to_have_count(len(made))
    said = [text.split("You chose ", 1)[1].strip() for text in mine.all_text_contents()]
    assert said == made, (said, made)
    assert page.errors == []
