"""A bot that raises must not stall its table: the driver falls back to a random legal move."""

from __future__ import annotations

from cardtable.tables import bots
from games import get_game


class BrokenBot:
    """A bot whose search blows up."""

    def choose(self, state: object, seat: int) -> dict:
        raise RuntimeError("search exploded")


def test_failing_bot_plays_a_legal_random_move(monkeypatch):
    game = get_game("hearts")
    state = game.new(4, None, 7)
    seat = game.to_act(state)[0]
    monkeypatch.setattr(bots, "make_bot", lambda level, game, seed: BrokenBot())

    move = bots.choose("hearts", game.to_json(state), seat, "hard", 11)

    assert move in game.legal_moves(state, seat)


def test_working_bot_is_used(monkeypatch):
    game = get_game("agram")
    state = game.new(4, None, 3)
    seat = game.to_act(state)[0]
    chosen = game.legal_moves(state, seat)[-1]

    class LastMoveBot:
        def choose(self, state: object, seat: int) -> dict:
            return chosen

    monkeypatch.setattr(bots, "make_bot", lambda level, game, seed: LastMoveBot())

    assert bots.choose("agram", game.to_json(state), seat, "easy", 1) == chosen
