"""Cribbage's play: pegging on arranged sequences, go, 31, last card, who leads, the target."""

from __future__ import annotations

import json
from typing import Any

import pytest

from games.cards import CARD_NAMES, parse_card, sort_names
from games.cribbage import GAME
from games.cribbage.play import peg_items, peg_points
from games.cribbage.scoring import VALUES
from games.cribbage.state import CribbageState
from games.engine import GameOverError, IllegalMoveError, NotYourTurnError


def pile_of(*names: str) -> tuple[list[int], int]:
    cards = [parse_card(name) for name in names]
    return cards, sum(VALUES[c % 13] for c in cards)


def arranged(
    hands: list[list[str]],
    dealer: int = 0,
    start: str = "KS",
    scores: list[int] | None = None,
    target: int = 121,
    played: list[list[str]] | None = None,
) -> CribbageState:
    """A state in the play, each seat holding ``hands``, built through from_json.

    ``played`` names cards each seat has already played this deal; a seat holding
    fewer than four is given more earlier-played cards to make up the four it kept.
    """
    n = len(hands)
    played = played or [[] for _ in hands]
    data: dict[str, Any] = GAME.to_json(GAME.new(n, {"target": target}, seed=5))
    used = {c for hand in [*hands, *played] for c in hand} | {start}
    rest = [c for c in CARD_NAMES if c not in used]
    kept = []
    for hand, gone in zip(hands, played, strict=True):
        size = 4 - len(hand) - len(gone)
        kept.append(sort_names([*hand, *gone, *rest[:size]]))
        rest = rest[size:]
    data.update(
        dealer=dealer,
        phase="play",
        hands=[sort_names(hand) for hand in hands],
        kept=kept,
        dealt=kept,
        crib=sort_names(rest[:4]),
        crib_dealt=[],
        stock=rest[4:],
        waiting=0,
        start=start,
        count=0,
        pile=[],
        pile_seats=[],
        gone=0,
        turn=(dealer + 1) % n,
        barred=[0] * n,
        last=None,
        pegged=[],
        show=None,
    )
    if scores is not None:
        data["scores"] = scores
    return GAME.from_json(json.loads(json.dumps(data)))


def play(state: CribbageState, *moves: tuple[int, str]) -> list:
    """Make ``(seat, card)`` plays (``"go"`` for a go) in order; return the last move's events."""
    events: list = []
    for seat, card in moves:
        move = {"go": True} if card == "go" else {"play": card}
        events = list(GAME.apply(state, seat, move))
    return events


def pegged(state: CribbageState) -> list[tuple[int, str, int]]:
    return [(p["seat"], p["kind"], p["points"]) for p in GAME.view(state, None)["pegged"]]


# Scoring one card against the current count.


@pytest.mark.parametrize(
    ("names", "items"),
    [
        (("7C", "4D", "4H"), [("fifteen", 2), ("pair", 2)]),  # 15 and a pair on the same card
        (("4C", "9D", "8H", "TS"), [("thirty-one", 2), ("run", 3)]),  # 31 with a run (8-9-T)
        (("5C", "3D", "4H"), [("run", 3)]),  # a run out of order
        (("3C", "4D", "5H", "5S"), [("pair", 2)]),  # a broken run: the pair, no run
        (("3C", "4D", "5H", "6S"), [("run", 4)]),
        (("3C", "4D", "3H", "5S"), [("fifteen", 2), ("run", 3)]),  # the last three make 4-3-5
        (("3C", "4D", "KH", "5S"), []),  # a card between breaks it
        (("AC", "AD", "AH"), [("pair", 6)]),
        (("AC", "AD", "AH", "AS"), [("pair", 12)]),
        (("5C", "TD"), [("fifteen", 2)]),
        (("JC", "QD", "KH"), [("run", 3)]),
        (("QC", "KD", "AH"), []),  # the ace is low only
        (("2C", "3D", "AH", "5S", "4S"), [("fifteen", 2), ("run", 5)]),
    ],
)
def test_what_a_card_scores_in_the_play(names: tuple[str, ...], items: list[tuple[str, int]]) -> None:
    cards, count = pile_of(*names)
    assert peg_items(cards, count) == items
    assert peg_points(cards, count) == sum(points for _, points in items)


def test_pairs_and_runs_only_look_at_the_current_count() -> None:
    # After a reset the new count starts afresh: one card scores nothing.
    cards, _ = pile_of("5C")
    assert peg_items(cards, 5) == []


# The play in a game.


def test_fifteen_and_a_pair_peg_for_the_players_side() -> None:
    state = arranged([["4D", "4H", "9C", "9D"], ["7C", "4C", "QC", "JC"]], dealer=0)
    play(state, (1, "7C"), (0, "4D"))
    assert pegged(state) == []
    play(state, (1, "4C"))  # 7 + 4 + 4: 15 and a pair
    assert pegged(state) == [(1, "fifteen", 2), (1, "pair", 2)]
    view = GAME.view(state, 0)
    assert view["scores"] == [0, 4] and view["count"] == 15
    assert view["pile"] == [{"seat": 1, "card": "7C"}, {"seat": 0, "card": "4D"}, {"seat": 1, "card": "4C"}]
    assert view["last"] == {"seat": 1, "move": {"play": "4C"}} and view["turn"] == 0


def test_go_with_three_players_then_the_count_starts_again() -> None:
    state = arranged([["KC", "QC", "9C", "8C"], ["TD", "JD", "8D", "2D"], ["8H", "7H", "6H", "5H"]], dealer=2)
    play(state, (0, "KC"), (1, "TD"), (2, "8H"))
    assert state.count == 28 and state.turn == 0
    assert GAME.legal_moves(state, 0) == [{"go": True}]  # nothing of seat 0's fits under 31
    play(state, (0, "go"))
    view = GAME.view(state, None)
    assert view["gone"] == [0] and view["turn"] == 1 and view["last"] == {"seat": 0, "move": {"go": True}}
    assert GAME.legal_moves(state, 1) == [{"play": "2D"}]
    play(state, (1, "2D"))
    # Seat 2 holds nothing under 2 and seat 0 has gone: no seat can play, so the
    # count ends at once and seat 1, who played last, pegs 1 for the go.
    assert pegged(state) == [(1, "go", 1)]
    view = GAME.view(state, None)
    assert view["scores"] == [0, 1, 0]
    assert view["count"] == 0 and view["pile"] == [] and view["gone"] == []
    assert view["turn"] == 2  # the next seat after the last player leads
    assert view["played"] == [["KC"], ["2D", "TD"], ["8H"]]


def test_a_seat_that_can_play_may_not_say_go_and_no_card_may_pass_31() -> None:
    state = arranged([["KC", "QC", "5C", "AC"], ["TD", "JD", "8D", "2D"]], dealer=1)
    play(state, (0, "KC"), (1, "TD"), (0, "5C"))
    assert state.count == 25
    assert GAME.legal_moves(state, 1) == [{"play": "2D"}]
    before = json.dumps(GAME.to_json(state), sort_keys=True)
    with pytest.raises(IllegalMoveError, match="go"):
        GAME.apply(state, 1, {"go": True})
    with pytest.raises(IllegalMoveError, match="31"):
        GAME.apply(state, 1, {"play": "JD"})
    with pytest.raises(IllegalMoveError, match="not in your hand"):
        GAME.apply(state, 1, {"play": "AC"})
    with pytest.raises(NotYourTurnError):
        GAME.apply(state, 0, {"play": "AC"})
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, 1, {"next": True})
    assert json.dumps(GAME.to_json(state), sort_keys=True) == before


def test_the_last_player_plays_on_alone_and_a_seat_with_no_cards_is_skipped() -> None:
    state = arranged([["KD"], ["KC", "QC", "9C"]], dealer=0)
    play(state, (1, "KC"), (0, "KD"))
    assert pegged(state) == [(0, "pair", 2)]
    play(state, (1, "QC"))  # 30; seat 0 has no cards, seat 1's 9 does not fit
    assert pegged(state) == [(1, "go", 1)]
    assert state.turn == 1 and state.count == 0  # seat 0 is skipped: seat 1 leads again
    play(state, (1, "9C"))
    assert pegged(state) == [(1, "last card", 1)]
    assert GAME.view(state, None)["phase"] == "show"


def test_thirty_one_scores_two_and_no_go_even_on_the_last_card() -> None:
    state = arranged([["KD", "TD"], ["KC", "AC"]], dealer=0)
    play(state, (1, "KC"), (0, "KD"), (1, "AC"))
    play(state, (0, "TD"))
    assert pegged(state) == [(0, "thirty-one", 2)]
    assert GAME.view(state, None)["phase"] == "show"


def test_after_31_the_count_starts_again_from_the_next_seat_with_cards() -> None:
    state = arranged([["KD", "TD", "5D"], ["KC", "2C"], ["9H", "3H", "4H"]], dealer=0)
    play(state, (1, "KC"), (2, "9H"), (0, "KD"), (1, "2C"))
    assert pegged(state) == [(1, "thirty-one", 2)]
    view = GAME.view(state, None)
    assert view["count"] == 0 and view["pile"] == [] and view["turn"] == 2
    assert view["scores"] == [0, 2, 0]


def test_the_game_ends_the_moment_a_side_reaches_the_target_in_the_play() -> None:
    state = arranged([["8D", "9C", "TC", "JC"], ["7C", "QD", "KD", "2D"]], dealer=0, scores=[119, 0])
    play(state, (1, "7C"), (0, "8D"))
    assert GAME.is_over(state) and GAME.view(state, 0)["phase"] == "over"
    assert GAME.result(state) == {"scores": [121, 0], "winners": [0]}
    assert GAME.view(state, 0)["hand"] == ["9C", "TC", "JC"]  # the deal stops there


def test_partners_win_together_the_moment_their_side_reaches_the_target() -> None:
    state = arranged([["4D", "9C"], ["7C", "KC"], ["4H", "3H"], ["8S", "6S"]], dealer=3, scores=[119, 60])
    play(state, (0, "4D"), (1, "7C"), (2, "4H"))  # 15 for seat 2, partner of seat 0
    assert GAME.is_over(state)
    assert GAME.to_act(state) == [] and all(GAME.legal_moves(state, s) == [] for s in range(4))
    assert GAME.result(state) == {"scores": [121, 60, 121, 60], "winners": [0, 2]}
    view = GAME.view(state, 1)
    assert view["phase"] == "over" and view["result"] == GAME.result(state)
    with pytest.raises(GameOverError):
        GAME.apply(state, 3, {"play": "8S"})


def test_the_show_follows_the_play_in_order_and_stops_at_the_target() -> None:
    # Dealer 0: seat 1 shows first. Both hands would pass 121; seat 1 gets there first.
    hands = [["5C", "5D", "TC", "TD"], ["4H", "4S", "6H", "6S"]]
    state = arranged(hands, dealer=0, start="5H", scores=[110, 100])
    play(state, (1, "4H"), (0, "TC"), (1, "4S"), (0, "TD"))  # 28: nobody can play
    assert pegged(state) == [(0, "go", 1)]
    play(state, (1, "6H"), (0, "5C"), (1, "6S"), (0, "5D"))
    assert GAME.is_over(state)
    view = GAME.view(state, None)
    # 4 4 6 6 with 5: four runs of three, two pairs, four fifteens = 24.
    assert [(entry["seat"], entry["crib"], entry["total"]) for entry in view["show"]] == [(1, False, 24)]
    assert view["result"] == {"scores": [112, 124], "winners": [1]}
