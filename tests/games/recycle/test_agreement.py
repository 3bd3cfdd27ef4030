"""The project's RECYCLE descriptions play exactly as the hand-written games (preset ``cardstock``).

Each test deals a game with the hand-written module, lays the same cards out in
the RECYCLE game (hands, stock, pool; again at every new deal), then plays both
move by move with one random sequence, checking at every step that the same seat
is to act with the same legal moves, and at the end that the results agree.
RECYCLE seats count from the first player of the first deal, so RECYCLE seat
``p`` is the hand-written seat ``first + p``.
"""

from __future__ import annotations

import random
from collections import Counter

import pytest

from games import GAMES
from games.engine import Game
from games.recycle import RecycleGame, library, load
from games.recycle.playing.state import GAME

PLAYERS = 4
_LOADED: dict[str, RecycleGame] = {}


def recycle_game(stem: str) -> RecycleGame:
    """Return the library's description ``stem``, compiled once."""
    if stem not in _LOADED:
        _LOADED[stem] = load(library()[stem])
    return _LOADED[stem]


def lay_out(rcy: RecycleGame, state, deal: dict, first: int, with_pool: bool) -> None:
    """Put the hand-written deal's cards where the RECYCLE game dealt its own."""
    number = {name: i for i, name in enumerate(rcy.program.names)}
    places = [(p, "iloc", "HAND") for p in range(PLAYERS)] + [(GAME, "iloc", "STOCK")]
    if with_pool:
        places.append((GAME, "vloc", "POOL"))
    before = Counter(c for key in places for c in state.locs.get(key, ()))
    for p in range(PLAYERS):
        state.locs[(p, "iloc", "HAND")] = [number[c] for c in deal["hands"][(first + p) % PLAYERS]]
    state.locs[(GAME, "iloc", "STOCK")] = [number[c] for c in reversed(deal["stock"])]  # top last
    if with_pool:
        state.locs[(GAME, "vloc", "POOL")] = [number[c] for c in deal["pool"]]
    after = Counter(c for key in places for c in state.locs.get(key, ()))
    assert before == after, "the RECYCLE game dealt other cards than the hand-written one"
    state.cache = None


def play_both(hand: Game, rcy: RecycleGame, seed: int) -> int:
    """Play one game in both from the same deals; return the number of moves made."""
    hs = hand.new(PLAYERS, {"preset": "cardstock"}, seed)
    rs = rcy.new(PLAYERS, None, seed)
    (first,) = hand.to_act(hs)
    lay_out(rcy, rs, hand.deal_event(hs)["deal"], first, with_pool=True)
    rng = random.Random(seed)
    moves = 0
    while not hand.is_over(hs):
        assert not rcy.is_over(rs), f"move {moves}: the RECYCLE game ended first"
        (seat,) = hand.to_act(hs)
        (rseat,) = rcy.to_act(rs)
        assert (first + rseat) % PLAYERS == seat, f"move {moves}: seat {seat} against {rseat}"
        legal = hand.legal_moves(hs, seat)
        assert rcy.legal_moves(rs, rseat) == legal, f"move {moves}"
        move = legal[int(rng.random() * len(legal))]
        events = hand.apply(hs, seat, move)
        rcy.apply(rs, rseat, move)
        moves += 1
        for event in events:
            if "deal" in event:
                lay_out(rcy, rs, event["deal"], first, with_pool=False)
    assert rcy.is_over(rs), "the hand-written game ended first"
    mine, theirs = hand.result(hs), rcy.result(rs)
    assert [theirs["scores"][(seat - first) % PLAYERS] for seat in range(PLAYERS)] == mine["scores"]
    assert sorted((first + p) % PLAYERS for p in theirs["winners"]) == mine["winners"]
    return moves


@pytest.mark.parametrize(
    ("game_id", "seeds"),
    [("agram", 40), ("ninety_eight", 40), ("stealing_bundles", 25), ("hearts", 3)],
)
def test_recycle_description_agrees_with_the_module(game_id: str, seeds: int) -> None:
    hand, rcy = GAMES[game_id], recycle_game(game_id)
    total = sum(play_both(hand, rcy, seed) for seed in range(seeds))
    assert total > seeds  # games were played, not skipped


def test_a_difference_is_caught() -> None:
    """The comparison itself can fail: a description that lets the leader lead hearts differs."""
    text = library()["hearts"].read_text(encoding="utf-8")
    loose = text.replace(
        "(!= (cardatt SUIT 'NH) HEARTS))\n            'C", "(!= (cardatt SUIT 'NH) NOSUCH))\n            'C"
    )
    assert loose != text
    rcy = RecycleGame(loose, "Loose Hearts")
    with pytest.raises(AssertionError):
        for seed in range(3):
            play_both(GAMES["hearts"], rcy, seed)
