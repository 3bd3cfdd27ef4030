"""``Game.random_move`` keeps the law of a uniform choice among ``legal_moves``.

Hearts' pass and Cribbage's two-card discard are drawn without listing every
move; each is checked with a chi-square test over many seeded draws (so it
cannot flake), and the same statistic is shown to catch a biased sampler. Where
a game draws from its move list (Hearts' play, every other game), the move must
be the very one the base class picks for the same random number.
"""

from __future__ import annotations

import json
import math
import random
from collections import Counter
from collections.abc import Callable, Iterator
from itertools import combinations
from typing import Any

import pytest

from games import GAMES
from games.bots import RandomBot
from games.cards import CARD_INDEX, CARD_NAMES, cards_in, sort_names
from games.engine import Game, GameError, GameOverError, NotYourTurnError, deal_hidden
from games.hearts import GAME as HEARTS

DRAWS_PER_MOVE = 100  # expected draws of each legal move in a chi-square test


def chi_square(counts: Counter, categories: list[Any], draws: int) -> float:
    """Return Pearson's statistic for ``counts`` against a uniform law over ``categories``."""
    expected = draws / len(categories)
    return sum((counts[c] - expected) ** 2 / expected for c in categories)


def bound(categories: int) -> float:
    """Return a chi-square bound (df + 6 standard deviations): a uniform sampler stays far below."""
    df = categories - 1
    return df + 6 * math.sqrt(2 * df)


def draw_counts(sample: Callable[[random.Random], Any], draws: int, seed: int) -> Counter:
    """Count ``draws`` moves from ``sample``, keyed by their JSON."""
    rng = random.Random(seed)
    return Counter(json.dumps(sample(rng)) for _ in range(draws))


def assert_uniform(game: Game, state: Any, seat: int, seed: int) -> None:
    """Draw many ``random_move``s: each is legal, all legal moves appear, chi-square is small."""
    legal = [json.dumps(move) for move in game.legal_moves(state, seat)]
    before = json.dumps(game.to_json(state))
    draws = DRAWS_PER_MOVE * len(legal)
    counts = draw_counts(lambda rng: game.random_move(state, seat, rng), draws, seed)
    assert json.dumps(game.to_json(state)) == before  # drawing changes nothing
    assert set(counts) == set(legal)
    assert chi_square(counts, legal, draws) < bound(len(legal))


@pytest.mark.parametrize("players", [3, 4, 5])
def test_hearts_pass_is_uniform_over_the_legal_triples(players: int) -> None:
    state = HEARTS.new(players, {"passing": "rotate"}, seed=players)
    assert state.phase == "pass"
    hand = len(HEARTS.legal_moves(state, 0))
    assert hand == math.comb({3: 17, 4: 13, 5: 10}[players], 3)
    assert_uniform(HEARTS, state, seat=players - 1, seed=11 * players)


def test_hearts_pass_after_some_seats_passed_is_uniform_and_refused_to_a_passed_seat() -> None:
    state = HEARTS.new(4, None, seed=8)
    rng = random.Random(1)
    HEARTS.apply(state, 0, HEARTS.random_move(state, 0, rng))
    HEARTS.apply(state, 2, HEARTS.random_move(state, 2, rng))
    assert_uniform(HEARTS, state, seat=1, seed=2)
    with pytest.raises(NotYourTurnError):
        HEARTS.random_move(state, 0, rng)
    with pytest.raises(NotYourTurnError):
        HEARTS.random_move(state, 4, rng)  # no such seat


def test_the_statistic_catches_a_biased_pass_sampler() -> None:
    """The bound is not so loose that a plausible mistake passes it."""
    state = HEARTS.new(4, None, seed=3)
    names = [CARD_NAMES[c] for c in cards_in(state.hands[0])]
    legal = [json.dumps({"pass": list(t)}) for t in combinations(names, 3)]
    draws = DRAWS_PER_MOVE * len(legal)

    def fair(rng: random.Random) -> dict:
        # For contrast, the textbook draw: three cards without replacement, sorted.
        return {"pass": sorted(rng.sample(names, 3), key=CARD_INDEX.__getitem__)}

    def lowest_first(rng: random.Random) -> dict:
        # A common slip: the first card from the lower half of the hand only.
        first = rng.randrange(len(names) // 2 + 1)
        rest = rng.sample([n for i, n in enumerate(names) if i != first], 2)
        return {"pass": sort_names([names[first], *rest])}

    fair_counts = draw_counts(fair, draws, 5)
    biased = draw_counts(lowest_first, draws, 5)
    assert chi_square(fair_counts, legal, draws) < bound(len(legal))
    assert chi_square(biased, legal, draws) > 3 * bound(len(legal))


def test_cribbage_two_card_discard_is_uniform() -> None:
    game = GAMES["cribbage"]
    state = game.new(2, None, seed=4)
    assert state.phase == "discard" and len(game.legal_moves(state, 1)) == 15
    assert_uniform(game, state, seat=1, seed=9)
    game.apply(state, 1, game.random_move(state, 1, random.Random(0)))
    with pytest.raises(NotYourTurnError):
        game.random_move(state, 1, random.Random(0))


def random_states(game: Game, players: int, options: dict, seed: int, moves: int) -> Iterator[Any]:
    """Yield the states of random games, move by move, ``moves`` in all (games end, others start)."""
    rng = random.Random(seed)
    state = game.new(players, options, seed)
    for _ in range(moves):
        if game.is_over(state):
            seed += 1
            state = game.new(players, options, seed)
        yield state
        seat = game.to_act(state)[0]
        game.apply(state, seat, game.random_move(state, seat, rng))


OPTION_SETS = {
    "hearts": [
        {"passing": "none"},
        {"preset": "cardstock"},
        {"passing": "none", "first_trick_points": True, "first_lead": "left_of_dealer"},
    ],
}


@pytest.mark.parametrize(
    "game_id,players,options",
    [
        (game_id, n, options)
        for game_id, game in GAMES.items()
        for n in (game.info.min_players, game.info.max_players)
        for options in OPTION_SETS.get(game_id, [{}])
    ],
)
def test_a_move_drawn_from_the_list_is_the_base_class_pick(game_id: str, players: int, options: dict) -> None:
    """Every draw is legal and, outside the sampled pass and discard, the base class's very pick."""
    game = GAMES[game_id]
    checked = 0
    seed = sum(map(ord, game_id))  # each game through its own deals
    for step, state in enumerate(random_states(game, players, options, seed, moves=400)):
        # Hearts' pass and Cribbage's discard are drawn, not picked from the list.
        sampled = game_id in ("hearts", "cribbage") and state.phase in ("pass", "discard")
        for seat in game.to_act(state):
            legal = game.legal_moves(state, seat)
            for k in range(3):
                move = game.random_move(state, seat, random.Random(step * 7 + k))
                assert move in legal
                if not sampled:
                    assert move == Game.random_move(game, state, seat, random.Random(step * 7 + k))
                    checked += 1
    assert checked > 100


@pytest.mark.parametrize("game_id", list(GAMES))
def test_random_move_refuses_a_seat_not_to_act_and_a_finished_game(game_id: str) -> None:
    game = GAMES[game_id]
    rng = random.Random(3)
    state = game.new(None, None, seed=5)
    idle = [s for s in range(state.players) if s not in game.to_act(state)]
    for seat in idle:
        with pytest.raises(NotYourTurnError):
            game.random_move(state, seat, rng)
    while not game.is_over(state):
        seat = game.to_act(state)[0]
        game.advance(state, seat, game.random_move(state, seat, rng))
    with pytest.raises(GameOverError):
        game.random_move(state, 0, rng)


def test_random_bot_plays_the_games_random_move_from_its_seeded_rng() -> None:
    state = HEARTS.new(4, None, seed=6)
    bot = RandomBot(HEARTS, seed=12)
    assert bot.choose(state, 2) == HEARTS.random_move(state, 2, random.Random(12))


def test_deal_hidden_refuses_sizes_that_do_not_add_up_at_once() -> None:
    rng = random.Random(1)
    before = rng.getstate()
    # Too little room: the search would place cards until it found none fits.
    with pytest.raises(GameError, match="sizes"):
        deal_hidden(list(range(8)), [3, 3], [0, 0], rng)
    # Too much room: the deal would have come back with a hand short.
    with pytest.raises(GameError, match="sizes"):
        deal_hidden(list(range(6)), [3, 4], [0, 0], rng)
    with pytest.raises(GameError, match="sizes"):
        deal_hidden(list(range(6)), [7, -1], [0, 0], rng)
    with pytest.raises(GameError, match="forbidden"):
        deal_hidden(list(range(6)), [3, 3], [0], rng)
    assert rng.getstate() == before  # refused before any search
    # A whole pack one card short of the hands' room, which could backtrack for ages.
    with pytest.raises(GameError, match="sizes"):
        deal_hidden(list(range(38)), [13, 13, 13], [0, 1 << 40, 0], rng)


def test_deal_hidden_still_deals_when_the_sizes_add_up() -> None:
    hands = deal_hidden(list(range(12)), [5, 4, 3], [0, 0b1111, 0], random.Random(2))
    assert [h.bit_count() for h in hands] == [5, 4, 3]
    assert hands[0] | hands[1] | hands[2] == (1 << 12) - 1
    assert not hands[1] & 0b1111


def test_a_hand_made_state_too_short_to_pass_or_discard_is_refused_not_drawn_from() -> None:
    hearts = HEARTS.new(4, None, seed=1)
    hearts.hands[0] = 0b11  # two cards: no three to pass
    assert HEARTS.legal_moves(hearts, 0) == []
    with pytest.raises(GameError):
        HEARTS.random_move(hearts, 0, random.Random(1))
    cribbage = GAMES["cribbage"]
    state = cribbage.new(2, None, seed=1)
    state.hands[1] = 0b1  # one card: no two to discard
    assert cribbage.legal_moves(state, 1) == []
    with pytest.raises(GameError):
        cribbage.random_move(state, 1, random.Random(1))
