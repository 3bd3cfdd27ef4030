"""Cribbage's end: the scoring event that reaches the target counts whole.

A card's pegs (with the go or last card it earns), his heels, or one hand's (or the
crib's) show: all of it counts, then the game ends. RULES.md, "Cribbage".
"""

from __future__ import annotations

import random

import pytest

from games.cards import CARD_INDEX, JACK, cards_in, sort_names
from games.cribbage import GAME
from games.cribbage.play import FITS, peg_points
from games.cribbage.scoring import VALUES, hand_breakdown, hand_value, score_cards
from games.cribbage.state import CribbageState
from games.engine import Move
from tests.games.test_cribbage_play import arranged, pegged, play


@pytest.mark.parametrize(
    ("hands", "dealer", "scores", "moves", "items", "result"),
    [
        # 4-5-6: fifteen and a run of three on the last card of the deal.
        (
            [["5D"], ["4C", "6H"]],
            0,
            [100, 119],
            [(1, "4C"), (0, "5D"), (1, "6H")],
            [(1, "fifteen", 2), (1, "run", 3), (1, "last card", 1)],
            [100, 125],
        ),
        # 4-9-8-T: 31 and a run of three (8-9-T).
        (
            [["4C", "TS"], ["9D"], ["8H"]],
            2,
            [119, 50, 60],
            [(0, "4C"), (1, "9D"), (2, "8H"), (0, "TS")],
            [(0, "thirty-one", 2), (0, "run", 3)],
            [124, 50, 60],
        ),
        # 9-T-J makes 29: a run of three, and nobody holds a card under 3, so the go too.
        (
            [["9C", "6C"], ["TD", "7D"], ["JH", "8H"], ["5S", "4S"]],
            3,
            [119, 60],
            [(0, "9C"), (1, "TD"), (2, "JH")],
            [(2, "run", 3), (2, "go", 1)],
            [123, 60, 123, 60],
        ),
    ],
    ids=["2 players", "3 players", "4 players"],
)
def test_a_card_that_reaches_the_target_scores_all_its_kinds(
    hands: list[list[str]],
    dealer: int,
    scores: list[int],
    moves: list[tuple[int, str]],
    items: list[tuple[int, str, int]],
    result: list[int],
) -> None:
    state = arranged(hands, dealer=dealer, scores=scores)
    play(state, *moves)
    assert GAME.is_over(state) and GAME.to_act(state) == []
    assert pegged(state) == items
    winner = items[0][0]
    assert GAME.result(state) == {
        "scores": result,
        "winners": [s for s in range(len(hands)) if s % len(scores) == winner % len(scores)],
    }
    for seat in [None, *range(len(hands))]:
        view = GAME.view(state, seat)
        assert view["phase"] == "over" and view["result"] == GAME.result(state)
        # Every item of the winning card is on the table, for every seat.
        assert [(p["seat"], p["kind"], p["points"]) for p in view["pegged"]] == items
        assert view["show"] is None  # the game ended in the play: no show
    assert sum(points for _, _, points in items) == result[winner] - scores[winner % len(scores)]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_a_show_hand_past_the_target_counts_whole_and_ends_the_game(players: int) -> None:
    # The dealer is the last seat, so seat 0 shows first: 5C 5D TC AC with 5H is 14.
    sides = 2 if players == 4 else players
    hands = [[card] for card in ["AC", "3D", "7H", "KS"][:players]]  # 1, 4, 11, 21: no pegs
    played = [["5C", "5D", "TC"]] + [[] for _ in range(players - 1)]
    state = arranged(hands, dealer=players - 1, start="5H", scores=[118] + [100] * (sides - 1), played=played)
    play(state, *((seat, hand[0]) for seat, hand in enumerate(hands)))
    assert pegged(state) == [(players - 1, "last card", 1)]  # the dealer played last: 101
    assert GAME.is_over(state)
    shown = hand_breakdown(["5C", "5D", "TC", "AC"], "5H")
    assert shown["total"] == hand_value(["5C", "5D", "TC", "AC"], "5H") == 14
    expected = [132] + [100] * (sides - 1)
    expected[(players - 1) % sides] += 1  # the dealer's last card
    winners = [s for s in range(players) if s % sides == 0]
    assert GAME.result(state) == {"scores": [expected[s % sides] for s in range(players)], "winners": winners}
    for seat in [None, *range(players)]:
        view = GAME.view(state, seat)
        assert view["phase"] == "over"
        # Only seat 0's hand was shown, with its whole breakdown; the rest were not counted.
        assert view["show"] == [
            {
                "seat": 0,
                "crib": False,
                "cards": sort_names(["5C", "5D", "TC", "AC"]),
                "start": "5H",
                "items": shown["items"],
                "total": 14,
            }
        ]


def events_of(state: CribbageState, seat: int, move: Move) -> list[tuple[int, int]]:
    """Return the whole scoring events ``move`` sets off, ``[(seat, points)]`` in order.

    Worked out from the rules apart from the game's own bookkeeping: a card's pegs
    plus the go or last card when no seat can play on; his heels on the cut; then,
    when the deal's cards are all out, each hand in order and the crib.
    """
    n = state.players
    if "discard" in move:
        last_discard = state.waiting.bit_count() == 1
        return [(state.dealer, 2)] if last_discard and state.stock[0] % 13 == JACK else []
    if "next" in move:
        return []
    hands, gone, count = list(state.hands), state.gone, state.count
    pile, seats = list(state.pile), list(state.pile_seats)
    points = 0
    if "go" in move:
        gone |= 1 << seat
    else:
        card = CARD_INDEX[move["play"]]
        hands[seat] ^= 1 << card
        count += VALUES[card % 13]
        pile.append(card)
        seats.append(seat)
        points = peg_points(pile, count)
    count_ends = not any(hands[s] & FITS[31 - count] and not gone >> s & 1 for s in range(n))
    if count_ends and count != 31:
        points += 1
    events = [(seats[-1], points)] if points else []
    if count_ends and not any(hands):
        order = [(state.dealer + i) % n for i in range(1, n + 1)]
        events += [(s, score_cards(cards_in(state.kept[s]), state.start)) for s in order]
        events.append((state.dealer, score_cards(cards_in(state.crib), state.start, True)))
    return events


@pytest.mark.parametrize("target", [61, 121])
@pytest.mark.parametrize("players", [2, 3, 4])
def test_random_games_end_on_a_whole_event(players: int, target: int) -> None:
    """Every move of random games moves the scores by whole events, the last one included."""
    ended_past_target = 0
    for seed in range(120):
        rng = random.Random(seed)
        state = GAME.new(players, {"target": target}, seed=seed)
        while not GAME.is_over(state):
            seat = GAME.to_act(state)[0]
            move = rng.choice(GAME.legal_moves(state, seat))
            expected = list(state.scores)
            for who, points in events_of(state, seat, move):
                expected[who % state.sides] += points
                if expected[who % state.sides] >= target:
                    break  # the game ends after this event: later hands are not shown
            GAME.apply(state, seat, move)
            assert state.scores == expected, (seed, move)
        ended_past_target += max(state.scores) > target
    assert ended_past_target > 0  # the check did meet events that overshoot the target
