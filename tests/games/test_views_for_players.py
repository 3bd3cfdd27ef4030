"""View fields a player's page draws from: history per deal, moves' effects, the count, the pass."""

from __future__ import annotations

import itertools
import random

import pytest

from games import GAMES, get_game


def play_until(game_id: str, done, players: int | None = None, options: dict | None = None, seed: int = 3):
    """Play random legal moves until ``done(state)``; return the game and state."""
    game = get_game(game_id)
    state = game.new(players, options or {}, seed=seed)
    rng = random.Random(seed)
    for _ in range(20_000):
        if done(game, state):
            return game, state
        seat = game.to_act(state)[0]
        game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
    raise AssertionError("never reached")


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_the_history_has_a_row_per_finished_deal_ending_at_the_scores(game_id: str) -> None:
    game, state = play_until(game_id, lambda g, s: g.is_over(s))
    view = game.view(state, 0)
    history = view["history"]
    assert history, "a finished game has at least one deal in its history"
    assert [r["deal"] for r in history] == list(range(1, len(history) + 1))
    assert history[-1]["scores"] == view["scores"]
    for before, after in itertools.pairwise(history):
        assert [b + p for b, p in zip(before["scores"], after["points"], strict=True)] == after["scores"]
    # Spectators and every seat see the same history (nothing in it is private).
    assert all(game.view(state, s)["history"] == history for s in [None, *range(state.players)])


def test_ninety_eight_gives_each_card_its_effect_to_the_seat_to_act_only() -> None:
    game, state = play_until("ninety_eight", lambda g, s: s.total > 85, players=2, seed=5)
    seat = game.to_act(state)[0]
    view = game.view(state, seat)
    assert {e["card"] for e in view["effects"]} == set(view["hand"])
    for effect in view["effects"]:
        after = game.clone(state)
        game.apply(after, seat, {"play": effect["card"]})
        lost = after.deal_loser == seat or after.lives[seat] < state.lives[seat] or after.over
        assert effect["loses"] == (effect["total"] > view["limit"])
        if effect["loses"]:
            assert lost
        elif not after.over and after.deal_number == state.deal_number:
            assert after.total == effect["total"]
    assert game.view(state, 1 - seat)["effects"] == []
    assert game.view(state, None)["effects"] == []


def test_cribbage_keeps_the_finished_count_and_scores_each_card() -> None:
    game, state = play_until("cribbage", lambda g, s: s.last_count is not None and not s.pile, players=2)
    view = game.view(state, 0)
    last = view["last_count"]
    assert view["count_cards"] == [] and last["cards"]
    counts = [c["count"] for c in last["cards"]]
    assert counts == sorted(counts) and counts[-1] <= 31
    assert last["go"] is not None or counts[-1] == 31
    # A card that made 15 or 31 says so beside it.
    for card in last["cards"]:
        kinds = {p["kind"] for p in card["pegged"]}
        assert ("fifteen" in kinds) == (card["count"] == 15)
        assert ("thirty-one" in kinds) == (card["count"] == 31)


def test_hearts_says_who_passed_you_your_cards() -> None:
    game, state = play_until("hearts", lambda g, s: s.phase == "play" and s.direction == 1, players=4)
    for seat in range(4):
        view = game.view(state, seat)
        assert view["received_from"] == (seat - 1) % 4
        assert set(view["received"]) <= set(view["hand"]) or view["tricks_played"] > 0
    assert "received_from" not in game.view(state, None)


def test_cribbage_pegs_front_at_the_score_back_where_the_front_was_before_its_last_move() -> None:
    game = get_game("cribbage")
    state = game.new(2, {"target": 61}, seed=8)
    rng = random.Random(8)
    checked = 0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        scores, phase = list(state.scores), state.phase
        game.apply(state, seat, rng.choice(game.legal_moves(state, seat)))
        pegs = game.view(state, 0)["pegs"]
        assert [front for _, front in pegs] == state.scores[:2]
        assert all(back < front or back == front == 0 for back, front in pegs)
        # A move of the play pegs once per side, however many items it scores (the
        # show pegs the hand and the crib apart).
        if phase == state.phase == "play":
            for side in range(2):
                if state.scores[side] != scores[side]:
                    assert pegs[side] == [scores[side], state.scores[side]]
                    checked += 1
    assert checked > 5
