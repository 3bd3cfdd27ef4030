"""What each seat may see of a move of the current deal (``Game.move_seen_by``): the move log's filter."""

from __future__ import annotations

import random

from games import GAMES


def play_until(game, state, done, rng: random.Random, limit: int = 500):
    """Make random legal moves until ``done(state)``; return the moves made, as (seat, move)."""
    made = []
    for _ in range(limit):
        if done(state):
            return made
        seat = game.to_act(state)[0]
        move = rng.choice(game.legal_moves(state, seat))
        game.apply(state, seat, move)
        made.append((seat, move))
    raise AssertionError("never reached")


def test_a_hearts_pass_is_seen_by_the_passer_then_by_the_receiver_only():
    game = GAMES["hearts"]
    state = game.new(4, {"passing": "rotate"}, seed=3)
    rng = random.Random(1)
    made = play_until(game, state, lambda s: len(game.view(s, 0)["passed_seats"]) == 1, rng)
    mover, move = made[-1]
    cards = move["pass"]
    receiver = (mover + state.direction) % 4
    # While the others still choose, only the passer sees the cards.
    for viewer in [*range(4), None]:
        seen = game.move_seen_by(state, mover, move, viewer)
        assert seen == (move if viewer == mover else {"pass": 3}), viewer
    play_until(game, state, lambda s: game.view(s, 0)["phase"] == "play", rng)
    # Once the pass is over, the receiver holds them and sees which they were.
    for viewer in [*range(4), None]:
        seen = game.move_seen_by(state, mover, move, viewer)
        assert seen == (move if viewer in (mover, receiver) else {"pass": 3}), viewer
    assert game.move_seen_by(state, 0, {"play": cards[0]}, 2) == {"play": cards[0]}


def test_a_cribbage_discard_is_seen_by_its_owner_only():
    game = GAMES["cribbage"]
    state = game.new(2, {}, seed=5)
    move = game.legal_moves(state, 0)[0]
    assert game.move_seen_by(state, 0, move, 0) == move
    assert game.move_seen_by(state, 0, move, 1) == {"discard": len(move["discard"])}
    assert game.move_seen_by(state, 0, move, None) == {"discard": len(move["discard"])}


def test_plays_in_the_open_games_are_seen_by_everyone():
    for game_id in ("agram", "ninety_eight", "stealing_bundles"):
        game = GAMES[game_id]
        state = game.new(None, {}, seed=2)
        seat = game.to_act(state)[0]
        move = game.legal_moves(state, seat)[0]
        assert game.move_seen_by(state, seat, move, (seat + 1) % state.players) == move
