"""Cards: parsing and formatting, the project's card order, bitmask helpers."""

from __future__ import annotations

import random

import pytest

from games.cards import (
    CARD_INDEX,
    CARD_NAMES,
    FULL_DECK_MASK,
    PLAY_MOVES,
    SUIT_MASKS,
    card_name,
    cards_in,
    count,
    deck,
    mask_of,
    names_in,
    parse_card,
    play_moves,
    rank_of,
    shuffled,
    sort_names,
    spoken_name,
    suit_cards,
    suit_of,
    suit_play_moves,
)


def test_there_are_52_distinct_two_character_names() -> None:
    assert len(CARD_NAMES) == 52
    assert len(set(CARD_NAMES)) == 52
    assert all(len(name) == 2 for name in CARD_NAMES)
    assert {name[0] for name in CARD_NAMES} == set("A23456789TJQK")
    assert {name[1] for name in CARD_NAMES} == set("CDHS")


@pytest.mark.parametrize(
    ("name", "suit", "rank"),
    [("AC", 0, 0), ("2C", 0, 1), ("KC", 0, 12), ("TD", 1, 9), ("QS", 3, 11), ("JH", 2, 10), ("KS", 3, 12)],
)
def test_parse_gives_suit_times_13_plus_rank(name: str, suit: int, rank: int) -> None:
    card = parse_card(name)
    assert card == suit * 13 + rank
    assert suit_of(card) == suit
    assert rank_of(card) == rank
    assert card_name(card) == name


def test_parse_and_format_round_trip_every_card() -> None:
    for card in range(52):
        assert parse_card(card_name(card)) == card
    assert all(CARD_INDEX[name] == i for i, name in enumerate(CARD_NAMES))


@pytest.mark.parametrize("bad", ["", "Q", "QSX", "qs", "1S", "10D", "QX", "SQ", None, 5, 5.0, ["QS"], b"QS"])
def test_parse_refuses_what_is_not_a_card(bad: object) -> None:
    with pytest.raises(ValueError, match="not a card"):
        parse_card(bad)


def test_spoken_names() -> None:
    assert spoken_name(parse_card("QS")) == "Queen of spades"
    assert spoken_name(parse_card("TD")) == "10 of diamonds"
    assert spoken_name(parse_card("AC")) == "Ace of clubs"
    assert spoken_name(parse_card("2H")) == "2 of hearts"


def test_card_order_is_suit_c_d_h_s_then_rank_ace_low() -> None:
    names = ["KS", "2C", "AD", "TH", "AC", "QS", "KC", "9D", "AH", "AS"]
    assert sort_names(names) == ["AC", "2C", "KC", "AD", "9D", "AH", "TH", "AS", "QS", "KS"]
    assert sort_names(CARD_NAMES[::-1]) == list(CARD_NAMES)
    shuffled_names = list(CARD_NAMES)
    random.Random(3).shuffle(shuffled_names)
    assert sort_names(shuffled_names) == list(CARD_NAMES)


def test_sort_names_refuses_unknown_cards() -> None:
    with pytest.raises(KeyError):
        sort_names(["QS", "ZZ"])


def test_mask_round_trips_in_card_order() -> None:
    rng = random.Random(7)
    for _ in range(200):
        chosen = rng.sample(range(52), rng.randrange(53))
        mask = mask_of(chosen)
        assert cards_in(mask) == sorted(chosen)
        assert names_in(mask) == sort_names(CARD_NAMES[c] for c in chosen)
        assert count(mask) == len(chosen)
    assert mask_of([]) == 0
    assert cards_in(0) == []
    assert mask_of(range(52)) == FULL_DECK_MASK
    assert cards_in(FULL_DECK_MASK) == list(range(52))


def test_mask_of_is_a_set() -> None:
    assert mask_of([5, 5, 5]) == 1 << 5
    assert count(mask_of([1, 2, 2, 40])) == 3


def test_suit_masks_split_the_deck() -> None:
    assert sum(SUIT_MASKS) == FULL_DECK_MASK
    for suit, suit_mask in enumerate(SUIT_MASKS):
        assert {suit_of(c) for c in cards_in(suit_mask)} == {suit}
        assert count(suit_mask) == 13


def test_suit_cards_and_moves_pick_one_suit() -> None:
    hand = mask_of(parse_card(n) for n in ["AC", "KC", "3D", "TH", "2H", "QS"])
    assert [card_name(c) for c in suit_cards(hand, 2)] == ["2H", "TH"]
    assert suit_cards(hand, 1) == (parse_card("3D"),)
    assert suit_play_moves(hand, 0) == [{"play": "AC"}, {"play": "KC"}]
    assert suit_play_moves(hand, 3) == [{"play": "QS"}]
    assert suit_play_moves(mask_of([parse_card("QS")]), 1) == []


def test_play_moves_are_shared_and_in_card_order() -> None:
    hand = mask_of(parse_card(n) for n in ["QS", "2C", "TH", "AD"])
    moves = play_moves(hand)
    assert moves == [{"play": "2C"}, {"play": "AD"}, {"play": "TH"}, {"play": "QS"}]
    # The very objects of PLAY_MOVES: the hot path allocates no move dicts.
    assert all(move is PLAY_MOVES[parse_card(move["play"])] for move in moves)
    assert play_moves(0) == []
    assert len(play_moves(FULL_DECK_MASK)) == 52


def test_deck_excludes_named_cards_and_refuses_bad_names() -> None:
    assert deck() == list(range(52))
    small = deck(exclude=["2D", "2C"])
    assert len(small) == 50
    assert parse_card("2D") not in small and parse_card("2C") not in small
    assert small == sorted(small)
    with pytest.raises(ValueError):
        deck(exclude=["XX"])


def test_shuffled_is_fixed_by_seed_and_deal_and_leaves_its_input() -> None:
    cards_list = deck()
    first = shuffled(cards_list, 17, 0)
    assert cards_list == list(range(52))
    assert sorted(first) == cards_list
    assert shuffled(cards_list, 17, 0) == first
    assert shuffled(cards_list, 17, 1) != first
    assert shuffled(cards_list, 18, 0) != first


def test_shuffled_spreads_every_card_evenly_over_the_places() -> None:
    # Over many (seed, deal) pairs each card lands in each place about equally
    # often, a short deck included; and the seeds a game may get all work.
    for cards_list in (deck(), deck(exclude=["2D", "2C"])):
        size = len(cards_list)
        rounds = 60 * size
        counts = [[0] * size for _ in range(size)]
        for n in range(rounds):
            for place, card in enumerate(shuffled(cards_list, n // 7 - 40, n % 7)):
                counts[cards_list.index(card)][place] += 1
        expected = rounds / size
        statistic = sum((c - expected) ** 2 / expected for row in counts for c in row)
        df = (size - 1) ** 2  # a contingency table: rows and columns each sum to ``rounds``
        assert statistic < df + 6 * (2 * df) ** 0.5, statistic
    assert sorted(shuffled(deck(), -(10**30), 2**40)) == deck()


class _Slotted:
    __slots__ = ("options", "hands", "trick", "scores", "pending", "bundles", "turn")


def test_card_fields_clone_copies_every_declared_list() -> None:
    from games.cards import CardFields

    fields = CardFields(
        _Slotted.__slots__,
        mask_lists=("hands",),
        card_lists=("trick",),
        copied=("scores",),
        lists=("pending",),
        nested=("bundles",),
    )
    state = _Slotted()
    state.options, state.hands, state.trick, state.scores = {}, [1, 2], [3], [0, 0]
    state.pending, state.bundles, state.turn = [None, 4], [[5], [6, 7]], 1
    copy = fields.clone(state)
    assert type(copy) is _Slotted and copy.turn == 1
    for name in ("hands", "trick", "scores", "pending", "bundles"):
        assert getattr(copy, name) == getattr(state, name) and getattr(copy, name) is not getattr(state, name)
    copy.bundles[0].append(9)
    assert state.bundles == [[5], [6, 7]]
    with pytest.raises(ValueError, match="no slot named nope"):
        CardFields(_Slotted.__slots__, lists=("nope",))
