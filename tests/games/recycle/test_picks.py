"""A choice among the subsets of a hand or a pool: offered as cards to pick, checked without
listing every subset (games/recycle/compiling/picks.py), and a Scopa-like capture past 17 cards."""

from __future__ import annotations

import json
import random
import time
from itertools import combinations
from pathlib import Path

import pytest

from games.bots import levels
from games.protocol import IllegalMoveError
from games.recycle import loads
from games.recycle.compiling import picks
from games.recycle.compiling.groups import MAX_GROUPS
from games.recycle.playing.game import RecycleGame

FAMILIES = Path(__file__).parent / "families"
SHED = (FAMILIES / "shed.rcy").read_text()
# The same game where any non-empty set of the 14 cards may be put down: 16,383 options.
ANY_SET = SHED.replace("(<= (sum 'S using (game points PIPS)) 10)", "(<= (size 'S) 14)")
PIPS = {"A": 1, "2": 2, "3": 3, "4": 4, "5": 5, "6": 6, "7": 7, "8": 8, "9": 9, "T": 10}


def _frame(game: RecycleGame, state: object, seat: int) -> int:
    """The bytes of the game part of a state message for ``seat`` (its view and legal moves)."""
    body = {"view": game.view(state, seat), "legal_moves": game.legal_moves(state, seat)}
    return len(json.dumps(body).encode())


def test_a_choice_of_any_subset_of_14_cards_is_a_pick_with_a_small_frame() -> None:
    game = loads(ANY_SET, "Any set")
    state = game.new(None, None, seed=1)
    pick = game.view(state, 0)["pick"]
    assert len(pick) == 1
    assert sorted(pick[0]["cards"]) == sorted(game.view(state, 0)["hand"])
    assert (pick[0]["min"], pick[0]["max"], pick[0]["listed"], pick[0]["exact"]) == (1, 14, False, True)
    assert pick[0]["from"] == [{"owner": "0", "name": "HAND", "label": "Hand"}]
    # Listed: a sample, each a legal set; the frame is a few KB where all 16,383 made 833 KiB.
    moves = game.legal_moves(state, 0)
    assert 1 < len(moves) <= picks.SAMPLED
    assert all(m["choice"][0] == 0 and 1 <= len(m["choice"][1]) <= 14 for m in moves)
    assert _frame(game, state, 0) < 8_000
    # Neither the other seat nor a spectator is told the cards the seat to act may pick.
    assert "pick" not in game.view(state, 1) and "pick" not in game.view(state, None)


def test_a_set_picked_is_made_and_a_wrong_one_refused_leaving_the_state_as_it_was() -> None:
    game = loads(ANY_SET, "Any set")
    state = game.new(None, None, seed=2)
    cards = game.view(state, 0)["pick"][0]["cards"]
    before = json.dumps(game.to_json(state), sort_keys=True)
    wrong = [
        ({"choice": [0, [cards[1], cards[0]]]}, "in the order the pick gives"),
        ({"choice": [0, [cards[0], cards[0]]]}, "named twice"),
        ({"choice": [0, ["KS"]]}, "KS is not one of the cards you may pick"),
        ({"choice": [0, []]}, "pick between 1 and 14 cards, not 0"),
        ({"choice": [0, "AC"]}, "a list of card names"),
    ]
    for move, reason in wrong:
        with pytest.raises(IllegalMoveError, match=reason):
            game.apply(state, 0, move)
        assert json.dumps(game.to_json(state), sort_keys=True) == before
    chosen = cards[2:11]  # nine cards, almost surely not among the few listed
    game.apply(state, 0, {"choice": [0, chosen]})
    view = game.view(state, 1)
    discard = next(p for p in view["locations"] if p["name"] == "DISCARD")
    assert discard["cards"] == chosen
    # The move keeps the words of the choice it was made at, as a listed move does.
    words = game.words[next(iter(game.words))]
    assert view["last"] == {"seat": 0, "move": {"choice": [0, chosen]}, "words": words, "items": [["cards"]]}
    assert len(game.view(state, 0)["hand"]) == 5 and game.to_act(state) == [1]


def test_a_set_put_face_down_is_named_to_its_mover_alone() -> None:
    game = loads(ANY_SET.replace("(game vloc DISCARD)", "(game iloc DISCARD)"), "Face down")
    state = game.new(None, None, seed=8)
    chosen = game.view(state, 0)["pick"][0]["cards"][:3]
    game.apply(state, 0, {"choice": [0, chosen]})
    assert game.view(state, 0)["last"]["move"] == {"choice": [0, chosen]}
    assert game.view(state, 1)["last"]["move"] == {} and game.view(state, None)["last"]["move"] == {}


def test_a_pick_by_points_lists_what_its_rule_allows_and_refuses_the_rest() -> None:
    game = loads(SHED, "Shed")
    state = game.new(None, None, seed=3)
    pick = game.view(state, 0)["pick"][0]
    (rule,) = pick["sums"]
    assert (rule["op"], rule["total"]) == ("<=", 10)
    assert rule["points"] == {c: PIPS[c[0]] for c in pick["cards"]}
    sets = (list(s) for n in range(1, 15) for s in combinations(pick["cards"], n))
    every = [s for s in sets if sum(PIPS[c[0]] for c in s) <= 10]
    assert len(every) > picks.MAX_LISTED and not pick["listed"]
    assert all(m["choice"][1] in every for m in game.legal_moves(state, 0))
    heavy = sorted(pick["cards"], key=lambda c: -PIPS[c[0]])[:2]
    too_much = [c for c in pick["cards"] if c in heavy]
    with pytest.raises(IllegalMoveError, match="not a set the rules allow"):
        game.apply(state, 0, {"choice": [0, too_much]})
    game.apply(state, 0, {"choice": [0, every[-1]]})
    assert game.to_act(state) == [1]


def test_a_small_pick_lists_every_option_as_the_subsets_would() -> None:
    # Three cards in hand: every non-empty subset of at most 10 points is listed, in subsets' order.
    text = SHED.replace("(repeat 14", "(repeat 3")
    game = loads(text, "Shed of three")
    state = game.new(None, None, seed=4)
    pick = game.view(state, 0)["pick"][0]
    cards = pick["cards"]
    masks = [m for m in range(1, 8) if sum(PIPS[cards[i][0]] for i in range(3) if m >> i & 1) <= 10]
    expected = [{"choice": [0, [cards[i] for i in range(3) if m >> i & 1]]} for m in masks]
    assert pick["listed"] is True
    assert game.legal_moves(state, 0) == expected


def test_moves_of_a_14_card_pick_take_little_cpu() -> None:
    # Listing 16,383 options took 0.3 to 0.6 s a move; a game's moves here take a few ms each.
    # The bound is loose (a shared machine); bench/recycle_picks.py prints the figures.
    game = loads(ANY_SET, "Any set")
    rng = random.Random(5)
    started = time.thread_time()
    moves = 0
    for seed in range(5):
        state = game.new(None, None, seed=seed)
        while not game.is_over(state):
            seat = game.to_act(state)[0]
            game.view(state, seat)
            game.apply(state, seat, game.random_move(state, seat, rng))
            moves += 1
    assert moves >= 10
    assert (time.thread_time() - started) / moves < 0.05


def test_bots_play_a_game_of_picks_to_the_end() -> None:
    game = loads(SHED, "Shed")
    state = game.new(None, None, seed=6)
    bots = [levels.make("normal", game, seed=1, playouts=40), levels.make("easy", game, seed=2)]
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        move = bots[seat].choose(state, seat)
        assert move in game.legal_moves(state, seat)
        game.apply(state, seat, move)
    assert game.result(state)["winners"]


def _adding_up(cards: list[str], total: int) -> list[list[str]]:
    """Every non-empty set of ``cards`` (in their order) whose points add up to ``total``."""
    if total == 0:
        return [[]]
    out = []
    for i, card in enumerate(cards):
        if PIPS[card[0]] <= total:
            out.extend([card, *rest] for rest in _adding_up(cards[i + 1 :], total - PIPS[card[0]]))
    return out


def _capture_moves_by_hand(game: RecycleGame, state: object, seat: int) -> list[list]:
    """The captures a player counts: each hand card with each set of pool cards adding up to it."""
    view = game.view(state, seat)
    pool = next(p for p in view["locations"] if p["name"] == "POOL")["cards"]
    out = []
    for card in view["hand"]:
        sets = _adding_up(pool, PIPS[card[0]])
        out.extend([card, s] for s in sets) if sets else out.append([card])
    return sorted(out, key=json.dumps)


def test_a_capture_takes_the_pool_cards_adding_up_to_the_card_played_past_17_cards() -> None:
    game = loads((FAMILIES / "capture.rcy").read_text(), "Capture")
    state = game.new(None, None, seed=7)
    pool = next(p for p in game.view(state, 0)["locations"] if p["name"] == "POOL")
    assert pool["count"] == 24 and MAX_GROUPS < 2**24  # every subset would pass the bound
    rng = random.Random(7)
    captured = 0
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        moves = game.legal_moves(state, seat)
        listed = sorted((m["choice"][1:] if "choice" in m else [m["play"]] for m in moves), key=json.dumps)
        assert listed == _capture_moves_by_hand(game, state, seat)
        move = moves[rng.randrange(len(moves))]
        captured += "choice" in move and len(move["choice"]) == 3
        game.apply(state, seat, move)
    assert captured > 0 and game.result(state)["winners"]


def test_a_rule_the_pick_cannot_say_is_checked_by_the_server() -> None:
    # "No heart": not a bound on size or points, so the page is told the rule is not exact.
    rule = "(all 'S 'C (!= (cardatt SUIT 'C) HEARTS))"
    game = loads(SHED.replace("(<= (sum 'S using (game points PIPS)) 10)", rule), "No hearts")
    state = game.new(None, None, seed=9)
    pick = game.view(state, 0)["pick"][0]
    assert pick["exact"] is False and "sums" not in pick and not pick["listed"]
    hearts = [c for c in pick["cards"] if c.endswith("H")]
    others = [c for c in pick["cards"] if not c.endswith("H")]
    assert hearts and len(others) > 6
    assert all(not c.endswith("H") for m in game.legal_moves(state, 0) for c in m["choice"][1])
    with pytest.raises(IllegalMoveError, match="not a set the rules allow"):
        game.apply(state, 0, {"choice": [0, [c for c in pick["cards"] if c in (hearts[0], others[0])]]})
    game.apply(state, 0, {"choice": [0, others]})
    assert game.view(state, 1)["last"]["move"] == {"choice": [0, others]}
