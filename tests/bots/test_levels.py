"""Every level of bot plays a legal move in every game, and never reads hidden cards."""

from __future__ import annotations

from dataclasses import replace

import pytest

from games import GAMES
from games.bots import LEVELS, make_bot
from games.bots import levels as bot_levels
from games.bots.search import SearchBot
from games.engine import GameError
from tests.bots.helpers import other_deal, random_states

GAME_IDS = sorted(GAMES)


def small_bot(level: str, game, seed: int):
    """A bot of ``level`` with a small budget, so the tests stay quick."""
    if level in ("normal", "hard"):
        return bot_levels.make(level, game, seed, playouts=12, max_seconds=30.0)
    return make_bot(level, game, seed)


@pytest.mark.parametrize("game_id", GAME_IDS)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_a_legal_move(game_id: str, level: str) -> None:
    game = GAMES[game_id]
    for i, (state, seat) in enumerate(random_states(game, 25, seed=7)):
        move = small_bot(level, game, i).choose(state, seat)
        assert move in game.legal_moves(state, seat)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_default_budgets_play_legal_moves(game_id: str) -> None:
    game = GAMES[game_id]
    for level in ("normal", "hard"):
        bot = make_bot(level, game, 3)
        for state, seat in random_states(game, 2, seed=11):
            assert bot.choose(state, seat) in game.legal_moves(state, seat)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_bots_play_whole_games(game_id: str) -> None:
    game = GAMES[game_id]
    state = game.new(None, None, 5)
    bots = [small_bot(("easy", "normal", "random", "hard")[s % 4], game, s) for s in range(state.players)]
    moves = 0
    while not game.is_over(state) and moves < 3000:
        seat = game.to_act(state)[0]
        game.apply(state, seat, bots[seat].choose(state, seat))  # apply checks legality
        moves += 1
    assert game.is_over(state)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_easy_ignores_hidden_cards(game_id: str) -> None:
    game = GAMES[game_id]
    for i, (state, seat) in enumerate(random_states(game, 40, seed=19)):
        twin = other_deal(game, state, seat, seed=i)
        assert make_bot("easy", game, 1).choose(state, seat) == make_bot("easy", game, 1).choose(twin, seat)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_search_ignores_hidden_cards(game_id: str) -> None:
    game = GAMES[game_id]
    for i, (state, seat) in enumerate(random_states(game, 10, seed=23)):
        twin = other_deal(game, state, seat, seed=100 + i)
        first = small_bot("hard", game, 9).choose(state, seat)
        second = small_bot("hard", game, 9).choose(twin, seat)
        assert first == second


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_search_is_deterministic_for_a_seed(game_id: str) -> None:
    game = GAMES[game_id]
    for state, seat in random_states(game, 5, seed=29):
        moves = {repr(small_bot("normal", game, 4).choose(state, seat)) for _ in range(2)}
        assert len(moves) == 1


def test_playout_budget_is_honoured() -> None:
    game = GAMES["agram"]
    checked = 0
    for state, seat in random_states(game, 10, seed=31):
        width = len(game.legal_moves(state, seat))
        bot = bot_levels.make("hard", game, 1, playouts=7, max_seconds=60.0)
        bot.choose(state, seat)
        # PIMC plays every move in each sampled deal: whole deals within the budget.
        assert bot.stats.playouts == (max(1, 7 // width) * width if width > 1 else 0)
        tree = SearchBot(game, replace(bot.config, mode="ismcts"), 1)
        tree.choose(state, seat)
        assert tree.stats.playouts == (7 if width > 1 else 0)
        checked += width > 1
    assert checked >= 3


def test_time_cap_stops_the_search_after_one_sampled_deal() -> None:
    game = GAMES["agram"]
    state = game.new(4, None, 2)
    seat = game.to_act(state)[0]
    width = len(game.legal_moves(state, seat))
    bot = bot_levels.make("hard", game, 1, playouts=10**6, max_seconds=0.0)
    assert bot.choose(state, seat) in game.legal_moves(state, seat)
    assert bot.stats.playouts == width
    tree = SearchBot(game, replace(bot.config, mode="ismcts"), 1)
    assert tree.choose(state, seat) in game.legal_moves(state, seat)
    assert tree.stats.playouts == 1


def test_levels_are_search_bots_with_growing_budgets() -> None:
    for game in GAMES.values():
        normal, hard = make_bot("normal", game, 0), make_bot("hard", game, 0)
        assert isinstance(normal, SearchBot) and isinstance(hard, SearchBot)
        assert normal.config.playouts < hard.config.playouts
        assert normal.config.max_seconds <= 0.25 and hard.config.max_seconds <= 1.0


def test_unknown_level_is_refused() -> None:
    with pytest.raises(GameError, match="no bot level"):
        make_bot("expert", GAMES["agram"], 0)


@pytest.mark.parametrize("game_id", GAME_IDS)
def test_sampled_deals_look_the_same_from_the_seat(game_id: str) -> None:
    """What the search samples agrees with everything the seat sees: its view is unchanged."""
    game = GAMES[game_id]
    changed = 0
    for i, (state, seat) in enumerate(random_states(game, 40, seed=37)):
        world = other_deal(game, state, seat, seed=i)
        assert game.view(world, seat) == game.view(state, seat)
        assert game.legal_moves(world, seat) == game.legal_moves(state, seat)
        changed += game.to_json(world) != game.to_json(state)
    assert changed >= 20  # the hidden cards really were dealt again
