"""A bot that raises must not stall its table: the driver falls back to a random legal move."""

from __future__ import annotations

from cardtable.tables.autoplay import thinking, turns
from games import get_game


class BrokenBot:
    """A bot whose search blows up."""

    def choose(self, state: object, seat: int) -> dict:
        raise RuntimeError("search exploded")


def test_failing_bot_plays_a_legal_random_move(monkeypatch):
    game = get_game("hearts")
    state = game.new(4, None, 7)
    seat = game.to_act(state)[0]
    monkeypatch.setattr(thinking, "make_bot", lambda level, game, seed, **budget: BrokenBot())

    move = turns.choose("hearts", game.to_json(state), seat, "hard", 11)

    assert move in game.legal_moves(state, seat)


def test_working_bot_is_used(monkeypatch):
    game = get_game("agram")
    state = game.new(4, None, 3)
    seat = game.to_act(state)[0]
    chosen = game.legal_moves(state, seat)[-1]

    class LastMoveBot:
        def choose(self, state: object, seat: int) -> dict:
            return chosen

    monkeypatch.setattr(thinking, "make_bot", lambda level, game, seed, **budget: LastMoveBot())

    assert turns.choose("agram", game.to_json(state), seat, "easy", 1) == chosen


def test_search_bots_take_the_sites_think_budget(settings, monkeypatch):
    """BOT_*_SECONDS cap a search move and BOT_PLAYOUT_SCALE scales its playouts."""
    from games.bots import levels, make_bot

    game = get_game("hearts")
    settings.BOT_THINK_SECONDS = {"normal": 0.05, "hard": 0.4}
    settings.BOT_PLAYOUT_SCALE = 0.5
    made = {}

    def recording_make_bot(level, game, seed, **budget):
        made[level] = make_bot(level, game, seed, **budget)
        return made[level]

    monkeypatch.setattr(thinking, "make_bot", recording_make_bot)
    state = game.new(4, {"passing": "none"}, 5)
    seat = game.to_act(state)[0]
    for level in ("normal", "hard", "easy"):
        assert turns.choose("hearts", game.to_json(state), seat, level, 1) in game.legal_moves(state, seat)

    normal, hard = made["normal"].config, made["hard"].config
    assert (normal.max_seconds, hard.max_seconds) == (0.05, 0.4)
    budgets = levels.SETTINGS["hearts"].budgets
    assert normal.playouts == round(budgets["normal"][0] * 0.5)
    assert hard.playouts == round(budgets["hard"][0] * 0.5)
    assert isinstance(made["easy"], levels.EasyBot)
