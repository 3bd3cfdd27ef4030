"""A RECYCLE game keeps the game contract: views, moves, JSON, clones, determinization."""

from __future__ import annotations

import json
import random
from collections import Counter

import pytest

from games.engine import IllegalMoveError, NotYourTurnError
from games.recycle import library, load, loads
from games.recycle.playing.state import GAME
from tests.games.recycle.helpers import SEED_POSTS, seed_post

AGRAM = load(library()["agram"])

GIVE_OR_PASS = """
(game
 (setup (create players 3)
        (create deck (game iloc STOCK) (deck (RANK (A, TWO, THREE)) (SUIT (HEARTS, SPADES)))))
 (do ((shuffle (game iloc STOCK))
      (all player 'P (repeat 2 (move (top (game iloc STOCK)) (top ('P iloc HAND)))))))
 (stage player
  (end (> (game sto TURNS) 5))
  (choice
   ((any ((current player) iloc HAND) 'C
         (any (other player) 'P (move 'C (top ('P iloc HAND)))))
    (do ((turn pass)))))
  (do ((inc (game sto TURNS) 1))))
 (scoring max (size ((current player) iloc HAND))))
"""


def test_view_shows_only_what_the_seat_may_see() -> None:
    state = AGRAM.new(None, None, 3)
    (seat,) = AGRAM.to_act(state)
    AGRAM.apply(state, seat, AGRAM.legal_moves(state, seat)[0])
    for viewer in (0, 1, None):
        view = AGRAM.view(state, viewer)
        for place in view["locations"]:
            shown = "cards" in place
            if place["kind"] in ("vloc", "mem"):
                assert shown
            elif place["kind"] == "iloc":
                assert shown == (viewer is not None and place["owner"] == str(viewer))
        if viewer is not None:
            assert view["hand"] == sorted_names(state.locs[(viewer, "iloc", "HAND")])
    spectator = json.dumps(AGRAM.view(state, None))
    for p in range(4):
        for card in state.locs[(p, "iloc", "HAND")]:
            assert f'"{AGRAM.program.names[card]}"' not in spectator


def sorted_names(cards: list[int]) -> list[str]:
    from games.cards import CARD_INDEX

    return sorted((AGRAM.program.names[c] for c in cards), key=CARD_INDEX.__getitem__)


def test_json_round_trip_plays_on_identically() -> None:
    state = AGRAM.new(None, None, 11)
    rng = random.Random(1)
    for _ in range(9):
        (seat,) = AGRAM.to_act(state)
        AGRAM.apply(state, seat, AGRAM.random_move(state, seat, rng))
    copy = AGRAM.from_json(json.loads(json.dumps(AGRAM.to_json(state))))
    assert AGRAM.to_json(copy) == AGRAM.to_json(state)
    while not AGRAM.is_over(state):
        (seat,) = AGRAM.to_act(state)
        assert AGRAM.legal_moves(copy, seat) == AGRAM.legal_moves(state, seat)
        move = AGRAM.random_move(state, seat, rng)
        AGRAM.apply(state, seat, move)
        AGRAM.apply(copy, seat, move)
    assert AGRAM.result(copy) == AGRAM.result(state)


def test_clone_is_independent_and_bad_moves_change_nothing() -> None:
    state = AGRAM.new(None, None, 5)
    before = AGRAM.to_json(state)
    (seat,) = AGRAM.to_act(state)
    clone = AGRAM.clone(state)
    AGRAM.apply(clone, seat, AGRAM.legal_moves(clone, seat)[0])
    assert AGRAM.to_json(state) == before
    with pytest.raises(NotYourTurnError):
        AGRAM.apply(state, (seat + 1) % 4, AGRAM.legal_moves(state, seat)[0])
    with pytest.raises(IllegalMoveError):
        AGRAM.apply(state, seat, {"play": "KS"})  # no kings in Agram
    with pytest.raises(IllegalMoveError):
        AGRAM.apply(state, seat, {"choice": [0]})
    assert AGRAM.to_json(state) == before


def test_determinize_deals_again_exactly_what_the_seat_cannot_see() -> None:
    state = AGRAM.new(None, None, 8)
    rng = random.Random(2)
    for _ in range(6):
        (seat,) = AGRAM.to_act(state)
        AGRAM.apply(state, seat, AGRAM.random_move(state, seat, rng))
    (seat,) = AGRAM.to_act(state)
    changed = 0
    for _ in range(20):
        world = AGRAM.determinize(state, seat, rng)
        for key, cards in state.locs.items():
            if key[1] == "vloc" or key[1] == "mem" or key == (seat, "iloc", "HAND"):
                assert world.locs[key] == cards
            else:
                assert len(world.locs[key]) == len(cards)
        hidden = [k for k in state.locs if k[1] == "iloc" and k[0] != seat]
        assert Counter(c for k in hidden for c in world.locs[k]) == Counter(
            c for k in hidden for c in state.locs[k]
        )
        changed += any(world.locs[k] != state.locs[k] for k in hidden)
        assert AGRAM.legal_moves(world, seat) == AGRAM.legal_moves(state, seat)
    assert changed >= 15
    assert (GAME, "iloc", "STOCK") in state.locs


def test_moves_that_are_not_one_card_have_the_general_shape() -> None:
    game = loads(GIVE_OR_PASS, "Give or pass")
    state = game.new(None, None, 1)
    (seat,) = game.to_act(state)
    moves = game.legal_moves(state, seat)
    hand = [game.program.names[c] for c in state.locs[(seat, "iloc", "HAND")]]
    others = [(seat + 1) % 3, (seat + 2) % 3]
    assert moves == [{"choice": [0, card, p]} for card in hand for p in others] + [{"choice": [1]}]
    card = hand[0]
    game.apply(state, seat, {"choice": [0, card, others[1]]})
    assert card in game.view(state, others[1])["hand"]
    rng = random.Random(0)
    while not game.is_over(state):
        (seat,) = game.to_act(state)
        game.apply(state, seat, game.random_move(state, seat, rng))
    assert sum(game.result(state)["scores"]) == 6


LIBRARY = {f"library/{stem}": path for stem, path in library().items()}
DESCRIPTIONS = sorted([*LIBRARY, *(f"seed/{game}" for game in SEED_POSTS)])


@pytest.mark.parametrize("name", DESCRIPTIONS)
def test_every_step_is_plain_json_and_hides_other_hands(name: str) -> None:
    # A seed post is looked up here, not at import: without ../shared/ only its cases skip.
    game = load(LIBRARY[name] if name in LIBRARY else seed_post(name.removeprefix("seed/")))
    names = game.program.names
    for seed in range(2):
        state = game.new(None, None, seed)
        rng = random.Random(seed)
        steps = 0
        while not game.is_over(state) and steps < 120:
            data = json.loads(json.dumps(game.to_json(state)))
            assert game.to_json(game.from_json(data)) == data
            (seat,) = game.to_act(state)
            for viewer in range(state.players):
                view = game.view(state, viewer)
                seen = {c for place in view["locations"] for c in place.get("cards", ())}
                for (owner, kind, _), cards in state.locs.items():
                    if kind in ("iloc", "hloc") and owner != viewer:
                        # Another's hidden card shows only where it is visible too (a remembered copy).
                        visible = {
                            c for key, cs in state.locs.items() if key[1] in ("vloc", "mem") for c in cs
                        }
                        assert {names[c] for c in cards if c not in visible}.isdisjoint(seen)
            game.apply(state, seat, game.random_move(state, seat, rng))
            steps += 1
