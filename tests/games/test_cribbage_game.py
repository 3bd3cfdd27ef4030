"""Cribbage as a game: the deal, the discard, the cut, the show, views, JSON, logs."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from games.__main__ import main as games_main
from games.__main__ import play_one
from games.cards import CARD_NAMES, sort_names
from games.cribbage import GAME, hand_value
from games.cribbage.state import CribbageState
from games.engine import IllegalMoveError, OptionsError


def snapshot(state: CribbageState) -> str:
    return json.dumps(GAME.to_json(state), sort_keys=True)


def discard_all(state: CribbageState, rng: random.Random | None = None) -> list:
    """Every seat discards (the first legal discard, or a random one); return the last events."""
    events: list = []
    for seat in GAME.to_act(state):
        moves = GAME.legal_moves(state, seat)
        events = list(GAME.apply(state, seat, rng.choice(moves) if rng else moves[0]))
    return events


def play_to_show(state: CribbageState, rng: random.Random) -> None:
    """Play random legal moves until the show (or the end)."""
    while GAME.view(state, None)["phase"] in ("discard", "play"):
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))


def cards_in_view(view: dict[str, Any]) -> set[str]:
    text = json.dumps(view)
    return {card for card in CARD_NAMES if f'"{card}"' in text}


@pytest.mark.parametrize(("players", "dealt", "crib", "stock"), [(2, 6, 0, 40), (3, 5, 1, 36), (4, 5, 0, 32)])
def test_the_deal(players: int, dealt: int, crib: int, stock: int) -> None:
    state = GAME.new(players, seed=11)
    deal = GAME.deal_event(state)["deal"]
    assert deal["dealer"] == state.dealer == random.Random(11).randrange(players)
    assert [len(hand) for hand in deal["hands"]] == [dealt] * players
    assert len(deal["crib"]) == crib and len(deal["stock"]) == stock and deal["pool"] == []
    laid = [c for hand in deal["hands"] for c in hand] + deal["crib"] + deal["stock"]
    assert sorted(laid) == sorted(CARD_NAMES)
    assert GAME.to_act(state) == list(range(players))
    view = GAME.view(state, 0)
    assert view["phase"] == "discard" and view["turn"] is None and view["start"] is None
    assert view["hand"] == deal["hands"][0] and view["crib_size"] == crib
    assert view["to_discard"] == list(range(players))
    assert view["sides"] == ([[0, 2], [1, 3]] if players == 4 else [[s] for s in range(players)])


@pytest.mark.parametrize(("players", "moves", "size"), [(2, 15, 2), (3, 5, 1), (4, 5, 1)])
def test_the_discards_on_offer(players: int, moves: int, size: int) -> None:
    state = GAME.new(players, seed=3)
    for seat in range(players):
        legal = GAME.legal_moves(state, seat)
        assert len(legal) == moves
        for move in legal:
            assert len(move["discard"]) == size and move["discard"] == sort_names(move["discard"])


def test_a_discard_is_face_down_to_everyone_else() -> None:
    state = GAME.new(2, seed=8)
    move = GAME.legal_moves(state, 0)[4]
    GAME.apply(state, 0, move)
    assert GAME.to_act(state) == [1]
    mine, theirs, spectator = GAME.view(state, 0), GAME.view(state, 1), GAME.view(state, None)
    assert mine["last"] == {"seat": 0, "move": move}
    assert theirs["last"] == spectator["last"] == {"seat": 0, "move": {"discard": 2}}
    assert theirs["turn"] == 1 and theirs["crib_size"] == 2 and theirs["hand_counts"] == [4, 6]
    for view in (theirs, spectator):
        assert not cards_in_view(view) & set(move["discard"])
    with pytest.raises(IllegalMoveError):
        GAME.apply(state, 0, GAME.legal_moves(state, 1)[0])  # seat 0 has discarded


def test_bad_discards_are_refused_and_change_nothing() -> None:
    state = GAME.new(2, seed=8)
    hand = GAME.view(state, 0)["hand"]
    other = next(c for c in CARD_NAMES if c not in hand)
    before = snapshot(state)
    for move in (
        {"discard": [hand[0]]},
        {"discard": hand[:3]},
        {"discard": [hand[1], hand[0]]},
        {"discard": [hand[0], other]},
        {"discard": "2C"},
        {"play": hand[0]},
        {"go": True},
        {"discard": [hand[0], hand[1]], "go": True},
    ):
        with pytest.raises(IllegalMoveError):
            GAME.apply(state, 0, move)
    assert snapshot(state) == before


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_cut_turns_the_stocks_top_card_and_the_crib_stays_hidden(players: int) -> None:
    state = GAME.new(players, seed=21)
    top = GAME.deal_event(state)["deal"]["stock"][0]
    events = discard_all(state)
    assert events == [{"starter": top}]
    assert len(GAME.to_json(state)["crib"]) == 4
    view = GAME.view(state, None)
    assert view["phase"] == "play" and view["start"] == top and view["crib_size"] == 4
    assert view["turn"] == (state.dealer + 1) % players and view["hand_counts"] == [4] * players
    crib = set(GAME.to_json(state)["crib"])
    for seat in [*range(players), None]:
        own = set(GAME.to_json(state)["dealt"][seat]) if seat is not None else set()
        assert not cards_in_view(GAME.view(state, seat)) & (crib - own)


def jack_on_top(players: int, dealer_score: int) -> CribbageState:
    """A fresh deal whose stock has a jack on top, dealer's side on ``dealer_score``."""
    data = GAME.to_json(GAME.new(players, seed=4))
    stock = data["stock"]
    jack = next(c for c in stock if c[0] == "J")
    stock.remove(jack)
    data["stock"] = [jack, *stock]
    data["scores"][data["dealer"] % len(data["scores"])] = dealer_score
    return GAME.from_json(data)


def test_his_heels_scores_two_for_the_dealer() -> None:
    state = jack_on_top(2, 0)
    events = discard_all(state)
    assert events[0]["starter"][0] == "J"
    view = GAME.view(state, None)
    assert view["pegged"] == [{"seat": state.dealer, "kind": "his heels", "points": 2}]
    assert view["scores"][state.dealer] == 2 and view["scores"][1 - state.dealer] == 0


def test_his_heels_can_end_the_game() -> None:
    state = jack_on_top(4, 119)
    discard_all(state)
    assert GAME.is_over(state)
    winners = GAME.result(state)["winners"]
    assert winners == sorted({state.dealer, (state.dealer + 2) % 4})


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_show_is_itemised_in_order_and_waits_for_the_next_dealer(players: int) -> None:
    rng = random.Random(players)
    state = GAME.new(players, seed=30 + players)
    dealer = state.dealer
    discard_all(state, rng)
    start = GAME.view(state, None)["start"]
    kept = GAME.to_json(state)["kept"]
    crib = GAME.to_json(state)["crib"]
    play_to_show(state, rng)
    view = GAME.view(state, None)
    assert view["phase"] == "show"
    order = [(dealer + i) % players for i in range(1, players + 1)]
    assert [(e["seat"], e["crib"]) for e in view["show"]] == [*[(s, False) for s in order], (dealer, True)]
    for entry in view["show"]:
        cards = crib if entry["crib"] else kept[entry["seat"]]
        assert entry["cards"] == cards and entry["start"] == start
        assert entry["total"] == hand_value(cards, start, crib=entry["crib"])
        assert entry["total"] == sum(item["points"] for item in entry["items"])
    next_dealer = (dealer + 1) % players
    assert GAME.to_act(state) == [next_dealer] and view["turn"] == next_dealer
    assert GAME.legal_moves(state, next_dealer) == [{"next": True}]
    assert all(GAME.legal_moves(state, s) == [] for s in range(players) if s != next_dealer)
    events = list(GAME.apply(state, next_dealer, {"next": True}))
    assert events == [GAME.deal_event(state)] and events[0]["deal"]["dealer"] == next_dealer
    view = GAME.view(state, None)
    assert view["phase"] == "discard" and view["show"] is None and view["last"] is None
    assert view["deal_number"] == 2 and view["start"] is None


def test_the_show_scores_add_to_the_sides() -> None:
    state = GAME.new(4, seed=5)
    rng = random.Random(1)
    discard_all(state, rng)
    while True:
        before = GAME.view(state, None)["scores"]
        seat = GAME.to_act(state)[0]
        GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))
        view = GAME.view(state, None)
        if view["phase"] != "play":
            break
    assert view["phase"] == "show"
    # The last card's pegs and the show's totals, each to the side of its seat.
    for s in range(4):
        pegs = sum(p["points"] for p in view["pegged"] if p["seat"] % 2 == s % 2)
        shown = sum(e["total"] for e in view["show"] if e["seat"] % 2 == s % 2)
        assert view["scores"][s] == before[s] + pegs + shown
    assert view["scores"][0] == view["scores"][2] and view["scores"][1] == view["scores"][3]


@pytest.mark.parametrize("players", [2, 3, 4])
def test_json_round_trip_and_clone_continue_identically(players: int) -> None:
    rng = random.Random(players)
    state = GAME.new(players, seed=77)
    for steps in range(120):
        if GAME.is_over(state):
            break
        copy = GAME.from_json(json.loads(json.dumps(GAME.to_json(state))))
        clone = GAME.clone(state)
        assert snapshot(copy) == snapshot(clone) == snapshot(state)
        for seat in [*range(players), None]:
            assert GAME.view(copy, seat) == GAME.view(state, seat)
        seat = rng.choice(GAME.to_act(state))
        move = rng.choice(GAME.legal_moves(state, seat))
        events = list(GAME.apply(state, seat, move))
        assert list(GAME.apply(copy, seat, move)) == events
        assert snapshot(copy) == snapshot(state), steps


@pytest.mark.parametrize("players", [2, 3, 4])
def test_determinize_keeps_what_the_seat_has_seen(players: int) -> None:
    rng = random.Random(players)
    state = GAME.new(players, seed=13)
    for _ in range(200):
        if GAME.is_over(state):
            break
        seat = rng.choice(GAME.to_act(state))
        me = GAME.to_act(state)[0]
        guess = GAME.determinize(state, me, random.Random(rng.random()))
        real, dealt = GAME.to_json(state), GAME.to_json(guess)
        assert GAME.view(guess, me) == GAME.view(state, me)
        start = [] if dealt["start"] is None else [dealt["start"]]
        played = [
            c for kept, hand in zip(dealt["kept"], dealt["hands"], strict=True) for c in kept if c not in hand
        ]
        everywhere = [*(c for hand in dealt["hands"] for c in hand), *dealt["crib"], *dealt["stock"], *start]
        assert sorted([*everywhere, *played]) == sorted(CARD_NAMES)
        assert dealt["start"] == real["start"] and dealt["hands"][me] == real["hands"][me]
        assert set(real["dealt"][me]) & set(real["crib"]) <= set(dealt["crib"])
        for s in range(players):
            assert len(dealt["hands"][s]) == len(real["hands"][s])
        for s, barred in enumerate(real["barred"]):
            if s != me:
                held = {CARD_NAMES.index(c) for c in dealt["hands"][s]}
                assert not any(barred >> c & 1 for c in held)
        GAME.apply(state, seat, rng.choice(GAME.legal_moves(state, seat)))


def replay(record: dict[str, Any]) -> list[dict]:
    """Rebuild a log's events from its seed and moves alone."""
    state = GAME.new(record["players"], record["options"], record["seed"])
    events: list[dict] = [GAME.deal_event(state)]
    for event in record["events"][1:]:
        if "seat" in event:
            events.append(event)
            events.extend(GAME.apply(state, event["seat"], event["move"]))
    assert GAME.result(state) == record["result"]
    return events


@pytest.mark.parametrize("players", [2, 3, 4])
def test_simulation_logs_follow_the_protocol(players: int) -> None:
    record = play_one(GAME, players, None, 9, ["random"])
    events = record["events"]
    assert record["game"] == "cribbage" and record["players"] == players
    assert events[0] == {"deal": events[0]["deal"]}
    assert replay(record) == events
    deal, discards = None, 0
    for event in events:
        if "deal" in event:
            deal, discards = event["deal"], 0
            assert len(deal["crib"]) == (1 if players == 3 else 0)
        elif "starter" in event:
            assert discards == players and event["starter"] == deal["stock"][0]
        elif "discard" in event["move"]:
            discards += 1
    assert sum("starter" in e for e in events) == sum("deal" in e for e in events)
    result = record["result"]
    assert max(result["scores"]) >= 121 and result["winners"]
    assert play_one(GAME, players, None, 9, ["random"]) == record


def test_the_command_line_writes_a_log_line_per_game(tmp_path: Any, capsys: Any) -> None:
    log = tmp_path / "cribbage.jsonl"
    code = games_main(
        ["simulate", "cribbage", "--games", "3", "--seed", "4", "--players", "3", "--log", str(log)]
    )
    assert code == 0
    lines = [json.loads(line) for line in log.read_text().splitlines()]
    assert [line["seed"] for line in lines] == [4, 5, 6]
    assert all(any("starter" in e for e in line["events"]) for line in lines)
    assert "games: 3" in capsys.readouterr().out


def test_options() -> None:
    assert GAME.new(2, {"target": 61}).target == 61
    assert GAME.new(2, {"preset": "cardstock"}).target == 121
    with pytest.raises(OptionsError):
        GAME.new(2, {"target": 100})
    with pytest.raises(OptionsError):
        GAME.new(5)
    with pytest.raises(OptionsError):
        GAME.new(1)
