"""Every form of CardStock's 0.4 and 0.5 grammars that the seeds do not use, each in a small game.

The deck is made unshuffled, so every value is known: ``(RANK (A, TWO, THREE))
(SUIT (HEARTS, SPADES))`` lays AH AS 2H 2S 3H 3S from the bottom; the top is 3S.
"""

from __future__ import annotations

import pytest

from games.recycle import loads
from games.recycle.playing.state import GAME
from tests.games.recycle.helpers import play_random

DECK_04 = "(create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE)) (SUIT (HEARTS, SPADES))))"
DECK_05 = "(create deck DEFAULT (game iloc STOCK) (deck (RANK (A, TWO, THREE)) (SUIT (HEARTS, SPADES))))"
POINTS_04 = "(put points 'VALUE (((RANK (A)) 1) ((RANK (TWO)) 2) ((RANK (THREE)) 3)))"
POINTS_05 = "(set (game points VALUE) (((RANK : A) 1) ((RANK : TWO) 2) ((RANK : THREE) 3)))"


def game_of(deck: str, actions: str, players: int = 2, declares: str = "") -> str:
    """A game that runs ``actions`` once, then lets each player pass once."""
    return f"""(game {declares}
 (setup (create players {players}) {deck})
 (do ({actions}))
 (stage player (end (>= (game sto TURNS) {players}))
  (choice ((inc (game sto TURNS) 1))))
 (scoring max ((current player) sto SCORE)))"""


def stored(text: str, *names: str, seed: int = 0) -> list[object]:
    game = loads(text, "Forms")
    assert game.warnings == []
    state, moves = play_random(game, seed)
    assert moves == game.info.max_players and game.result(state).get("error") is None
    return [
        state.strs.get((GAME, n[1:])) if n.startswith("$") else state.sto.get((GAME, n), 0) for n in names
    ]


def test_point_maps_in_storage_0_5() -> None:
    text = game_of(
        DECK_05,
        POINTS_05
        + """
        (set ((0 player) points BONUS) (((SUIT : SPADES) 10)))
        (set (game sto SUM) (sum (game iloc STOCK) using (game points VALUE)))
        (set (game sto TOP) (score (top (game iloc STOCK)) using (game points VALUE)))
        (set (game sto BEST) (score (max (game iloc STOCK) using ((0 player) points BONUS))
            using (game points VALUE)))
        (set (game sto LOW) (score (min (game iloc STOCK) using (game points VALUE))
            using (game points VALUE)))
        (set (game sto NONE) (sum (game iloc STOCK) using ((1 player) points BONUS)))""",
    )
    # BEST: the first of the equal spades, AS (1 point); player 1 has no BONUS map.
    assert stored(text, "SUM", "TOP", "BEST", "LOW", "NONE") == [12, 3, 1, 1, 0]


def test_point_maps_0_4_and_a_computed_entry() -> None:
    text = game_of(
        DECK_04,
        POINTS_04
        + """
        (put points 'LEAD (((SUIT (cardatt SUIT (top (game iloc STOCK)))) 100)))
        (set (game sto SUM) (sum (game iloc STOCK) using 'VALUE))
        (set (game sto LEAD) (sum (game iloc STOCK) using 'LEAD))""",
    )
    assert stored(text, "SUM", "LEAD") == [12, 300]


def test_string_storage() -> None:
    text = game_of(
        DECK_05,
        """(set (game str TRUMP) (cardatt SUIT (top (game iloc STOCK))))
        (set ((0 player) str BID) PASS)
        (set ((team (1 player)) str BID) (game str TRUMP))
        ((== ((1 player) str BID) (game str TRUMP)) (set (game sto SAME) 1))
        ((== ((0 player) str BID) PASS) (set (game str SEEN) YES))
        ((== (game str UNSET) NONE) (set (game sto NEVER) 1))""",
    )
    # (1 player) plays alone: its team's BID is not its own.
    assert stored(text, "$TRUMP", "$SEEN", "SAME", "NEVER") == ["SPADES", "YES", 0, 0]


def test_storage_and_locations_named_by_a_variable_or_a_string() -> None:
    text = game_of(
        DECK_04,
        """(all (LEFT, RIGHT) 'R (move (top (game iloc STOCK)) (top (game vloc 'R))))
        (set (game str WHERE) LEFT)
        (set (game sto (game str WHERE)) (size (game vloc (game str WHERE))))
        (all (range 1..3) 'N (inc (game sto 'N) 'N))
        (set (game sto RIGHTS) (size (game vloc RIGHT)))""",
    )
    assert stored(text, "LEFT", "RIGHTS", "1", "2", "3") == [1, 1, 1, 2, 3]


def test_numbers_range_random_tri_fib_power() -> None:
    text = game_of(
        DECK_05,
        """(all (range 2..5) 'N (inc (game sto SUM) 'N))
        (set (game sto TRI) (tri 4))
        (set (game sto FIB) (fib 10))
        (set (game sto POW) (^ 2 10))
        (set (game sto HUGE) (^ 10 100))
        (repeat 20 (do ((set (game sto R) (random 3 .. 5))
                        ((or (< (game sto R) 3) (> (game sto R) 5)) (inc (game sto OUT) 1))
                        (inc (game sto DRAWS) (random 1)))))""",
    )
    total, tri, fib, power, huge, outside, draws = stored(
        text, "SUM", "TRI", "FIB", "POW", "HUGE", "OUT", "DRAWS"
    )
    assert (total, tri, fib, power, huge, outside) == (14, 10, 55, 1024, 10**9, 0)
    assert 0 < draws < 20  # 20 draws of 0 or 1


def test_random_draws_are_the_seed_s() -> None:
    text = game_of(DECK_05, "(repeat 5 (inc (game sto R) (* (random 1000) (random 1 .. 3))))")
    assert stored(text, "R", seed=4) == stored(text, "R", seed=4)
    assert len({stored(text, "R", seed=s)[0] for s in range(6)}) > 1


def test_set_operations_sort_and_sequences() -> None:
    text = game_of(
        DECK_05,
        POINTS_05
        + """
        (repeat 4 (move (top (game iloc STOCK)) (top (game vloc A))))
        (all (game vloc A) 'C (remember 'C (top (game mem B))))
        (move (top (game iloc STOCK)) (top (game mem B)))
        (set (game sto UNION) (size (union (game vloc A) (game iloc STOCK))))
        (set (game sto BOTH) (size (intersect (game vloc A)
            (filter (game vloc A) 'C (== (cardatt SUIT 'C) SPADES)))))
        (set (game sto ONCE) (size (disjunction (game vloc A) (game iloc STOCK) (game iloc STOCK))))
        (set (game sto FIRST) (score (bottom (sort (game vloc A) using (game points VALUE)))
            using (game points VALUE)))
        (set (game sto LAST) (score (top (sort (game vloc A) using (game points VALUE)))
            using (game points VALUE)))
        (set (game sto TOP2) (sum (top 2 (game vloc A)) using (game points VALUE)))
        (set (game sto BOTTOM3) (sum (bottom 3 (game vloc A)) using (game points VALUE)))""",
    )
    # A holds 3S 3H 2S 2H (bottom first); B copies them and takes AS; the STOCK keeps AH.
    assert stored(text, "UNION", "BOTH", "ONCE", "FIRST", "LAST", "TOP2", "BOTTOM3") == [5, 2, 4, 2, 3, 4, 8]


def test_collections_of_collections() -> None:
    text = game_of(
        DECK_05,
        POINTS_05
        + """
        (set (game sto PAIRS) (size (tuples 2 (game iloc STOCK) using (game points VALUE))))
        (set (game sto SUITS) (size (partition SUIT (game iloc STOCK))))
        (set (game sto RANKS) (size (partition (game iloc STOCK) RANK)))
        (set (game sto SUBSETS) (size (subsets (game iloc STOCK))))
        (set (game sto RUNS) (size (runs largest 3 (game iloc STOCK) using (game points VALUE))))
        (set (game sto ALLRUNS) (size (runs all 2 (game iloc STOCK) using (game points VALUE))))
        (set (game sto RUN) (size (run top 2 (game iloc STOCK) using (game points VALUE))))
        (set (game sto BIG) (size (filter (subsets (game iloc STOCK)) 'S (== (size 'S) 3))))
        (set (game sto LOWPAIR) (score (top (top (tuples 2 (game iloc STOCK) using (game points VALUE))))
                                       using (game points VALUE)))
        (let (partition SUIT (game iloc STOCK)) 'PARTS
          ((== (size 'PARTS) 2)
           (all 'PARTS 'P (inc (game sto PARTCARDS) (size 'P)))))""",
    )
    # Six cards: three pairs of equal rank; two suits; three ranks; 64 subsets; a run
    # A-2-3 has 2x2x2 choices of suits; the top two cards 3H 3S are no run; 20 subsets of
    # three; the top of a collection of collections is its first, as in CardStock: the aces.
    assert stored(
        text, "PAIRS", "SUITS", "RANKS", "SUBSETS", "RUNS", "RUN", "BIG", "LOWPAIR", "PARTCARDS"
    ) == [3, 2, 3, 64, 8, 0, 20, 1, 6]


def test_moving_a_pair_out_of_a_collection() -> None:
    text = game_of(
        DECK_05,
        POINTS_05
        + """
        (let (tuples 2 (game iloc STOCK) using (game points VALUE)) 'PAIRS
          ((> (size 'PAIRS) 0)
           (do ((move (actual (top 'PAIRS)) (top (game vloc FIRST)))
                (repeat all (move (top (top 'PAIRS)) (top (game vloc MELD))))))))
        (set (game sto FIRST) (size (game vloc FIRST)))
        (set (game sto MELD) (size (game vloc MELD)))
        (set (game sto LEFT) (size (game iloc STOCK)))
        (set (game sto ACES) (size (filter (game iloc STOCK) 'C (== (cardatt RANK 'C) A))))""",
    )
    # The first pair (the aces): one by (actual ...), the other by (repeat all ...).
    assert stored(text, "FIRST", "MELD", "LEFT", "ACES") == [1, 1, 4, 0]


def test_filters_and_sums_over_players_teams_names_numbers() -> None:
    text = game_of(
        DECK_05,
        """(all player 'P (inc ('P sto CHIPS) (+ 1 'P)))
        (set (game sto RICH) (size (filter player 'P (> ('P sto CHIPS) 1))))
        (set (game sto TOTAL) (all player 'P ('P sto CHIPS)))
        (set (game sto NAMES) (size (filter (A, B, C) 'N (!= 'N B))))
        (set (game sto EVENS) (size (filter (range 1..10) 'N (== (% 'N 2) 0))))
        (set (game sto OTHERS) (size (other player)))""",
        players=3,
    )
    assert stored(text, "RICH", "TOTAL", "NAMES", "EVENS", "OTHERS") == [2, 6, 2, 5, 2]


def test_declare_of_an_expression_and_a_variable_player_count() -> None:
    declares = "(declare 3 'NUMP) (declare (// 36 'NUMP) 'HAND) (declare (A, B) 'PILES)"
    text = game_of(
        DECK_05,
        "(set (game sto HAND) 'HAND) (set (game sto PILES) (size 'PILES))",
        declares=declares,
    ).replace("(create players 2)", "(create players 'NUMP)")
    game = loads(text, "Declared")
    assert game.info.max_players == 3
    state, _ = play_random(game, 0)
    assert (state.sto[(GAME, "HAND")], state.sto[(GAME, "PILES")]) == (12, 2)


def test_let_with_a_guarded_body_and_other_location_kinds() -> None:
    text = game_of(
        DECK_04,
        """(let (filter (game iloc STOCK) 'C (== (cardatt RANK 'C) A)) 'ACES
          ((== (size 'ACES) 2) (all 'ACES 'C (move 'C (top ((0 player) oloc SHOWN))))))
        (set (game sto SHOWN) (size ((0 player) oloc SHOWN)))""",
    )
    assert stored(text, "SHOWN") == [2]


def test_a_nested_any_with_no_items_leaves_the_option() -> None:
    # Play a card; then take every pool card of its rank: with no match the play stands.
    text = """(game
 (setup (create players 2)
       (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE)) (SUIT (HEARTS, SPADES)))))
 (do ((move (top (game iloc STOCK)) (top (game vloc POOL)))
      (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any ((current player) iloc HAND) 'C
    (do ((move 'C (top ((current player) vloc PLAYED)))
         (any (filter (game vloc POOL) 'M (== (cardatt RANK 'M) (cardatt RANK 'C))) 'MATCH
              (move 'MATCH (top ((current player) vloc WON))))))))))
 (scoring max (size ((current player) vloc WON))))"""
    game = loads(text, "Fishing")
    state = game.new(None, None, 0)
    # Player 0 holds 3H 2S (dealt from the top); the pool 3S: 3H takes it, 2S takes nothing.
    assert game.legal_moves(state, 0) == [{"choice": [0, "3H", "3S"]}, {"choice": [0, "2S"]}]
    game.apply(state, 0, {"choice": [0, "2S"]})
    assert game.to_act(state) == [1]


@pytest.mark.parametrize("version", ["0.4", "0.5"])
def test_a_whole_game_in_each_version(version: str) -> None:
    deck, points = (DECK_04, POINTS_04) if version == "0.4" else (DECK_05, POINTS_05)
    using = "'VALUE" if version == "0.4" else "(game points VALUE)"
    text = f"""(game
 (setup (create players 2) {deck})
 (do ({points} (shuffle (game iloc STOCK))
      (all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (all player 'P (== (size ('P iloc HAND)) 0)))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top ((current player) vloc PLAYED)))))))
 (scoring max (sum ((current player) vloc PLAYED) using {using})))"""
    game = loads(text, f"Version {version}")
    for seed in range(5):
        state, moves = play_random(game, seed)
        assert moves == 6 and sum(game.result(state)["scores"]) == 12


def test_a_point_map_of_no_one_gives_no_points() -> None:
    # 'NOBODY is bound nowhere: its map is not kept, and scores by it are 0.
    text = game_of(
        DECK_05,
        """(set ('NOBODY points BONUS) (((SUIT : SPADES) 10)))
        (set (game sto SUM) (sum (game iloc STOCK) using ('NOBODY points BONUS)))""",
    )
    game = loads(text, "No one")
    assert len(game.warnings) == 2 and "'NOBODY is not bound" in game.warnings[0]
    state, _ = play_random(game, 0)
    assert state.sto.get((GAME, "SUM"), 0) == 0 and state.points == {}


def test_a_point_map_entry_of_no_number_gives_no_points() -> None:
    text = game_of(
        DECK_05,
        """(set (game points P) (((SUIT : SPADES) 'NOTHING) ((SUIT : HEARTS) 2)))
        (set (game sto SUM) (sum (game iloc STOCK) using (game points P)))""",
    )
    game = loads(text, "No number")
    state, _ = play_random(game, 0)
    assert state.sto[(GAME, "SUM")] == 6  # three hearts of 2; the spades' entry counts 0


def test_runs_all_and_largest_as_cardstock_makes_them() -> None:
    # One suit, A 2 3 and a lone 5 (points 1, 2, 3, 5).
    deck = "(create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE, FIVE)) (SUIT (HEARTS))))"
    points = (
        "(set (game points VALUE) (((RANK : A) 1) ((RANK : TWO) 2) ((RANK : THREE) 3) ((RANK : FIVE) 5)))"
    )
    text = game_of(
        deck,
        points
        + """
        (set (game sto ALL) (size (runs all 2 (game iloc STOCK) using (game points VALUE))))
        (set (game sto LARGEST) (size (runs largest 2 (game iloc STOCK) using (game points VALUE))))
        (set (game sto LONG) (size (top (runs largest 2 (game iloc STOCK) using (game points VALUE)))))
        (all (runs all 2 (game iloc STOCK) using (game points VALUE)) 'R
             (inc (game sto CARDS) (size 'R)))""",
    )
    # All: A-2, A-2-3, 2-3; largest: A-2-3 alone.
    assert stored(text, "ALL", "LARGEST", "LONG", "CARDS") == [3, 1, 3, 7]


def test_an_option_whose_first_guard_fails_is_no_option() -> None:
    # CardStock checks an option's guards as it builds the option: one that would do
    # nothing is not offered. A later guard is checked when the option runs.
    text = """(game
 (setup (create players 2) (create deck (game iloc STOCK) (deck (RANK (A, TWO)) (SUIT (HEARTS)))))
 (stage player (end (>= (game sto TURNS) 2))
  (choice ((do (((== (game sto TURNS) 1) (inc (game sto LATE) 1))))
           (any (game iloc STOCK) 'C
                (do (((== (game sto TURNS) 1) (move 'C (top (game vloc PILE))))
                     (inc (game sto TURNS) 1))))
           (do ((inc (game sto TURNS) 1) ((== (game sto TURNS) 5) (inc (game sto NEVER) 1)))))))
 (scoring max 0))"""
    game = loads(text, "Guards")
    state = game.new(None, None, 0)
    # Turn 0: the first option would do nothing; the second still counts the turn.
    assert game.legal_moves(state, 0) == [{"choice": [1, "AH"]}, {"choice": [1, "2H"]}, {"choice": [2]}]
    game.apply(state, 0, {"choice": [2]})
    moves = game.legal_moves(state, 1)
    assert moves == [{"choice": [0]}, {"choice": [1, "AH"]}, {"choice": [1, "2H"]}, {"choice": [2]}]
    game.apply(state, 1, {"choice": [1, "2H"]})
    assert game.is_over(state) and [game.program.names[c] for c in state.locs[(GAME, "vloc", "PILE")]] == [
        "2H"
    ]


# A suit chosen, then one card of that suit from a collection a `let` binds (as CardStock's Lost
# Cities chooses a colour, then a card of it).
LET_IN_CHOICE = f"""(game
 (setup (create players 2) {DECK_04})
 (do ((repeat 3 (move (top (game iloc STOCK)) (top ((current player) iloc HAND))))))
 (stage player (end (== (size (game vloc PILE)) 2))
  (choice ((any (HEARTS, SPADES) 'S
                (let (filter ((current player) iloc HAND) 'C (== (cardatt SUIT 'C) 'S)) 'MINE
                  ((> (size 'MINE) 0)
                   (any 'MINE 'M (move 'M (top (game vloc PILE))))))))))
 (scoring max (size ((current player) iloc HAND))))"""


def test_an_any_inside_a_let_inside_a_choice_offers_each_item() -> None:
    game = loads(LET_IN_CHOICE, "Let")
    state = game.new(None, None, 0)
    # The hand holds 3S, 3H, 2S: one move per card, each led by its suit (not one per suit
    # playing every card of it).
    assert sorted(map(str, game.legal_moves(state, 0))) == sorted(
        map(
            str,
            [
                {"choice": [0, "HEARTS", "3H"]},
                {"choice": [0, "SPADES", "3S"]},
                {"choice": [0, "SPADES", "2S"]},
            ],
        )
    )
    game.apply(state, 0, {"choice": [0, "SPADES", "2S"]})
    view = game.view(state, 0)
    assert [place["cards"] for place in view["locations"] if place["name"] == "PILE"] == [["2S"]]
    assert sorted(view["hand"]) == ["3H", "3S"]
