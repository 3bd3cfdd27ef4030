"""CardStock's own codings (the posts in ../shared/seeds/) parse and play to the end."""

from __future__ import annotations

import pytest

from games.recycle import load
from games.recycle.playing.state import GAME
from tests.games.recycle.helpers import play_random, seed_post

GAMES_PLAYED = 12


def test_agram_seed_plays_one_deal() -> None:
    game = load(seed_post("agram"))
    assert game.info.max_players == 4 and game.warnings == []
    assert (game.info.id, game.info.name) == ("recycle_agram", "Agram")
    for seed in range(GAMES_PLAYED):
        state, moves = play_random(game, seed)
        result = game.result(state)
        assert moves == 24  # six tricks of four cards
        assert sorted(result["scores"]) == [0, 0, 0, 1] and len(result["winners"]) == 1


def test_ninety_eight_seed_ends_when_someone_goes_over() -> None:
    game = load(seed_post("ninety_eight"))
    for seed in range(GAMES_PLAYED):
        state, _ = play_random(game, seed)
        assert state.sto[(GAME, "POINTS")] > 98
        assert sorted(game.result(state)["scores"]) == [-1, 0, 0, 0]


def test_stealing_bundles_seed_plays_every_card() -> None:
    game = load(seed_post("stealing_bundles"))
    for seed in range(GAMES_PLAYED):
        state, moves = play_random(game, seed)
        assert moves == 48  # four deals of four cards to four players
        pool = len(state.locs.get((GAME, "vloc", "POOL"), []))
        assert sum(game.result(state)["scores"]) + pool == 52


def test_hearts_seed_plays_one_deal_and_flags_its_unbound_variable() -> None:
    game = load(seed_post("hearts"))
    # The listing tests (cardatt SUIT 'H) inside a filter over 'PH: 'H is bound nowhere.
    assert len(game.warnings) == 1 and "'H is not bound" in game.warnings[0]
    assert game.warnings[0].startswith("line 113, column 40")
    for seed in range(GAMES_PLAYED):
        state, moves = play_random(game, seed)
        scores = game.result(state)["scores"]
        assert moves == 52
        assert sum(scores) == 26 or sorted(scores) == [-26, 0, 0, 0]


@pytest.mark.parametrize("game", ["agram", "ninety_eight", "stealing_bundles", "hearts"])
def test_same_seed_same_game(game: str) -> None:
    rcy = load(seed_post(game))
    first, _ = play_random(rcy, 7)
    again, _ = play_random(rcy, 7)
    assert rcy.to_json(first) == rcy.to_json(again)
