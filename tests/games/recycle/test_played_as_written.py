"""Played as written: decks made into a pile and dealt to every seat, `any` inside a `do` for
every player, a location named in play, a move whose destination reads the card's own place,
and the random-play report (playcheck) that says when a game does not play."""

from __future__ import annotations

import random

import pytest

from games.recycle import RecycleError, loads
from games.recycle.playing.conservation import conservation_faults
from games.recycle.playing.playcheck import play_check
from games.recycle.playing.state import GAME
from games.recycle.words.names import readable

# Three copies of a five-card deck made into the discard, all moved to the stock and dealt to
# four seats, five each (LAMA's shape: its 8 decks made into the discard pile).
COPIED_DECKS = """(game
 (setup (create players 4)
  (repeat 3 (create deck (game vloc DISCARD) (deck (NUMBER (ONE, TWO, THREE, FOUR, FIVE))))))
 (do ((set (game points VALUE) (((NUMBER : ONE) 1) ((NUMBER : TWO) 2) ((NUMBER : THREE) 3)
                                ((NUMBER : FOUR) 4) ((NUMBER : FIVE) 5)))))
 (stage player (end (any player 'P (> ('P sto DONE) 0)))
  (do ((repeat all (move (top (game vloc DISCARD)) (top (game iloc STOCK))))
       (shuffle (game iloc STOCK))
       (all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
  (stage player (end (any player 'P (== (size ('P iloc HAND)) 0)))
   (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc DISCARD)))))))
  (do ((all player 'P (repeat all (move (top ('P iloc HAND)) (top (game vloc DISCARD)))))
       (inc ((current player) sto DONE) 1))))
 (scoring min ((current player) sto DONE)))"""


def play_watched(game, seed: int) -> tuple[object, list[int]]:
    """Play one random game checking conservation after every move; return the state and who moved."""
    state = game.new(None, None, seed)
    start = state.copy()
    rng = random.Random(seed)
    movers = []
    assert conservation_faults(game.program, state, start) == []
    while not game.is_over(state):
        (seat,) = game.to_act(state)
        game.apply(state, seat, game.random_move(state, seat, rng))
        movers.append(seat)
        assert conservation_faults(game.program, state, start) == [], f"after move {len(movers)}"
    return state, movers


def test_decks_made_into_a_pile_are_all_moved_and_dealt_to_every_seat() -> None:
    game = loads(COPIED_DECKS, "Copies")
    state = game.new(None, None, 3)
    hands = [len(state.locs[(seat, "iloc", "HAND")]) for seat in range(4)]
    assert hands == [3, 3, 3, 3]  # each seat what the description deals
    # (repeat all ...) moved all 15 cards (3 copies of 5), not one per distinct card.
    assert len(state.locs[(GAME, "iloc", "STOCK")]) == 15 - 12
    assert sorted(
        game.program.names[c]
        for c in state.locs[(GAME, "iloc", "STOCK")]
        + [c for seat in range(4) for c in state.locs[(seat, "iloc", "HAND")]]
    ) == sorted(["ONE", "TWO", "THREE", "FOUR", "FIVE"] * 3)
    for seed in range(4):
        _, movers = play_watched(game, seed)
        assert set(movers) == {0, 1, 2, 3}


def test_repeat_all_moves_as_many_cards_as_its_place_holds_when_it_begins() -> None:
    # Moving a pile onto itself, or remembering it, ends: the count is read once, first.
    game = loads("""(game
 (setup (create players 2) (create deck (game vloc A) (deck (RANK (A, TWO, THREE)) (SUIT (HEARTS)))))
 (do ((repeat all (move (top (game vloc A)) (bottom (game vloc A))))
      (repeat all (remember (top (game vloc A)) (top (game mem SEEN))))))
 (stage player (end (== (size (game vloc A)) 0))
  (choice ((any (game vloc A) 'C (move 'C (top ((current player) vloc WON)))))))
 (scoring max 0))""")
    state = game.new(None, None, 0)
    names = game.program.names
    assert [names[c] for c in state.locs[(GAME, "vloc", "A")]] == ["AH", "2H", "3H"]  # turned round once
    assert len(state.locs[(GAME, "mem", "SEEN")]) == 3


def test_any_inside_a_do_runs_for_every_item_for_every_player() -> None:
    # CardStock's IterateAgg runs the body of an agg outside a choice for each item, `any`
    # as `all`: every seat's bet ends at the last item, 3.
    game = loads("""(game
 (setup (create players 3) (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE)) (SUIT (HEARTS)))))
 (stage player (end (== (game sto ROUNDS) 3))
  (do ((all player 'P (any (range 1..3) 'B (set ('P sto BET) 'B)))
       (move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE))))))
  (do ((inc (game sto ROUNDS) 1))))
 (scoring max 0))""")
    state = game.new(None, None, 0)
    assert [state.sto[(seat, "BET")] for seat in range(3)] == [3, 3, 3]
    _, movers = play_watched(game, 0)
    assert movers == [0, 1, 2]  # a stage for every player: each seat's round in turn


# Poker's shape: the round's end counts one round per player the current one beats, so the
# first round (everyone else at 0 points) ends the stage before seat 1 is ever reached.
ONE_SEAT = """(game
 (setup (create players 3) (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE)) (SUIT (HEARTS)))))
 (stage player (end (>= (game sto ROUNDS) 3))
  (do ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE))))))
  (do ((set ((current player) sto POINTS) 1)
       (all player 'P ((>= ((current player) sto POINTS) ('P sto POINTS)) (inc (game sto ROUNDS) 1))))))
 (scoring max 0))"""


def test_the_report_names_the_seats_that_never_move() -> None:
    report = play_check(loads(ONE_SEAT, "One seat"), 5)
    assert report.problem is not None and report.problem.startswith(
        "players 2 and 3 never move in 5 random games: the game ends first, "
        "by the end condition at line 3, column 16 (moves a game: player 1 1.0; 1.0 in all)"
    )
    assert report.figures()["seat_moves"] == [1.0, 0.0, 0.0]
    assert report.figures()["dealt"] == [1.0, 0.0, 0.0]


def test_the_report_says_when_no_player_ever_moves() -> None:
    # LAMA for 3 as it was read: nobody dealt, the round over before its first choice.
    game = loads("""(game
 (setup (create players 3) (create deck (game iloc STOCK) (deck (RANK (A, TWO)) (SUIT (HEARTS)))))
 (stage player (end (any player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE)))))))
 (scoring max 0))""")
    report = play_check(game, 3)
    assert report.problem == (
        "no player ever moves: each of 3 random games ended before anyone had a choice "
        "(cards each player holds when play begins: player 1 0, player 2 0, player 3 0)"
    )


def test_a_game_that_plays_has_no_problem_and_its_figures() -> None:
    report = play_check(loads(COPIED_DECKS, "Copies"), 4)
    figures = report.figures()
    assert report.plays and figures["games"] == 4
    assert figures["dealt"] == [3.0, 3.0, 3.0, 3.0]
    assert all(n > 0 for n in figures["seat_moves"]) and sum(figures["wins"]) >= 4


# Lost Cities' shape: a pile per colour, its name the colour computed in play.
COLOUR_PILES = """(game
 (declare (RED, BLUE) 'COLORS)
 (setup (create players 2)
  (create deck (game iloc STOCK) (deck (RANK (ONE, TWO, THREE)) (COLOR (RED, BLUE)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (== (size (game iloc STOCK)) 0))
  (choice ((any 'COLORS 'C
             (any (filter ((current player) iloc HAND) 'MC (== (cardatt COLOR 'MC) 'C)) 'AC
               (move 'AC (top (game vloc 'C)))))))
  (choice ((move (top (game iloc STOCK)) (top ((current player) iloc HAND)))
           (do ((all 'COLORS 'C ((> (size (game vloc 'C)) 0)
                                 (move (top (game vloc 'C)) (top ((current player) iloc HAND))))))))))
 (scoring max (size ((current player) iloc HAND))))"""


def test_a_location_named_in_play_loads_is_worded_and_plays() -> None:
    game = loads(COLOUR_PILES, "Colours")
    words = next(w for w in game.words.values() if w and "Draw from stock" in w)
    # The branch drawing from the places named in play reads as words, unlike the other branch.
    assert len(words) == 2 and words[1].startswith("Draw from ") and len(set(words)) == 2
    assert all(isinstance(w, str) and "Node" not in w for w in words)
    for seed in range(3):
        state, movers = play_watched(game, seed)
        assert set(movers) == {0, 1}
        assert {key[2] for key in state.locs if key[1] == "vloc"} <= {"RED", "BLUE"}
        view = game.view(state, 0)
        assert {loc["label"] for loc in view["locations"] if loc["kind"] == "vloc"} <= {"Red", "Blue"}
    node = game.program.choices[min(game.program.choices)][1]  # any name readable takes gives words
    assert readable(node) == "One of the piles" and readable("TRICKSWON") == "Tricks won"


def test_a_move_reads_its_destination_before_its_card_leaves() -> None:
    # War's shape: each trick card goes to the owner of the highest card of its own trick place,
    # read while the card is still there (CardStock's ProcessMove reads both ends first).
    game = loads("""(game
 (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (TWO, THREE)) (SUIT (HEARTS, SPADES)))))
 (do ((put points 'HI (((RANK (TWO)) 2) ((RANK (THREE)) 3)))
      (all player 'P (move (top (game iloc STOCK)) (top ('P vloc TRICK))))
      (all player 'P (repeat all
        (move (top ('P vloc TRICK)) (bottom ((owner (max (union ('P vloc TRICK)) using 'HI)) iloc HAND)))))))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game vloc PILE)))))))
 (scoring max 0))""")
    state = game.new(None, None, 0)
    assert [len(state.locs.get((seat, "iloc", "HAND"), [])) for seat in (0, 1)] == [1, 1]
    assert conservation_faults(game.program, state) == []


@pytest.mark.parametrize(
    ("text", "where", "advice"),
    [
        # 0.4's attribute form where a value goes (CrazyEights4.gdl)
        ("(do ((set (game sto SUIT) (SUIT (HEARTS)))))", (4, 34), "write (set (game str SUIT) HEARTS)"),
        # a stored string used as a place
        (
            "(do ((set (game str S) HEARTS) ((== (cardatt SUIT (top (game vloc A))) "
            "(cardatt SUIT (top (game str S)))) (set (game sto X) 1))))",
            (4, 92),
            "a stored word is no place: use it where the word goes",
        ),
        # storage whose own brackets are missing (GoFish2.gdl)
        (
            "(do (((== (cardatt RANK (top (game vloc A))) (current player) str RANK)) (set (game sto X) 1)))",
            (4, 64),
            "write ((current player) str RANK)",
        ),
        # 0.3's location (NoThanks.gdl)
        ("(do ((shuffle (game loc A))))", (4, 22), "write the kind, iloc"),
        # a guard outside the brackets it shares with its action (ContinuousPairsAlt4.rcy)
        (
            "(do ((all (game vloc A) 'C (== (size (game vloc A)) 1) (set (game sto X) 1))))",
            (4, 57),
            "share one pair of brackets: write (all COLLECTION 'V (CONDITION ACTION))",
        ),
        # a choice inside a do (generated.gdl)
        ("(do ((choice ((turn pass)))))", (4, 8), "a choice is a part of a stage"),
    ],
)
def test_what_cardstock_recovers_from_is_refused_with_what_to_write(
    text: str, where: tuple[int, int], advice: str
) -> None:
    head = (
        "(game\n (setup (create players 2)\n"
        "  (create deck (game vloc A) (deck (RANK (A, TWO)) (SUIT (HEARTS)))))\n "
    )
    with pytest.raises(RecycleError) as caught:
        loads(head + text + "\n (scoring max 0))")
    assert (caught.value.line, caught.value.column) == where, str(caught.value)
    assert advice in str(caught.value)


def test_conservation_catches_a_card_lost_or_duplicated() -> None:
    game = loads(COPIED_DECKS, "Copies")
    state = game.new(None, None, 1)
    start = state.copy()
    assert conservation_faults(game.program, state, start) == []
    lost = state.copy()
    card = lost.locs[(0, "iloc", "HAND")].pop()
    name = game.program.names[card]
    faults = conservation_faults(game.program, lost, start)
    assert len(faults) == 1 and faults[0].startswith(f"card {name} lost: 2 in the places, 3 made")
    doubled = state.copy()
    doubled.locs[(1, "iloc", "HAND")].append(doubled.locs[(0, "iloc", "HAND")][0])
    faults = conservation_faults(game.program, doubled, start)
    assert len(faults) == 1 and "duplicated: 4 in the places, 3 made" in faults[0]
    assert "(in " in faults[0] and "0 iloc HAND" in faults[0] and "1 iloc HAND" in faults[0]
    # Remembered copies are not cards in play; a card number the game never made is.
    remembered = state.copy()
    remembered.locs[(GAME, "mem", "SEEN")] = list(remembered.locs[(0, "iloc", "HAND")])
    assert conservation_faults(game.program, remembered, start) == []
    remembered.locs[(GAME, "vloc", "DISCARD")] = [999]
    assert conservation_faults(game.program, remembered, start) == ["999 is not a card of the game"]
    # Without the start, a whole deck's copies agree among themselves: one card off is caught.
    assert len(conservation_faults(game.program, lost)) == 1
