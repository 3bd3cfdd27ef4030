"""The rules text of RECYCLE games written here reads as a person writes rules: a loop's item,
a team's players, a remembered word, a sum over piles, a game without tricks and the file's own
comment each said in plain words, never a variable's letter or a program's internal name."""

from __future__ import annotations

import re

from bench.rules_checks import findings
from games.info import GameInfo
from games.recycle import load, loads

# Four players in two teams lay a card face down on each of two spots, then play their hands.
SPOTS = """;; Spots: each player lays a card face down on each spot,
;; then plays the rest of their hand; the lowest total of spots wins.
(game
 (declare (ONE, TWO) 'SPOTS)
 (declare 2 'DEALT)
 (setup (create players 4) (create teams (0, 2) (1, 3))
        (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE, FOUR)) (SUIT (HEARTS, SPADES)))))
 (do ((shuffle (game iloc STOCK))
      (set (game points WORTH) (((RANK : A) 1) ((RANK : TWO) 2) ((RANK : THREE) 3) ((RANK : FOUR) 4)))
      (all player 'P (all 'SPOTS 'L (move (top (game iloc STOCK)) (top ('P hloc 'L)))))
      (all player 'P (repeat 'DEALT (move (top (game iloc STOCK)) (top ('P iloc HAND)))))
      (all (range 1 .. 3) 'I (inc (game sto ROUNDS) 'I))))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any ((current player) iloc HAND) 'C
                (do ((move 'C (top (game vloc PILE)))
                     (set ((current player) str LAST) (cardatt SUIT 'C))
                     (all (current team) 'TP (inc ('TP sto PLAYED) 1)))))
           (any (HEARTS, SPADES) 'B (set (game str CALLED) 'B)))))
 (scoring min (sum (union (all 'SPOTS 'L ((current player) hloc 'L))) using (game points WORTH))))"""


def info(text: str = SPOTS) -> GameInfo:
    return loads(text, "Spots").info


def paragraph(start: str, text: str = SPOTS) -> str:
    (found,) = [p for p in info(text).how_to_play if p.startswith(start)]
    return found


def test_a_variable_used_as_a_loop_index_is_that_number_and_that_place() -> None:
    order = paragraph("The game, in order:")
    assert "for each number from 1 to 3: add that number to the Rounds;" in order
    assert (
        "for each player: for each place (One and Two): move the top card of the Stock to the top of "
        "their face-down place;" in order
    )
    # The places the loop names are each listed, alike ones together.
    assert paragraph("Places:") == (
        "Places: Stock (shared, face down); One and Two (each player's, face down, seen by no one); "
        "Hand (each player's, seen only by its owner); Pile (shared, face up, seen by everyone)."
    )
    # A declared number is said as its value.
    assert "deal 2 cards from the Stock to each player's Hand" in order


def test_a_per_team_loop_names_your_partners() -> None:
    moves = paragraph("The moves of stage 1:")
    assert "for each player of your team: add 1 to their Played count." in moves
    assert "TP" not in moves


def test_a_string_variable_is_the_word_chosen() -> None:
    moves = paragraph("The moves of stage 1:")
    assert "(2) Choose a suit (hearts or spades), then set the Called to that suit." in moves
    assert "set your Last to the suit of that card" in moves


def test_a_goal_with_a_sum_over_piles() -> None:
    assert info().goal == (
        "For 4 players in 2 teams: end with the lowest score (the total Worth value of the cards in all "
        "of your face-down places)."
    )
    # The rules' last paragraph names the places the goal leaves out.
    end = info().how_to_play[-1]
    assert end.startswith(
        "The game ends when stage 1 ends: when every player's Hand is empty. Each player's score is "
        "then the total Worth value of the cards in all of their face-down places (One and Two) "
        "(partners share it); the lowest score wins"
    )


def test_the_file_comment_opens_the_rules_and_no_name_is_left_raw() -> None:
    game = loads(SPOTS, "Spots")
    assert game.info.how_to_play[0] == (
        "About this game: Spots: each player lays a card face down on each spot, "
        "then plays the rest of their hand; the lowest total of spots wins."
    )
    assert not [p for p in game.info.how_to_play if p.startswith("Names used below")]
    assert findings(game.program, game.info.goal, list(game.info.how_to_play), SPOTS) == []


# Shedding by suit or rank: players match the top card, but no one takes a trick.
SHEDDING = """(game
 (declare (filter ((current player) iloc HAND) 'C
                  (or (== (cardatt SUIT 'C) (cardatt SUIT (top (game vloc DISCARD))))
                      (== (cardatt RANK 'C) (cardatt RANK (top (game vloc DISCARD)))))) 'PLAYABLE)
 (setup (create players 3)
        (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE)) (SUIT (HEARTS, SPADES)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))
      (move (top (game iloc STOCK)) (top (game vloc DISCARD)))))
 (stage player (end (any player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any 'PLAYABLE 'C (move 'C (top (game vloc DISCARD))))
           ((== (size 'PLAYABLE) 0) (turn pass)))))
 (scoring min (size ((current player) iloc HAND))))"""


def test_a_game_without_tricks_never_speaks_of_tricks() -> None:
    game = loads(SHEDDING, "Shedding")
    assert game.info.goal == "For 3 players: end with the fewest cards in your Hand."
    text = " ".join(game.info.how_to_play)
    assert "trick" not in text.lower()
    moves = paragraph("The moves of stage 1:", SHEDDING)
    assert moves == (
        "The moves of stage 1: (1) Play to the Discard a card of your Hand whose suit is the suit of the "
        "top card of the Discard or whose rank is the rank of the top card of the Discard. (2) If there "
        "is no card in your Hand whose suit is the suit of the top card of the Discard or whose rank is "
        "the rank of the top card of the Discard: pass."
    )
    assert findings(game.program, game.info.goal, list(game.info.how_to_play), SHEDDING) == []


def test_the_checker_flags_letters_internal_names_and_tricks() -> None:
    game = loads(SHEDDING, "Shedding")
    paragraphs = [*game.info.how_to_play, "Names used below: Nump is 4. Choose B by taking tricks."]
    found = {kind for kind, _ in findings(game.program, game.info.goal, paragraphs, SHEDDING)}
    assert found == {"names used below", "tricks without tricks"}
    said = [*game.info.how_to_play, "For each player P: move P's Hand to the TRICKSWON."]
    kinds = findings(game.program, game.info.goal, said, SHEDDING)
    assert ("variable letter", "P") in kinds and ("internal name", "TRICKSWON") in kinds


# A pair is laid: two cards of the hand chosen one after the other.
PAIRS = """(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (A, TWO)) (SUIT (HEARTS, SPADES, CLUBS)))))
 (do ((all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (any player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any ((current player) iloc HAND) 'C
                (any ((current player) iloc HAND) 'D
                     ((== (cardatt RANK 'C) (cardatt RANK 'D))
                      (do ((move 'C (top (game vloc PILE))) (move 'D (top (game vloc PILE))))))))
           (turn pass))))
 (scoring min (size ((current player) iloc HAND))))"""


def test_a_second_card_chosen_is_another_card_then_the_other_card() -> None:
    assert paragraph("The moves of stage 1:", PAIRS) == (
        "The moves of stage 1: (1) Choose a card of your Hand, then choose another card of your Hand, "
        "then if the rank of that card is the rank of the other card: move that card to the top of the "
        "Pile; move the other card to the top of the Pile. (2) Pass."
    )


TRIPLES = PAIRS.replace(
    """(any ((current player) iloc HAND) 'D
                     ((== (cardatt RANK 'C) (cardatt RANK 'D))
                      (do ((move 'C (top (game vloc PILE))) (move 'D (top (game vloc PILE))))))))""",
    """(any ((current player) iloc HAND) 'D
                     (any ((current player) iloc HAND) 'E
                      ((== (cardatt RANK 'E) (cardatt RANK 'D))
                       (do ((move 'C (top (game vloc PILE))) (move 'E (top (game vloc PILE)))))))))""",
)


def test_a_third_card_chosen_is_a_third_card_then_the_third_card() -> None:
    # Never "choose a card ..., then if ... a third card ... that card": the card chosen last is
    # named by its order when chosen and when used.
    assert paragraph("The moves of stage 1:", TRIPLES) == (
        "The moves of stage 1: (1) Choose a card of your Hand, then choose another card of your Hand, "
        "then choose a third card of your Hand, then if the rank of the third card is the rank of the "
        "other card: move that card to the top of the Pile; move the third card to the top of the Pile. "
        "(2) Pass."
    )


def test_a_stage_comment_naming_the_programs_counts_says_them_as_the_rules_do() -> None:
    text = SPOTS.replace(
        " (stage player (end", " ;; play until every HAND is empty, a PLAYED count each\n (stage player (end"
    )
    (stage,) = [p for p in info(text).how_to_play if p.startswith("Stage 1 (")]
    assert stage.startswith("Stage 1 (play until every Hand is empty, a Played count each):")


def test_the_about_paragraph_says_the_programs_names_as_words_and_keeps_the_authors_others() -> None:
    text = ";; HEARTS and SPADES on SPOTS, as in the GDL\n" + SPOTS.split("\n", 2)[2]
    # A suit is a value, said as the rules say values; the sentence still begins with a capital.
    assert info(text).how_to_play[0] == "About this game: Hearts and spades on Spots, as in the GDL."


# A bid, then cards played: the authors' comments name every sort of the program's names (as
# CardStock's Euchre, Pitch, Crazy Eights, Page One and Enchere do).
BIDS = """(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (TWO, EIGHT, JOKER)) (SUIT (HEARTS, SPADES)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))
      (move (top (game iloc STOCK)) (top (game vloc SPARE)))))
 ;; if someone said PICKUP or ALONE, the EIGHT or the JOKER leads
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
  (choice (
      ;; say PICKUP
      (set ((current player) str BID) PICKUP)
      ;; go ALONE: give your top card to the ALONE
      (do ((set ((current player) str BID) ALONE)
           (move (top ((current player) iloc HAND)) (top (game iloc ALONE)))))
      ;; play a card that follows SUIT or TRUMP onto the SPARE
      (any ((current player) iloc HAND) 'C
           (do ((move 'C (top (game vloc SPARE))) (set (game str TRUMP) (cardatt SUIT 'C))))))))
 (scoring min (size ((current player) iloc HAND))))"""


def test_comments_say_values_attributes_places_and_words_as_the_rules_do() -> None:
    # Values as the rules say values (a bid "pick up", a rank "8"), an attribute as in "whose suit
    # is", places and stored words by their names; a name both bid and place is the bid.
    stage = paragraph("Stage 1 (", BIDS)
    assert stage.startswith("Stage 1 (if someone said pick up or alone, the 8 or the joker leads):")
    moves = paragraph("The moves of stage 1:", BIDS)
    assert moves.startswith("The moves of stage 1: (1) Say pick up. Set your Bid to pick up. (2) Go alone: ")
    assert "give your top card to the alone. " in moves
    assert "(3) Play a card that follows suit or Trump onto the Spare. Choose a card of your Hand" in moves
    game = loads(BIDS, "Bids")
    text = " ".join(game.info.how_to_play)
    names = {"PICKUP", "ALONE", "EIGHT", "JOKER", "SUIT", "TRUMP", "SPARE"}
    assert not names & set(re.findall(r"[A-Z]+", text))
    assert findings(game.program, game.info.goal, list(game.info.how_to_play), BIDS) == []


def test_a_comment_naming_an_attribute_the_game_also_keeps_says_what_is_kept() -> None:
    # The library's Crazy Eights keeps the suit to follow as its word SUIT: "(Suit)", as the
    # rules name that word, where a card's suit elsewhere is "suit".
    about = load("games/recycle/library/crazy_eights.rcy").info.how_to_play[0]
    assert "a card of the suit to follow (Suit) or of the rank" in about


def test_a_guard_the_choice_already_says_is_not_said_twice() -> None:
    # "If there is a card in your Hand whose suit is ...: choose a card of your Hand whose suit is
    # ..." says its filter twice: a choice among no cards is no choice, so that test goes.
    play = "(choice ((any 'PLAYABLE 'C (move 'C (top (game vloc DISCARD))))"
    guarded = SHEDDING.replace(
        play,
        "(choice (((and (> (size 'PLAYABLE) 0) (> (size (game vloc DISCARD)) 0))"
        " (any 'PLAYABLE 'C (move 'C (top (game vloc DISCARD)))))",
    )
    assert guarded != SHEDDING
    moves = paragraph("The moves of stage 1:", guarded)
    assert moves.startswith(
        "The moves of stage 1: (1) If the Discard is not empty: play to the Discard a card of your Hand "
        "whose suit is the suit of the top card of the Discard or whose rank is"
    )
    assert moves.count("there is a card") == 0 and moves.count("there is no card") == 1


# Beat it: each option compares your card with the best card on the table so far.
BEAT = """(game
 (setup (create players 2) (create teams (0) (1))
        (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE)) (SUIT (HEARTS, SPADES)))))
 (do ((shuffle (game iloc STOCK))
      (set (game points POWER) (((RANK : A) 3) ((RANK : TWO) 2) ((RANK : THREE) 1)))
      (all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
  (choice (((== (size (union (all player 'P ('P vloc TRICK)))) 0)
            (any ((current player) iloc HAND) 'C (move 'C (top ((current player) vloc TRICK)))))
           ((!= (team (current player))
                (team (owner (max (union (all player 'P ('P vloc TRICK))) using (game points POWER)))))
            (any (filter ((current player) iloc HAND) 'C
                   (> (score 'C using (game points POWER))
                      (score (max (union (all player 'P ('P vloc TRICK))) using (game points POWER))
                             using (game points POWER))))
                 'D (move 'D (top ((current player) vloc TRICK)))))
           ((< (size ((current player) iloc HAND)) 4)
            (any (filter ((current player) iloc HAND) 'C
                   (< (score 'C using (game points POWER))
                      (score (max (union (all player 'P ('P vloc TRICK))) using (game points POWER))
                             using (game points POWER))))
                 'D (move 'D (top ((current player) vloc TRICK))))))))
 (scoring max (size ((current player) vloc TRICK))))"""


def test_a_long_phrase_said_again_is_named_once_and_then_called_by_its_name() -> None:
    moves = paragraph("The moves of stage 1:", BEAT)
    best = "the highest card of every player's Trick together by their Power value"
    # Named once, then "the highest card"; a card chosen and moved is played ("play to your Trick
    # a card of your Hand whose ..."); two values on one scale are "that of" the other.
    assert moves == (
        "The moves of stage 1: (1) If every player's Trick together is empty: play to your Trick a "
        "card of your Hand. (2) If your team is not the team of whoever has "
        f'{best} (call it "the highest card"): play to your Trick a card of your Hand whose Power '
        "value is more than that of the highest card. (3) If the number of cards in your Hand is less "
        "than 4: play to your Trick a card of your Hand whose Power value is less than that of the "
        "highest card."
    )


# Counted two ways: a colour's count compared with two bounds, said once before its bounds.
BOUNDS = """(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE)) (COLOR (RED, BLUE)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))
      (all player 'P
        (all (RED, BLUE) 'K
          (do (((and (> (size (filter ('P iloc HAND) 'C (== (cardatt COLOR 'C) 'K))) ('P sto LOW))
                     (<= (size (filter ('P iloc HAND) 'C (== (cardatt COLOR 'C) 'K))) ('P sto HIGH)))
                (set ('P sto MIDDLE) (size (filter ('P iloc HAND) 'C (== (cardatt COLOR 'C) 'K)))))
               ((> (size (filter ('P iloc HAND) 'C (== (cardatt COLOR 'C) 'K))) ('P sto HIGH))
                (set ('P sto HIGH) (size (filter ('P iloc HAND) 'C (== (cardatt COLOR 'C) 'K)))))))))))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE)))))))
 (scoring max ((current player) sto HIGH)))"""


def test_a_count_compared_with_two_bounds_is_said_once_and_named() -> None:
    order = paragraph("The game, in order:", BOUNDS)
    # The one player a loop goes over owns "their" counts.
    assert order.endswith(
        "for each player: for each color (red and blue): if the number of cards in their Hand whose "
        'color is that color (call it "the number of cards") is more than their Low count and at most '
        "their High count: set their Middle count to the number of cards; if the number of cards is "
        "more than their High count: set their High count to the number of cards; then stage 1."
    )


# Follow if you can: three of the four options are for when a card was led.
FOLLOW = """(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE)) (SUIT (HEARTS, SPADES)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
  (choice (((== (size (game vloc PILE)) 0)
            (any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE)))))
           ((and (> (size (game vloc PILE)) 0)
                 (> (size (filter ((current player) iloc HAND) 'C
                          (== (cardatt SUIT 'C) (cardatt SUIT (top (game vloc PILE)))))) 0))
            (any (filter ((current player) iloc HAND) 'C
                    (== (cardatt SUIT 'C) (cardatt SUIT (top (game vloc PILE)))))
                 'D (move 'D (top (game vloc PILE)))))
           ((and (> (size (game vloc PILE)) 0)
                 (== (size (filter ((current player) iloc HAND) 'C (== (cardatt SUIT 'C) HEARTS)))
                     (size ((current player) iloc HAND))))
            (any ((current player) iloc HAND) 'D (move 'D (top (game vloc PILE)))))
           ((and (> (size (game vloc PILE)) 0) (== (size ((current player) iloc HAND)) 1))
            (turn pass)))))
 (scoring min (size ((current player) iloc HAND))))"""


def test_a_test_options_in_a_row_share_is_said_once_before_them() -> None:
    moves = paragraph("The moves of stage 1:", FOLLOW)
    assert moves == (
        "The moves of stage 1: (1) If the Pile is empty: play to the Pile a card of your Hand. "
        "Options (2) to (4) are for when the Pile is not empty. (2) Play to the Pile a card of your "
        "Hand whose suit is the suit of the top card of the Pile. (3) If your Hand holds only cards "
        "whose suit is hearts: play to the Pile a card of your Hand. (4) If the number of cards in "
        "your Hand is 1: pass."
    )


# Three alternatives a word apart: the game ends when any of three piles holds two cards.
PILES = """(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE)) (SUIT (HEARTS, SPADES)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (or (or (== (size (game vloc NORTH)) 2) (== (size (game vloc SOUTH)) 2))
                        (== (size (game vloc EAST)) 2)))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc NORTH))))
           (any ((current player) iloc HAND) 'C (move 'C (top (game vloc SOUTH))))
           (any ((current player) iloc HAND) 'C (move 'C (top (game vloc EAST)))))))
 (scoring min (size ((current player) iloc HAND))))"""


def test_alternatives_a_word_apart_are_said_once() -> None:
    stage = paragraph("Stage 1:", PILES)
    assert stage.startswith(
        "Stage 1: played in rounds until the number of cards in the North, South or East is 2, each round"
    )


EVERY_NUMBER = """(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE)) (SUIT (HEARTS)))))
 (do ((any (range 1..3) 'X (inc (game sto T) 'X))
      (all player 'P (repeat 1 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (any player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc DISCARD)))))))
 (scoring min (size ((current player) iloc HAND))))"""


def test_an_any_outside_a_choice_is_done_for_each_item_and_said_so() -> None:
    # CardStock runs an `any` outside a choice for every item (ProcessAgg), and so does the
    # interpreter: T is 1 + 2 + 3. The rules say so, not "choose a number".
    game = loads(EVERY_NUMBER, "Every number")
    assert game.new(2, seed=1).sto[(-1, "T")] == 6
    assert paragraph("The game, in order:", EVERY_NUMBER) == (
        "The game, in order: for each number from 1 to 3: add that number to the T count; "
        "deal 1 card from the Stock to each player's Hand; then stage 1."
    )
    assert paragraph("The moves of stage 1:", EVERY_NUMBER) == (
        "The moves of stage 1: (1) Play to the Discard a card of your Hand."
    )


PAIRS_COUNTED = EVERY_NUMBER.replace(
    "(do ((any (range 1..3) 'X (inc (game sto T) 'X))",
    "(do ((all (game iloc STOCK) 'C (all (game iloc STOCK) 'D"
    " ((== (cardatt RANK 'C) (cardatt RANK 'D)) (inc (game sto T) 1))))",
)


def test_a_loop_inside_a_loop_over_the_same_cards_names_its_card() -> None:
    # Never "for each card ...: for each card ...: if ... the other card": the inner loop's card
    # is named where it is taken.
    assert paragraph("The game, in order:", PAIRS_COUNTED).startswith(
        "The game, in order: for each card of the Stock: for each card of the Stock (the other card): "
        "if the rank of that card is the rank of the other card: add 1 to the T count;"
    )
