"""What a RECYCLE game's view gives the table: places with owner, show and words; teams;
tricks, deals and their history read from the moves; nothing a seat may not see."""

from __future__ import annotations

import random
from typing import Any

import pytest

from games.recycle import RecycleGame, library, load, loads

WHIST = load(library()["whist"])
EIGHTS = load(library()["crazy_eights"])
FISH = load(library()["go_fish"])

# Each turn the current player lays a card face down on the game's pile.
FACE_DOWN = """(game
 (setup (create players 2)
        (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE)) (SUIT (HEARTS, SPADES)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 3 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player (end (== (size (game hloc PILE)) 6))
  (choice ((any ((current player) iloc HAND) 'C (move 'C (top (game hloc PILE)))))))
 (scoring max (size ((current player) iloc HAND))))"""


def play(game: RecycleGame, seed: int, moves: int | None = None) -> Any:
    """Play random moves through ``apply`` (the table's path); all of them, or ``moves``."""
    state = game.new(None, None, seed)
    rng = random.Random(seed)
    made = 0
    while not game.is_over(state) and (moves is None or made < moves):
        (seat,) = game.to_act(state)
        game.apply(state, seat, game.random_move(state, seat, rng))
        made += 1
    return state


def test_each_place_says_its_owner_how_it_shows_and_its_name_in_words() -> None:
    state = play(WHIST, 3, 9)
    view = WHIST.view(state, 0)
    places = {(p["owner"], p["name"]): p for p in view["locations"]}
    assert places[("0", "HAND")]["show"] == "visible" and "cards" in places[("0", "HAND")]
    assert places[("1", "HAND")]["show"] == "hidden" and "cards" not in places[("1", "HAND")]
    assert places[("1", "HAND")]["count"] == len(state.locs[(1, "iloc", "HAND")])
    assert places[("team0", "TRICKSWON")]["label"] == "Tricks won"
    assert places[("team0", "TRICKSWON")]["show"] == "visible"
    assert view["teams"] == [[0, 2], [1, 3]]
    assert {"name": "TRICKS", "label": "Tricks"}.items() <= view["storage"][-1].items()
    # Without partners there are no teams to show.
    assert EIGHTS.view(EIGHTS.new(None, None, 1), 0)["teams"] == []


@pytest.mark.parametrize("game", [WHIST, EIGHTS, FISH], ids=["whist", "crazy_eights", "go_fish"])
def test_a_seat_view_is_the_same_whatever_the_cards_it_cannot_see(game: RecycleGame) -> None:
    rng = random.Random(7)
    for seed in range(6):
        state = play(game, seed, rng.randrange(1, 40))
        if game.is_over(state):
            continue
        for seat in range(state.players):
            twin = game.determinize(state, seat, random.Random(seed))
            assert game.view(twin, seat) == game.view(state, seat)


@pytest.mark.parametrize("game", [WHIST, EIGHTS, FISH], ids=["whist", "crazy_eights", "go_fish"])
def test_a_sample_of_the_unseen_cards_depends_on_the_view_and_the_seed_alone(game: RecycleGame) -> None:
    for seed in range(5):
        state = play(game, seed, 5 + seed)
        (seat,) = game.to_act(state)
        # A twin: the same view for ``seat``, the cards it cannot see dealt otherwise.
        twin = game.determinize(state, seat, random.Random(seed + 100))
        assert game.view(twin, seat) == game.view(state, seat)
        first = game.to_json(game.determinize(state, seat, random.Random(5)))
        second = game.to_json(game.determinize(twin, seat, random.Random(5)))
        assert first == second


def test_a_card_laid_face_down_is_named_to_its_mover_alone() -> None:
    game = loads(FACE_DOWN, "Face down")
    state = game.new(None, None, 4)
    move = game.legal_moves(state, 0)[0]
    game.apply(state, 0, move)
    assert game.view(state, 0)["last"] == {"seat": 0, "move": move}
    assert game.view(state, 1)["last"] == {"seat": 0, "move": {}}
    assert game.view(state, None)["last"] == {"seat": 0, "move": {}}
    assert game.move_seen_by(state, 0, move, 1) == {} and game.move_seen_by(state, 0, move, 0) == move
    # A card played face up (Whist's trick) is named to everyone.
    whist = WHIST.new(None, None, 2)
    (seat,) = WHIST.to_act(whist)
    card = WHIST.legal_moves(whist, seat)[0]
    WHIST.apply(whist, seat, card)
    assert WHIST.view(whist, (seat + 1) % 4)["last"] == {"seat": seat, "move": card}
    assert WHIST.move_seen_by(whist, seat, card, None) == card  # the move log names it too


def test_whist_tricks_deals_and_history_are_read_from_the_moves() -> None:
    state = WHIST.new(None, None, 11)
    rng = random.Random(11)
    tricks_seen = 0
    while not WHIST.is_over(state):
        (seat,) = WHIST.to_act(state)
        before = WHIST.view(state, None)
        WHIST.apply(state, seat, WHIST.random_move(state, seat, rng))
        view = WHIST.view(state, None)
        if view["last_trick"] != before["last_trick"]:
            tricks_seen += 1
            trick = view["last_trick"]
            assert sorted(c["seat"] for c in trick["cards"]) == [0, 1, 2, 3]
            assert trick["winner"] is None or trick["taker"] == f"team{trick['winner'] % 2}"
    view = WHIST.view(state, None)
    deals = view["deal_number"]
    assert deals > 1 and tricks_seen >= 13 * (deals - 1)
    assert [row["deal"] for row in view["history"]] == list(range(1, deals + 1))
    assert view["history"][-1]["scores"] == view["scores"]
    assert sum(row["points"][0] for row in view["history"]) == view["scores"][0]


def test_a_shedding_game_has_no_tricks_and_names_its_draw_and_pass() -> None:
    state = EIGHTS.new(None, None, 1)
    rng = random.Random(1)
    words = set()
    while not EIGHTS.is_over(state):
        (seat,) = EIGHTS.to_act(state)
        view = EIGHTS.view(state, seat)
        assert view["last_trick"] is None and "tricks_played" not in view
        # The branches without items are named by their words alone (items label the others).
        words.update(
            w for w, kinds in zip(view["choice_words"], view["choice_items"], strict=True) if w and not kinds
        )
        EIGHTS.apply(state, seat, EIGHTS.random_move(state, seat, rng))
    assert words <= {"Draw from stock", "Pass"} and "Draw from stock" in words
    assert len(EIGHTS.view(state, 0)["history"]) == 1


def test_the_record_is_kept_by_apply_and_never_changed_under_a_clone() -> None:
    state = play(WHIST, 5, 8)
    copy = WHIST.clone(state)
    record = WHIST.to_json(state)["shown"]
    for _ in range(8):
        (seat,) = WHIST.to_act(copy)
        WHIST.apply(copy, seat, WHIST.legal_moves(copy, seat)[0])
    assert WHIST.to_json(state)["shown"] == record
    assert WHIST.to_json(copy)["shown"] != record
    # A saved state without the record (stored before it existed) reads as a fresh deal.
    data = WHIST.to_json(state)
    del data["shown"]
    assert WHIST.view(WHIST.from_json(data), 0)["deal_number"] == 1


def test_cards_are_found_by_name_in_decks_made_during_play() -> None:
    program = load(library()["whist"]).program
    assert program.cards_named("QS") == [program.names.index("QS")]
    program.names.append("QS")  # as a deck made by a stage adds its cards' names
    assert program.cards_named("QS") == [program.names.index("QS"), 52]
    assert program.cards_named("nothing") == []
