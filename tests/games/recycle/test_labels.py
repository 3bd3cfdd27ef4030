"""What the page draws and labels for a RECYCLE game, as the view gives it.

Card faces of other decks (``faces.py``), a seat's places in the description's
order (``order.py``), the words of a choice's branches and the kinds of their
items (``wording.py``), and the game's words the felt shows. Descriptions written
here: word ranks, number ranks, colours, a Spanish-like deck, four places per
player, a bid of 1 to 5, teams with bids.
"""

from __future__ import annotations

import pytest

from games.recycle import loads
from games.recycle.words.faces import face, number, said

FRENCH = (
    "(RANK (A, TWO, THREE, FOUR, FIVE, SIX, SEVEN, EIGHT, NINE, TEN, J, Q, K))"
    " (COLOR (RED (SUIT (HEARTS, DIAMONDS))) (BLACK (SUIT (CLUBS, SPADES))))"
)


def deal_game(deck: str, players: int = 2, cards: int = 5, extra: str = "") -> str:
    """A game dealing ``cards`` of ``deck`` to each seat, then playing them out."""
    return f"""(game
 (setup (create players {players}) (create deck (game iloc STOCK) (deck {deck})))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat {cards} (move (top (game iloc STOCK)) (top ('P iloc HAND)))))
      {extra}))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top ((current player) vloc PLAYED)))))))
 (scoring max (size ((current player) vloc PLAYED))))"""


@pytest.mark.parametrize(
    ("word", "value"),
    [("THREE", 3), ("THIRTEEN", 13), ("TWENTY", 20), ("TWENTYONE", 21), ("THIRTY_FIVE", 35), ("LLAMA", None)],
)
def test_number_words_are_figures(word: str, value: int | None) -> None:
    assert number(word) == value


def test_a_value_is_said_as_a_card_shows_it() -> None:
    assert [said(w) for w in ("THIRTEEN", "LLAMA", "J", "HS", "GO", "ACE")] == [
        "13",
        "Llama",
        "J",
        "HS",
        "Go",
        "A",
    ]


def test_number_ranks_are_figures_and_word_ranks_their_word() -> None:
    ranks = "(NUMBER (ONE, TWO, THREE, FOUR, FIVE, SIX, LLAMA))"
    game = loads(deal_game(ranks), "Llamas")
    assert face(game.program, "THREE") == {
        "value": "3",
        "corner": "3",
        "suit": "",
        "colour": None,
        "name": "3",
    }
    assert face(game.program, "LLAMA")["value"] == "Llama"
    assert face(game.program, "LLAMA")["corner"] == "Lla"
    numbers = loads(deal_game("(RANK (THREE, THIRTEEN, TWENTYNINE, THIRTYFIVE))"), "Big")
    assert [face(numbers.program, n)["value"] for n in ("THREE", "THIRTEEN", "TWENTYNINE", "THIRTYFIVE")] == [
        "3",
        "13",
        "29",
        "35",
    ]


def test_a_colour_attribute_colours_the_card_and_names_it() -> None:
    game = loads(deal_game("(RANK (TWO, THREE, HS)) (COLOR (BLUE, YELLOW, WHITE))"), "Colours")
    blue = face(game.program, "BLUE-TWO")
    assert blue == {"value": "2", "corner": "2", "suit": "Blue", "colour": "blue", "name": "Blue 2"}
    assert face(game.program, "WHITE-HS")["value"] == "HS"


def test_a_deck_without_french_suits_is_never_a_french_card() -> None:
    game = loads(deal_game("(RANK (A, THREE, FIVE, J)) (SUIT (CUPS, COINS))"), "Spanish")
    assert "FIVE-CUPS" in game.program.names and "THREE-COINS" in game.program.names
    assert face(game.program, "FIVE-CUPS")["name"] == "5 of cups"
    assert face(game.program, "THREE-COINS")["value"] == "3"
    french = loads(deal_game(FRENCH), "French")
    assert face(french.program, "3H") is None  # a French card is drawn as one


def test_the_view_gives_the_faces_of_the_cards_it_names_and_holds_the_hand_by_colour_and_value() -> None:
    game = loads(deal_game("(RANK (TWO, THREE, FOUR, FIVE)) (COLOR (RED, BLUE))", cards=6), "Colours")
    view = game.view(game.new(None, None, 3), 0)
    assert set(view["faces"]) == set(view["hand"])
    faces = [view["faces"][c] for c in view["hand"]]
    colours = [f["colour"] for f in faces]
    assert colours == sorted(colours, key=colours.index)  # each colour together
    for colour in set(colours):
        values = [int(f["value"]) for f in faces if f["colour"] == colour]
        assert values == sorted(values)
    french = loads(deal_game(FRENCH), "French")
    assert "faces" not in french.view(french.new(None, None, 3), 0)


FOUR_SPOTS = f"""(game
 (declare (ONE, TWO, THREE, FOUR) 'PLOCS)
 (setup (create players 2) (create deck (game iloc STOCK) (deck {FRENCH})))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (all 'PLOCS 'L (move (top (game iloc STOCK)) (top ('P hloc 'L)))))))
 (stage player (end (all player 'P (== (size (union (all 'PLOCS 'L ('P hloc 'L)))) 0)))
  (choice ((any 'PLOCS 'L ((!= (size ((current player) hloc 'L)) 0)
                           (move (top ((current player) hloc 'L)) (top ((current player) vloc 'L)))))
           (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))
 (scoring max (size ((current player) iloc HAND))))"""


def test_a_seats_places_come_in_the_descriptions_order_and_name_their_moves() -> None:
    game = loads(FOUR_SPOTS, "Four spots")
    view = game.view(game.new(None, None, 1), 0)
    mine = [place["label"] for place in view["locations"] if place["owner"] == "0"]
    assert mine == ["One", "Two", "Three", "Four"]
    assert view["choice_words"] == ["Turn up", "Draw from stock"]
    assert view["choice_items"] == [["place"], []]


def test_places_named_as_the_decks_ranks_come_in_the_order_dealt() -> None:
    # TWO..SIX are ranks of the deck, written before the places ONE..SIX are dealt: the deck's
    # words are not the description's order of its places.
    deal = " ".join(
        f"(all player 'P (move (top (game iloc STOCK)) (top ('P vloc {name}))))"
        for name in ("ONE", "TWO", "THREE", "FOUR", "FIVE", "SIX")
    )
    game = loads(
        f"""(game
 (setup (create players 2) (create deck (game iloc STOCK) (deck {FRENCH})))
 (do ((shuffle (game iloc STOCK)) {deal}))
 (stage player (end (< (size (game iloc STOCK)) 30))
  (choice ((move (top (game iloc STOCK)) (top ((current player) vloc ONE))))))
 (scoring max (size ((current player) vloc ONE))))""",
        "Six spots",
    )
    view = game.view(game.new(None, None, 1), 0)
    mine = [place["label"] for place in view["locations"] if place["owner"] == "0"]
    assert mine == ["One", "Two", "Three", "Four", "Five", "Six"]


BIDS = f"""(game
 (setup (create players 4) (create teams (0, 2) (1, 3)) (create deck (game iloc STOCK) (deck {FRENCH})))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 5 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))
      (set (game str TRUMPSUIT) NONE)
      (set (game str TESTING) NOB)))
 (stage player (end (!= (game str TRUMPSUIT) NONE))
  (choice ((set ((current player) str BID) PASS)
           (do ((set ((current player) str BID) ALONE) (set (game str TRUMPSUIT) HEARTS)
                (set (game str TRUMPCOLOR) RED)))
           (do ((set ((current player) str BID) ALONE) (set (game str TRUMPSUIT) SPADES)
                (set (game str TRUMPCOLOR) BLACK)))
           (set ((current player) str BID) PASS))))
 (stage player (end (all player 'P (> ('P sto TRICKS) 0)))
  (choice ((any (range 1..5) 'N (set ((current player) sto TRICKS) 'N)))))
 (scoring max ((current player) sto TRICKS)))"""


def test_branches_alike_are_told_apart_and_a_number_is_a_number() -> None:
    game = loads(BIDS, "Bids")
    state = game.new(None, None, 2)
    view = game.view(state, 0)
    words = view["choice_words"]
    assert words[:3] == ["Pass", "Alone · Hearts", "Alone · Spades"]
    assert len(set(words)) == len(words)  # the same thing twice is numbered, never alike
    assert view["choice_items"] == [[], [], [], []]
    game.apply(state, 0, {"choice": [1]})
    view = game.view(state, game.to_act(state)[0])  # the trump is set: the bids of tricks
    assert view["choice_words"] == ["Tricks"]
    assert view["choice_items"] == [["number"]]


def test_the_felt_shows_the_games_words_that_name_a_suit_or_colour_and_never_a_marker() -> None:
    game = loads(BIDS, "Bids")
    state = game.new(None, None, 2)
    game.apply(state, 0, {"choice": [1]})
    strings = {s["name"]: s for s in game.view(state, 0)["strings"]}
    assert strings["TRUMPSUIT"]["felt"] and strings["TRUMPSUIT"]["said"] == "Hearts"
    assert strings["TRUMPSUIT"]["label"] == "Trump suit"
    assert strings["TRUMPCOLOR"]["felt"] and strings["TRUMPCOLOR"]["label"] == "Trump color"
    assert not strings["TESTING"]["felt"]


def test_the_last_move_keeps_the_words_of_the_choice_it_was_made_at() -> None:
    game = loads(BIDS, "Bids")
    state = game.new(None, None, 2)
    game.apply(state, 0, {"choice": [2]})
    view = game.view(state, 1)
    assert view["choice_words"] == ["Tricks"]  # the choice pending now
    assert view["last"]["words"][2] == "Alone · Spades" and view["last"]["items"][2] == []
    assert game.view(game.from_json(game.to_json(state)), 1)["last"] == view["last"]  # saved with the state


SWAPS = f"""(game
 (setup (create players 2) (create deck (game iloc STOCK) (deck {FRENCH})))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))
      (repeat 3 (move (top (game iloc STOCK)) (top (game iloc EXTRA))))))
 (stage player (end (> (game sto ROUNDS) 6))
  (choice ((do ((repeat all (move (top (game iloc EXTRA)) (top (game iloc TEMP))))
                (repeat all (move (top ((current player) iloc HAND)) (top (game iloc EXTRA))))
                (repeat all (move (top (game iloc TEMP)) (top ((current player) iloc HAND))))))
           (move (top (game iloc STOCK)) (top ((current player) iloc HAND)))
           (repeat all (move (top ((current player) iloc HAND)) (top ((current player) iloc QUIT))))
           (inc (game sto ROUNDS) 1)))
  (do ((inc (game sto ROUNDS) 1))))
 (scoring max (size ((current player) iloc HAND))))"""


def test_a_swap_a_draw_and_a_quit_say_what_they_do() -> None:
    game = loads(SWAPS, "Swaps")
    view = game.view(game.new(None, None, 1), 0)
    assert view["choice_words"] == ["Swap your hand with the extra", "Draw from stock", "Quit", "Pass"]


# A choice whose branches the author titled, as Coup's file does: short titles name the buttons;
# a sentence, a note naming the program's places or a condition does not.
TITLED = """(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE)) (SUIT (HEARTS, SPADES)))))
 (do ((shuffle (game iloc STOCK))))
 (stage player (end (== (size (game iloc STOCK)) 0))
  (choice (

    ;; Income

    (inc ((current player) sto COINS) 1)
    ;; Duke tax (take three coins)
    (inc ((current player) sto COINS) 3)
    ;; HIT
    (move (top (game iloc STOCK)) (top ((current player) vloc TAKEN)))
    ;; "Americans are so spoiled. They think you always have to have a car."
    (inc ((current player) sto COINS) 2)
    ;; From STOCK
    (move (top (game iloc STOCK)) (top ((current player) vloc KEPT)))
    ;; If the stock is low
    (turn pass))))
 (scoring max ((current player) sto COINS)))"""


def test_an_authors_short_comment_titles_its_branch_and_a_note_does_not() -> None:
    game = loads(TITLED, "Titled")
    (words,) = game.words.values()
    assert words[:3] == ["Income", "Duke tax", "Hit"]
    # The others are said by what they do, as an untitled branch is.
    assert words[3] not in (None, "Americans") and words[4] != "From STOCK" and words[5] == "Pass"
    assert len(set(words)) == len(words)


def test_a_comment_above_a_choice_sharing_its_first_branchs_line_titles_no_branch() -> None:
    text = TITLED.replace("(choice (\n\n    ;; Income\n\n    (inc", ";; Income\n  (choice ((inc")
    (words,) = loads(text, "Titled").words.values()
    assert words[0] != "Income" and words[1] == "Duke tax"


# Branches whose items an `any` inside a `do` binds, as Spite and Malice's are: a card of the hand
# and a reserve place, a table place and a card, a card moved between a reserve and a table place
# (chosen in either order), a bid.
RESERVES = f"""(game
 (declare (ONE, TWO) 'PLOCS)
 (declare (LEFT, RIGHT) 'TLOCS)
 (setup (create players 2) (create deck (game iloc STOCK) (deck {FRENCH})))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))
      (all player 'P (move (top (game iloc STOCK)) (top ('P vloc ONE))))))
 (stage player (end (> (game sto ROUNDS) 6))
  (choice (
    (do ((any ((current player) iloc HAND) 'C (any 'PLOCS 'L (move 'C (top ((current player) vloc 'L)))))))
    (do ((any 'TLOCS 'T (any ((current player) iloc HAND) 'C (move 'C (top (game vloc 'T)))))))
    (do ((any 'PLOCS 'L (any 'TLOCS 'T ((> (size ((current player) vloc 'L)) 0)
                                         (move (top ((current player) vloc 'L)) (top (game vloc 'T))))))))
    (do ((any 'TLOCS 'T (any 'PLOCS 'L ((> (size ((current player) vloc 'L)) 0)
                                         (move (top ((current player) vloc 'L)) (top (game vloc 'T))))))))
    (do ((any (range 1 .. 3) 'B (set ((current player) sto BID) 'B))))))
  (do ((inc (game sto ROUNDS) 1))))
 (scoring max (size ((current player) iloc HAND))))"""


def test_branches_binding_items_inside_a_do_say_where_their_card_goes() -> None:
    game = loads(RESERVES, "Reserves")
    view = game.view(game.new(None, None, 1), 0)
    assert view["choice_words"] == [
        "Play to your side",
        "Play to the table",
        "From your side to the table",
        "To the table from your side",  # the place it goes is the first item
        "Bid",  # a number bid, not "Pass"
    ]
    assert view["choice_items"] == [
        ["card", "place"],
        ["place", "card"],
        ["place", "place"],
        ["place", "place"],
        ["number"],
    ]
    moves = game.legal_moves(game.new(None, None, 1), 0)
    assert {"choice": [2, "ONE", "LEFT"]} in moves and {"choice": [3, "LEFT", "ONE"]} in moves


def test_a_card_moved_between_the_games_places_or_given_to_a_neighbour_is_said() -> None:
    game = loads(
        f"""(game
 (setup (create players 3) (create deck (game iloc STOCK) (deck {FRENCH})))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))
      (move (top (game iloc STOCK)) (top (game vloc DISCARD)))))
 (stage player (end (< (size (game iloc STOCK)) 30))
  (choice ((move (top (game iloc STOCK)) (top (game vloc DISCARD)))
           (move (top ((current player) iloc HAND)) (top ((next player) iloc PASSED)))
           (move (top ((current player) iloc HAND)) (top ((previous player) iloc PASSED))))))
 (scoring max (size ((current player) iloc HAND))))""",
        "Passing on",
    )
    view = game.view(game.new(None, None, 1), 0)
    assert view["choice_words"] == [
        "Put the top stock card on the discard",
        "Give your top hand card to the next player",
        "Give your top hand card to the previous player",
    ]
