"""Games of each family CardStock covers, written here from their rules, played to the end.

Whist (tricks, partners, trumps), Crazy Eights (shedding) and Go Fish (fishing and
matching) are the library's, played at the table; Rummy (drawing and melding) and
Kuhn poker (betting) are the tests' own (``families/``). Each plays to the end with
random players and with a search bot, and the library's three are checked move by
move against their rules, computed here in Python.
"""

from __future__ import annotations

import random
from pathlib import Path

import pytest

from games.bots import levels
from games.recycle import library, load
from games.recycle.playing.game import RecycleGame
from games.recycle.playing.state import GAME

FAMILIES = Path(__file__).parent / "families"
GAMES = {
    "whist": library()["whist"],
    "crazy_eights": library()["crazy_eights"],
    "go_fish": library()["go_fish"],
    "rummy": FAMILIES / "rummy.rcy",
    "kuhn_poker": FAMILIES / "kuhn_poker.rcy",
}
WHIST_RANKS = "23456789TJQKA"  # aces high


def hand(game: RecycleGame, state: object, seat: int, kind: str = "iloc", name: str = "HAND") -> list[str]:
    return [game.program.names[c] for c in state.locs.get((seat, kind, name), [])]


def held(state: object) -> int:
    return sum(len(cards) for cards in state.locs.values())


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_family_plays_to_the_end_with_random_players(name: str) -> None:
    game = load(GAMES[name])
    assert game.warnings == []
    for seed in range(8):
        state = game.new(None, None, seed)
        cards = held(state)
        rng = random.Random(seed)
        while not game.is_over(state):
            (seat,) = game.to_act(state)
            game.apply(state, seat, game.random_move(state, seat, rng))
            assert held(state) == cards  # no card is made or lost
        result = game.result(state)
        assert "error" not in result and result["winners"]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_each_family_plays_to_the_end_with_a_search_bot(name: str) -> None:
    game = load(GAMES[name])
    bot = levels.make("normal", game, seed=1, playouts=8)
    state = game.new(None, None, 3)
    rng = random.Random(3)
    while not game.is_over(state):
        (seat,) = game.to_act(state)
        move = bot.choose(state, seat) if seat == 0 else game.random_move(state, seat, rng)
        assert move in game.legal_moves(state, seat)
        game.apply(state, seat, move)
    assert "error" not in game.result(state)


def whist_winner(trick: list[tuple[int, str]], trump: str) -> int:
    led = trick[0][1][1]
    best = max(trick, key=lambda p: (p[1][1] == trump[0], p[1][1] == led, WHIST_RANKS.index(p[1][0])))
    return best[0]


def test_whist_follows_suit_takes_tricks_by_trumps_and_scores_over_six() -> None:
    game = load(GAMES["whist"])
    for seed in range(4):
        state = game.new(None, None, seed)
        rng = random.Random(seed)
        trick: list[tuple[int, str]] = []
        dealer, tricks, scores = 0, [0, 0], [0, 0]
        assert game.to_act(state) == [1]  # the player left of the first dealer leads
        while not game.is_over(state):
            (seat,) = game.to_act(state)
            trump = state.strs[(GAME, "TRUMP")]
            cards = hand(game, state, seat)
            follow = [c for c in cards if trick and c[1] == trick[0][1][1]]
            assert sorted(m["play"] for m in game.legal_moves(state, seat)) == sorted(follow or cards)
            move = game.random_move(state, seat, rng)
            game.apply(state, seat, move)
            trick.append((seat, move["play"]))
            if len(trick) < 4:
                continue
            winner = whist_winner(trick, trump)
            tricks[winner % 2] += 1
            trick = []
            if sum(tricks) < 13:
                assert game.to_act(state) == [winner]
                continue
            for side in (0, 1):
                scores[side] += max(tricks[side] - 6, 0)
            assert [state.sto.get((-2 - side, "SCORE"), 0) for side in (0, 1)] == scores
            tricks, dealer = [0, 0], (dealer + 1) % 4
            if not game.is_over(state):
                assert game.to_act(state) == [(dealer + 1) % 4]
        assert max(scores) >= 7 and game.result(state)["winners"] == [
            s for s in range(4) if scores[s % 2] >= 7
        ]


PENALTY = {"8": 50, "K": 10, "Q": 10, "J": 10, "T": 10, "A": 1}


def test_crazy_eights_offers_exactly_the_rules_moves() -> None:
    game = load(GAMES["crazy_eights"])
    for seed in range(6):
        state = game.new(None, None, seed)
        rng = random.Random(seed)
        assert [len(hand(game, state, p)) for p in range(4)] == [5, 5, 5, 5]
        while not game.is_over(state):
            (seat,) = game.to_act(state)
            suit = state.strs[(GAME, "SUIT")][0]
            top = hand(game, state, GAME, "vloc", "DISCARD")[-1]
            cards = hand(game, state, seat)
            playable = [c for c in cards if c[0] != "8" and (c[1] == suit or c[0] == top[0])]
            eights = [c for c in cards if c[0] == "8"]
            stock = len(state.locs.get((GAME, "iloc", "STOCK"), []))
            expected = [[0, c] for c in playable] + [[1, c, s] for c in eights for s in game_suits()]
            if not playable and not eights:
                expected = [[2]] if stock else [[3]]
            # Moves are {"play": CARD} when every option plays one card (docs/recycle.md).
            moves = [m.get("choice") or [0, m["play"]] for m in game.legal_moves(state, seat)]
            assert sorted(moves) == sorted(expected)
            move = game.random_move(state, seat, rng)
            game.apply(state, seat, move)
            if move.get("choice") == [2] and not game.is_over(state):
                assert game.to_act(state) == [seat]  # drew: chooses again
        scores = game.result(state)["scores"]
        for seat in range(4):
            assert scores[seat] == sum(
                PENALTY.get(c[0], int(c[0]) if c[0].isdigit() else 0) for c in hand(game, state, seat)
            )
        assert 0 in scores or state.sto[(GAME, "PASSES")] >= 4


def game_suits() -> list[str]:
    return ["CLUBS", "DIAMONDS", "HEARTS", "SPADES"]


def test_go_fish_gives_cards_asked_for_and_lays_down_books() -> None:
    game = load(GAMES["go_fish"])
    for seed in range(6):
        state = game.new(None, None, seed)
        rng = random.Random(seed)
        while not game.is_over(state):
            (seat,) = game.to_act(state)
            mine = hand(game, state, seat)
            moves = game.legal_moves(state, seat)
            assert all(
                m["choice"][2] in {rank_word(c) for c in mine} and m["choice"][1] != seat for m in moves
            )
            move = game.random_move(state, seat, rng)
            _, other, rank = move["choice"]
            theirs = [c for c in hand(game, state, other) if rank_word(c) == rank]
            game.apply(state, seat, move)
            assert not [c for c in hand(game, state, other) if rank_word(c) == rank]
            stock = state.locs.get((GAME, "iloc", "STOCK"))
            if theirs and not game.is_over(state) and (hand(game, state, seat) or stock):
                assert game.to_act(state) == [seat]  # a catch: ask again
            for p in range(4):
                books = hand(game, state, p, "vloc", "BOOKS")
                assert len(books) % 4 == 0
                ranks = [rank_word(c) for c in hand(game, state, p)]
                assert all(ranks.count(r) < 4 for r in ranks)
        assert sum(game.result(state)["scores"]) == 13


WORDS = {"A": "A", "T": "TEN", "J": "J", "Q": "Q", "K": "K"}
NUMBERS = dict(
    zip("23456789", ["TWO", "THREE", "FOUR", "FIVE", "SIX", "SEVEN", "EIGHT", "NINE"], strict=True)
)


def rank_word(card: str) -> str:
    return WORDS.get(card[0]) or NUMBERS[card[0]]
