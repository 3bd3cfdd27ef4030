"""A game's fast playout policy makes the easy player's very moves (the search's anchor is the easy move)."""

from __future__ import annotations

import random
from dataclasses import replace

import pytest

from games import GAMES
from games.bots.levels import SETTINGS, search_config
from games.bots.search import SearchBot
from tests.bots.helpers import random_states

FAST = sorted(game_id for game_id, settings in SETTINGS.items() if settings.playout is not None)


def test_ninety_eight_and_stealing_bundles_have_a_fast_playout() -> None:
    assert {"ninety_eight", "stealing_bundles"} <= set(FAST)


@pytest.mark.parametrize("game_id", FAST)
def test_the_playout_policy_plays_the_easy_move(game_id: str) -> None:
    game, settings = GAMES[game_id], SETTINGS[game_id]
    chosen = set()
    for state, seat in random_states(game, 150, seed=23):
        fast = settings.playout(game, state, seat, random.Random(1))
        assert fast == settings.easy(game, state, seat, random.Random(1))
        chosen.add(fast["play"] if "play" in fast else str(fast))
    assert len(chosen) > 20  # many different positions and answers, not one


@pytest.mark.parametrize("game_id", FAST)
def test_the_search_plays_out_with_the_fast_policy(game_id: str) -> None:
    game = GAMES[game_id]
    assert search_config(game, "normal").policy is SETTINGS[game_id].playout


@pytest.mark.parametrize("game_id", FAST)
def test_the_fast_playout_leaves_the_search_move_unchanged(game_id: str) -> None:
    game, settings = GAMES[game_id], SETTINGS[game_id]
    fast = replace(search_config(game, "normal", playouts=24, max_seconds=60.0), policy=settings.playout)
    slow = replace(fast, policy=settings.easy)
    for i, (state, seat) in enumerate(random_states(game, 6, seed=31)):
        assert SearchBot(game, fast, i).choose(state, seat) == SearchBot(game, slow, i).choose(state, seat)
