"""Properties every game keeps, over random seeds and random play (hypothesis).

Parametrized over every game in ``games.GAMES`` and every player count in its
range; each example draws an option set (defaults, the ``cardstock`` preset, every
option at its first and at its last choice), a game seed and a seed for the
random moves. A failure names all three, so it replays exactly.

Where a game keeps its cards comes from ``tests.games.adapters``; a game without
an adapter fails here rather than being skipped.
"""

from __future__ import annotations

import json
import os
import random
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games import GAMES
from games.cards import CARD_NAMES, sort_names
from games.engine import Game, GameError, OptionsError
from tests.games.adapters import ADAPTERS, Adapter, Places, hidden_places

CASES = [
    (game_id, n)
    for game_id, game in GAMES.items()
    for n in range(game.info.min_players, game.info.max_players + 1)
]
CARDS = frozenset(CARD_NAMES)
REFUSAL_CODES = {"illegal_move", "not_your_turn", "game_not_running"}
VIEW_KEYS = {"phase", "turn", "hand_counts", "scores", "last", "dealer"}

# Few examples per (game, players, options) case: each plays whole games, and the cases
# multiply. PROPERTY_EXAMPLES=50 (environment) searches deeper when hunting a bug.
_EXAMPLES = int(os.environ.get("PROPERTY_EXAMPLES", "0"))
_HEALTH = [HealthCheck.too_slow, HealthCheck.data_too_large]
PROPERTY = settings(max_examples=_EXAMPLES or 3, deadline=None, suppress_health_check=_HEALTH)
# The every-step walk looks at every view after every move: fewer examples.
WALK = settings(max_examples=_EXAMPLES or 2, deadline=None, suppress_health_check=_HEALTH)
SEEDS = st.integers(min_value=0, max_value=2**31 - 1)


def option_sets(game: Game) -> list[dict[str, Any]]:
    """Return the option sets to try: defaults, cardstock, every option at its first and last choice."""
    sets: list[dict[str, Any]] = [{}, {"preset": "cardstock"}]
    options = game.info.options
    sets.append({name: opt.choices[0] for name, opt in options.items()})
    sets.append({name: opt.choices[-1] for name, opt in options.items()})
    unique: dict[str, dict[str, Any]] = {}
    for options_set in sets:
        resolved = game.info.resolve_options(options_set)
        del resolved["preset"]  # the same values under another name add no coverage
        key = json.dumps(resolved, sort_keys=True)
        unique.setdefault(key, options_set)
    return list(unique.values())


def adapter_for(game_id: str) -> Adapter:
    """Return the game's adapter; a game without one fails the test."""
    adapter = ADAPTERS.get(game_id)
    if adapter is None:
        pytest.fail(
            f"{game_id} has no adapter in tests/games/adapters.py: add one so its properties are tested"
        )
    return adapter


def snapshot(game: Game, state: Any) -> str:
    """Return the state's JSON text (comparing text also proves it is plain JSON)."""
    return json.dumps(game.to_json(state), sort_keys=True)


def card_strings(value: Any) -> Iterator[str]:
    """Yield every string in a JSON value (keys too) that names a card."""
    if isinstance(value, str):
        if value in CARDS:
            yield value
    elif isinstance(value, dict):
        for key, item in value.items():
            yield from card_strings(key)
            yield from card_strings(item)
    elif isinstance(value, list | tuple):
        for item in value:
            yield from card_strings(item)


class Walk:
    """One game under test: its state, the random move chooser, and a label for failures."""

    def __init__(self, game_id: str, players: int, options: dict[str, Any], seed: int, move_seed: int):
        self.game_id = game_id
        self.game = GAMES[game_id]
        self.adapter = adapter_for(game_id)
        self.rng = random.Random(move_seed)
        self.state = self.game.new(players, options, seed)
        self.players = players
        self.options = self.game.to_json(self.state)["options"]
        self.label = f"{game_id} players={players} options={options} seed={seed} move_seed={move_seed}"
        self.moves = 0

    def choose(self) -> tuple[int, dict]:
        """Return a random seat to act and a random legal move of it."""
        seats = self.game.to_act(self.state)
        seat = seats[self.rng.randrange(len(seats))]
        moves = self.game.legal_moves(self.state, seat)
        return seat, moves[self.rng.randrange(len(moves))]

    def step(self) -> tuple[int, dict, list]:
        """Make one random legal move; return it and its events."""
        seat, move = self.choose()
        events = list(self.game.apply(self.state, seat, move))
        self.moves += 1
        bound = self.adapter.max_moves(self.players, self.options)
        assert self.moves <= bound, f"{self.label}: not over after {bound} moves"
        return seat, move, events

    def play_to(self, moves: int) -> None:
        """Play random moves until ``moves`` have been made or the game is over."""
        while self.moves < moves and not self.game.is_over(self.state):
            self.step()

    def places(self, state: Any = None) -> Places:
        """Return where every card is, checking each is in exactly one place."""
        data = self.game.to_json(self.state if state is None else state)
        places = self.adapter.places(data)
        check_places(places, self.adapter.deck(self.players), self.label)
        return places


def check_places(places: Places, deck: frozenset[str], label: str) -> None:
    """Every card of the deck in exactly one place, and nothing else anywhere."""
    seen: dict[str, str] = {}
    for name, cards in places.items():
        for card in cards:
            assert card in deck, f"{label}: {card} in {name} is not in this game's deck"
            assert card not in seen, f"{label}: {card} is in both {seen[card]} and {name}"
            seen[card] = name
    missing = deck - seen.keys()
    assert not missing, f"{label}: {sorted(missing)} are nowhere"


def walk_cases() -> list[Any]:
    """A pytest param per game, player count and option set (a list: pytest 10 refuses generators)."""
    return [
        pytest.param(game_id, players, options, id=f"{game_id}-{players}-{_options_id(options)}")
        for game_id, players in CASES
        for options in option_sets(GAMES[game_id])
    ]


def _options_id(options: dict[str, Any]) -> str:
    return "-".join(f"{k}={v}" for k, v in options.items()) or "defaults"


def new_walk(data: st.DataObject, game_id: str, players: int, options: dict[str, Any]) -> Walk:
    """Draw the seeds and start a game."""
    seed = data.draw(SEEDS, label="seed")
    return Walk(game_id, players, options, seed, data.draw(SEEDS, label="move_seed"))


def test_every_game_has_an_adapter() -> None:
    assert set(GAMES) <= set(ADAPTERS), f"no adapter for {sorted(set(GAMES) - set(ADAPTERS))}"


# Every step of a game


def check_move_shape(move: Any, label: str) -> None:
    """A move is a one-key JSON object; card lists inside it are in card order."""
    assert isinstance(move, dict) and len(move) == 1, f"{label}: {move!r} is not a one-key object"
    assert json.loads(json.dumps(move)) == move, f"{label}: {move!r} is not plain JSON"
    (value,) = move.values()
    if isinstance(value, list) and all(isinstance(v, str) for v in value):
        assert value == sort_names(value), f"{label}: {move!r} lists cards out of card order"


def check_deal_event(walk: Walk, event: dict, whole_deck: bool) -> None:
    """A ``deal`` event has the PROTOCOL.md shape and describes the state's deal now."""
    label = walk.label
    assert set(event) == {"deal"}, f"{label}: {event}"
    deal = event["deal"]
    assert {"dealer", "hands", "stock", "pool", "crib"} <= set(deal), f"{label}: deal keys {sorted(deal)}"
    assert isinstance(deal["dealer"], int) and 0 <= deal["dealer"] < walk.players
    assert len(deal["hands"]) == walk.players
    laid = [c for hand in deal["hands"] for c in hand] + deal["stock"] + deal["pool"] + deal["crib"]
    assert len(laid) == len(set(laid)), f"{label}: a card laid out twice in {deal}"
    deck = walk.adapter.deck(walk.players)
    assert set(laid) <= deck
    if whole_deck:
        assert set(laid) == deck, f"{label}: the deal lays out {len(laid)} of {len(deck)} cards"
    for hand in deal["hands"]:
        assert hand == sort_names(hand)
    places = walk.places()
    for seat, hand in enumerate(deal["hands"]):
        assert sorted(hand) == sorted(places[f"hand:{seat}"]), f"{label}: seat {seat} was dealt {hand}"
    assert deal["stock"] == places.get("stock", []), (
        f"{label}: the deal's stock is not the state's, top first"
    )
    assert walk.game.deal_event(walk.state) == event


def check_to_act(walk: Walk, places: Places) -> list[int]:
    """Seats to act each have a legal move, the others none; nobody acts once it is over.

    Every card a legal move names is in that seat's hand.
    """
    game, state, label = walk.game, walk.state, walk.label
    seats = game.to_act(state)
    assert seats == sorted(set(seats)), f"{label}: to_act {seats}"
    if game.is_over(state):
        assert seats == [], f"{label}: the game is over but {seats} are to act"
    else:
        assert seats, f"{label}: nobody is to act and the game is not over"
    for seat in range(walk.players):
        moves = game.legal_moves(state, seat)
        if seat in seats:
            assert moves, f"{label}: seat {seat} is to act with no legal move"
            assert len({json.dumps(m, sort_keys=True) for m in moves}) == len(moves), (
                f"{label}: repeated moves"
            )
            for move in moves:
                check_move_shape(move, label)
                named = set(card_strings(move))
                assert named <= set(places[f"hand:{seat}"]), f"{label}: seat {seat} may play {move} not held"
        else:
            assert moves == [], f"{label}: seat {seat} is not to act but has moves"
    return seats


def check_views(walk: Walk, seats: list[int], places: Places) -> dict[int | None, dict]:
    """Each seat's and a spectator's view: the PROTOCOL.md keys, and no card it may not see."""
    game, state, label = walk.game, walk.state, walk.label
    data = game.to_json(state)
    over = game.is_over(state)
    views: dict[int | None, dict] = {}
    for seat in [*range(walk.players), None]:
        view = game.view(state, seat)
        views[seat] = view
        where = f"{label} view for {seat}"
        text = json.dumps(view)
        assert json.loads(text) == view, f"{where}: not plain JSON"
        assert set(view) >= VIEW_KEYS, f"{where}: missing {sorted(VIEW_KEYS - set(view))}"
        assert ("result" in view) == over, f"{where}: result shown {'result' in view}, over {over}"
        assert (view["phase"] == "over") == over, f"{where}: phase {view['phase']!r}, over {over}"
        assert view["turn"] == (seats[0] if len(seats) == 1 else None), (
            f"{where}: turn {view['turn']}, {seats}"
        )
        assert len(view["hand_counts"]) == walk.players and len(view["scores"]) == walk.players
        assert 0 <= view["dealer"] < walk.players
        if over:
            assert view["result"] == game.result(state)
        last = view["last"]
        assert last is None or (set(last) == {"seat", "move"} and 0 <= last["seat"] < walk.players), where
        if seat is None:
            assert "hand" not in view, f"{where}: a spectator has a hand"
        else:
            assert view["hand"] == sort_names(view["hand"]), f"{where}: hand out of card order"
            assert sorted(view["hand"]) == sorted(places[f"hand:{seat}"]), f"{where}: hand {view['hand']}"
        hidden = {c for name in hidden_places(places, seat, view["phase"]) for c in places[name]}
        hidden -= walk.adapter.known(data, seat)
        leaked = set(card_strings(view)) & hidden
        assert not leaked, f"{where}: shows {sorted(leaked)} it may not see"
    for seat in range(walk.players):
        assert views[seat]["hand_counts"] == views[None]["hand_counts"]
        assert views[None]["hand_counts"][seat] == len(views[seat]["hand"]), f"{label}: hand_counts"
        assert views[seat]["scores"] == views[None]["scores"]
    return views


def check_result(walk: Walk) -> None:
    """A finished game's result: a score per seat, winners the seats sharing the best."""
    result = walk.game.result(walk.state)
    assert set(result) >= {"scores", "winners"}, walk.label
    scores, winners = result["scores"], result["winners"]
    assert len(scores) == walk.players
    best = min(scores) if walk.adapter.lowest_wins else max(scores)
    assert winners == [s for s, score in enumerate(scores) if score == best], f"{walk.label}: {result}"


@pytest.mark.parametrize(("game_id", "players", "options"), walk_cases())
@WALK
@given(data=st.data())
def test_every_step_keeps_the_cards_the_turns_and_the_views(
    game_id: str, players: int, options: dict[str, Any], data: st.DataObject
) -> None:
    walk = new_walk(data, game_id, players, options)
    game = walk.game
    assert walk.state.players == players and walk.state.options == walk.options
    assert game.result(walk.state) is None
    check_deal_event(walk, game.deal_event(walk.state), whole_deck=True)
    last_dealer = game.deal_event(walk.state)["deal"]["dealer"]
    while True:
        places = walk.places()
        before = snapshot(game, walk.state)
        seats = check_to_act(walk, places)
        views = check_views(walk, seats, places)
        assert snapshot(game, walk.state) == before, f"{walk.label}: asking about the state changed it"
        assert views[None]["dealer"] == last_dealer, f"{walk.label}: the view's dealer is not the deal's"
        if game.is_over(walk.state):
            break
        assert game.result(walk.state) is None
        held = game.to_json(walk.state)
        held_text = json.dumps(held, sort_keys=True)
        others = {s: game.legal_moves(walk.state, s) for s in seats}
        seat, move, events = walk.step()
        if len(seats) > 1:
            # Seats acting at once: one seat's move leaves the others' choices as they were.
            after = game.to_act(walk.state)
            assert after == [s for s in seats if s != seat], f"{walk.label}: to_act {seats} then {after}"
            for other in after:
                assert game.legal_moves(walk.state, other) == others[other], f"{walk.label}: {seat} moved"
        # to_json is a snapshot: a later move does not reach into it.
        assert json.dumps(held, sort_keys=True) == held_text, (
            f"{walk.label}: to_json shares the state's lists"
        )
        for event in events:
            assert isinstance(event, dict) and len(event) == 1 and set(event) <= {"deal", "starter"}, event
            assert json.loads(json.dumps(event)) == event
        deals = [e for e in events if "deal" in e]
        for event in deals:
            check_deal_event(walk, event, whole_deck=walk.adapter.redeals_whole_deck)
            last_dealer = event["deal"]["dealer"]
        if not deals:
            mover_view = game.view(walk.state, seat)
            assert mover_view["last"] == {"seat": seat, "move": move}, (
                f"{walk.label}: last {mover_view['last']}"
            )
            assert game.view(walk.state, None)["last"]["seat"] == seat
    check_result(walk)
    for seat in range(players):
        assert game.legal_moves(walk.state, seat) == []


# JSON, determinism, clones


@pytest.mark.parametrize(("game_id", "players", "options"), walk_cases())
@PROPERTY
@given(data=st.data())
def test_json_round_trip_continues_identically(
    game_id: str, players: int, options: dict[str, Any], data: st.DataObject
) -> None:
    walk = new_walk(data, game_id, players, options)
    game = walk.game
    walk.play_to(data.draw(st.integers(0, 400), label="moves before the round trip"))
    text = snapshot(game, walk.state)
    copy = game.from_json(json.loads(text))
    assert snapshot(game, copy) == text, f"{walk.label}: from_json(to_json(s)) is not s"
    for seat in [*range(players), None]:
        assert game.view(copy, seat) == game.view(walk.state, seat), walk.label
    while not game.is_over(walk.state):
        assert game.to_act(copy) == game.to_act(walk.state)
        seat, move = walk.choose()
        assert game.legal_moves(copy, seat) == game.legal_moves(walk.state, seat)
        events = list(game.apply(walk.state, seat, move))
        assert list(game.apply(copy, seat, move)) == events, (
            f"{walk.label}: events differ after the round trip"
        )
        assert snapshot(game, copy) == snapshot(game, walk.state), f"{walk.label}: states differ after {move}"
    assert game.is_over(copy) and game.result(copy) == game.result(walk.state)


@pytest.mark.parametrize(("game_id", "players", "options"), walk_cases())
@PROPERTY
@given(data=st.data())
def test_the_same_seed_and_moves_give_the_same_game_checked_or_not(
    game_id: str, players: int, options: dict[str, Any], data: st.DataObject
) -> None:
    walk = new_walk(data, game_id, players, options)
    game = walk.game
    again = game.new(players, walk.options, walk.state.seed)
    assert snapshot(game, again) == snapshot(game, walk.state)
    unchecked = game.clone(again)
    while not game.is_over(walk.state):
        seat, move, events = walk.step()
        assert list(game.apply(again, seat, move)) == events
        assert snapshot(game, again) == snapshot(game, walk.state), f"{walk.label}: diverged at {move}"
        # The search bots' unchecked path makes the very same move.
        assert list(game.advance(unchecked, seat, move)) == events
        assert snapshot(game, unchecked) == snapshot(game, walk.state), (
            f"{walk.label}: advance differs at {move}"
        )
    assert game.result(again) == game.result(walk.state) == game.result(unchecked)


@pytest.mark.parametrize(("game_id", "players", "options"), walk_cases())
@PROPERTY
@given(data=st.data())
def test_clone_is_independent(
    game_id: str, players: int, options: dict[str, Any], data: st.DataObject
) -> None:
    walk = new_walk(data, game_id, players, options)
    game = walk.game
    walk.play_to(data.draw(st.integers(0, 300), label="moves before the clone"))
    original = snapshot(game, walk.state)
    copy = game.clone(walk.state)
    assert snapshot(game, copy) == original
    rng = random.Random(walk.moves)
    while not game.is_over(copy):
        seats = game.to_act(copy)
        seat = seats[rng.randrange(len(seats))]
        game.apply(copy, seat, game.random_move(copy, seat, rng))
    assert snapshot(game, walk.state) == original, f"{walk.label}: playing the clone changed the original"
    # And the other way: playing the original leaves a clone alone.
    copy = game.clone(walk.state)
    walk.play_to(walk.moves + 30)
    assert snapshot(game, copy) == original, f"{walk.label}: playing the original changed its clone"


# Bad moves


def junk_moves(walk: Walk, seat: int) -> list[Any]:
    """Return malformed and illegal moves for ``seat``, none of them legal."""
    rng = walk.rng
    legal = walk.game.legal_moves(walk.state, seat)
    held = set(walk.places()[f"hand:{seat}"])
    not_held = sorted(CARDS - held)
    some = sort_names(rng.sample(not_held, 3))
    junk: list[Any] = [
        None,
        0,
        "play",
        "QS",
        [],
        ["QS"],
        True,
        {},
        {"play": None},
        {"play": 7},
        {"play": ["AC"]},
        {"play": "ZZ"},
        {"play": "qs"},
        {"play": rng.choice(not_held)},
        {"pass": "QS"},
        {"pass": some},
        {"pass": some[::-1]},
        {"discard": some[:2]},
        {"discard": 2},
        {"go": False},
        {"go": "yes"},
        {"go": True, "play": "QS"},
        {"resign": True},
    ]
    for move in rng.sample(legal, min(3, len(legal))):
        ((key, value),) = move.items()
        junk.append({**move, "extra": 1})
        junk.append({key + "s": value})
        if isinstance(value, list) and len(value) > 1:
            junk.append({key: value[::-1]})  # out of card order: moves compare exactly
            junk.append({key: value[:-1]})
            junk.append({key: [*value[:-1], rng.choice(not_held)]})
    return [m for m in junk if m not in legal]


def check_refused(walk: Walk, seat: Any, move: Any) -> None:
    """Applying ``move`` for ``seat`` raises a GameError with a protocol code and changes nothing."""
    game = walk.game
    before = snapshot(game, walk.state)
    with pytest.raises(GameError) as caught:
        game.apply(walk.state, seat, move)
    assert caught.value.code in REFUSAL_CODES, f"{walk.label}: {move!r} refused with {caught.value.code}"
    assert str(caught.value), f"{walk.label}: {move!r} refused without a message"
    assert snapshot(game, walk.state) == before, (
        f"{walk.label}: refusing {move!r} for {seat!r} changed the state"
    )


@pytest.mark.parametrize(("game_id", "players", "options"), walk_cases())
@PROPERTY
@given(data=st.data())
def test_illegal_moves_are_refused_and_change_nothing(
    game_id: str, players: int, options: dict[str, Any], data: st.DataObject
) -> None:
    walk = new_walk(data, game_id, players, options)
    game = walk.game
    stops = sorted(data.draw(st.lists(st.integers(0, 300), min_size=1, max_size=3), label="stops"))
    for stop in stops:
        walk.play_to(stop)
        if game.is_over(walk.state):
            break
        seats = game.to_act(walk.state)
        for seat in seats:
            for move in junk_moves(walk, seat):
                check_refused(walk, seat, move)
        # A legal move made by a seat that is not to act, or by no seat at all.
        move = game.legal_moves(walk.state, seats[0])[0]
        for other in [s for s in range(players) if s not in seats] + [-1, players, 99, None, "0"]:
            check_refused(walk, other, move)
    walk.play_to(10**9)
    for seat in range(players):
        check_refused(walk, seat, {"play": "QS"})
        check_refused(walk, seat, {"go": True})


# Determinize


@pytest.mark.parametrize(("game_id", "players", "options"), walk_cases())
@PROPERTY
@given(data=st.data())
def test_determinize_keeps_what_the_seat_knows(
    game_id: str, players: int, options: dict[str, Any], data: st.DataObject
) -> None:
    walk = new_walk(data, game_id, players, options)
    game = walk.game
    stops = sorted(data.draw(st.lists(st.integers(0, 300), min_size=1, max_size=3), label="stops"))
    rng = random.Random(stops[0])
    for stop in stops:
        walk.play_to(stop)
        if game.is_over(walk.state):
            break
        before = snapshot(game, walk.state)
        for seat in range(players):
            det = game.determinize(walk.state, seat, rng)
            where = f"{walk.label} determinized for {seat} after {walk.moves} moves"
            assert snapshot(game, walk.state) == before, f"{where}: determinize changed the state"
            assert game.view(det, seat) == game.view(walk.state, seat), f"{where}: the seat's view changed"
            assert game.to_act(det) == game.to_act(walk.state), where
            assert game.legal_moves(det, seat) == game.legal_moves(walk.state, seat), where
            walk.places(det)
            # The search bots play on from a determinized state: it must be a sound game.
            for _ in range(40):
                if game.is_over(det):
                    break
                seats = game.to_act(det)
                mover = seats[rng.randrange(len(seats))]
                game.apply(det, mover, game.random_move(det, mover, rng))
                walk.places(det)
            assert snapshot(game, walk.state) == before, (
                f"{where}: playing the determinized state changed the state"
            )


@pytest.mark.parametrize(("game_id", "players"), CASES)
def test_determinize_deals_the_unseen_cards_anew(game_id: str, players: int) -> None:
    # A determinization that copied the true hands would let a search bot cheat.
    walk = Walk(game_id, players, {}, seed=21, move_seed=21)
    rng = random.Random(5)
    for moves in (0, players):
        walk.play_to(moves)
        places = walk.places()
        for seat in range(players):
            phase = walk.game.view(walk.state, seat)["phase"]
            assert phase != "over"
            hidden = hidden_places(places, seat, phase)
            truth = {name: sorted(places[name]) for name in hidden}
            assert sum(len(cards) for cards in truth.values()) > 1, "nothing hidden to deal anew"
            guesses = []
            for _ in range(4):
                det = walk.places(walk.game.determinize(walk.state, seat, rng))
                guesses.append({name: sorted(det.get(name, [])) for name in hidden})
            assert any(guess != truth for guess in guesses), (
                f"{walk.label}: seat {seat} sees the hidden cards"
            )


# Options


@pytest.mark.parametrize("game_id", sorted(GAMES))
def test_info_and_bad_options(game_id: str) -> None:
    game = GAMES[game_id]
    info = game.info
    assert info.id == game_id
    assert info.min_players <= info.default_players <= info.max_players
    assert "cardstock" in info.presets
    for name, option in info.options.items():
        assert option.default in option.choices, name
    listed = info.to_json()
    preset = listed["options"]["preset"]
    assert {key: preset[key] for key in ("default", "choices")} == {
        "default": "standard",
        "choices": ["standard", "cardstock"],
    }
    assert game.new(None, None, seed=1).players == info.default_players
    bad: list[tuple[Any, Any]] = [
        (info.min_players - 1, {}),
        (info.max_players + 1, {}),
        (str(info.default_players), {}),
        (None, {"no_such_option": 1}),
        (None, {"preset": "no_such_preset"}),
        (None, {"preset": 1}),
        (None, []),
    ]
    for name, option in info.options.items():
        for value in ["nonsense", None, 10**6, [option.default], {"value": option.default}]:
            if value not in option.choices:
                bad.append((None, {name: value}))
    for players, options in bad:
        with pytest.raises(OptionsError) as caught:
            game.new(players, options, seed=1)
        assert caught.value.code == "bad_options" and str(caught.value), (players, options)
