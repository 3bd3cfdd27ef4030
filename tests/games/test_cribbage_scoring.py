"""Cribbage's show: hand_value, its breakdown, select_hand and the score distribution."""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

import pytest

from games.cards import CARD_NAMES, parse_card, sort_names
from games.cribbage import hand_breakdown, hand_value, select_hand
from games.cribbage.distribution import TOTAL_SHOWS, mean, rank_shows, score_counts, shows_of_ranks
from games.cribbage.scoring import keep_totals, rank_multisets

# The seed's worked examples (seeds/002), suits spelled as letters.
SEED_EXAMPLES = [
    (["7C", "QH", "2C", "JC"], "9H", 0),
    (["AS", "3H", "KH", "7H"], "KS", 2),
    (["AS", "3H", "KH", "7H"], "2D", 5),
    (["6C", "7C", "8C", "9C"], "8S", 20),
    (["7H", "9S", "8C", "7C"], "8H", 24),
    (["5H", "5S", "5C", "JD"], "5D", 29),
]

RANKS = "A23456789TJQK"


def naive_value(hand: list[str], start: str, crib: bool = False) -> int:
    """Score a show from first principles, sharing no code with games.cribbage."""
    five = [*hand, start]
    rank = {name: RANKS.index(name[0]) for name in five}
    value = {name: min(rank[name] + 1, 10) for name in five}
    points = 0
    for size in range(2, 6):
        points += 2 * sum(1 for combo in combinations(five, size) if sum(value[c] for c in combo) == 15)
    points += 2 * sum(1 for a, b in combinations(five, 2) if rank[a] == rank[b])
    for size in (5, 4, 3):
        runs = 0
        for combo in combinations(five, size):
            ranks = sorted(rank[c] for c in combo)
            if all(ranks[i + 1] == ranks[i] + 1 for i in range(size - 1)):
                runs += 1
        if runs:
            points += size * runs
            break
    if len({c[1] for c in hand}) == 1:
        if start[1] == hand[0][1]:
            points += 5
        elif not crib:
            points += 4
    if "J" + start[1] in hand:
        points += 1
    return points


@pytest.mark.parametrize(("hand", "start", "points"), SEED_EXAMPLES)
def test_the_seeds_worked_examples(hand: list[str], start: str, points: int) -> None:
    assert hand_value(hand, start) == points
    assert hand_breakdown(hand, start)["total"] == points


def test_the_seeds_prose_examples() -> None:
    # "a hand with a 2, 3, 5, 10, and king scores 8 points": four fifteens.
    assert hand_breakdown(["2C", "3D", "5H", "TS"], "KC")["points"]["fifteen"] == 8
    assert hand_value(["2C", "3D", "5H", "TS"], "KC") == 8
    # "a 2, 6, 8, and 9, with a 7 as the start card scores 4 points for a 4 card run"
    # "and a further 6 points for 15s (6+9, 7+8, and 2+6+7)".
    shown = hand_breakdown(["2C", "6D", "8H", "9S"], "7C")
    assert shown["points"]["run"] == 4 and shown["points"]["fifteen"] == 6 and shown["total"] == 10


def test_the_seeds_itemised_example_six_clubs_run() -> None:
    # 6C 7C 8C 9C with 8S: 7+8 twice, 6+9, the 8s pair, 6-7-8-9 twice, a four-card flush.
    shown = hand_breakdown(["6C", "7C", "8C", "9C"], "8S")
    assert shown["points"] == {"fifteen": 6, "pair": 2, "run": 8, "flush": 4, "nobs": 0}
    runs = [item["cards"] for item in shown["items"] if item["kind"] == "run"]
    assert runs == [["6C", "7C", "8C", "9C"], ["6C", "7C", "9C", "8S"]]
    assert [item["cards"] for item in shown["items"] if item["kind"] == "flush"] == [["6C", "7C", "8C", "9C"]]


def test_the_29_hand_itemised() -> None:
    shown = hand_breakdown(["5H", "5S", "5C", "JD"], "5D")
    kinds = Counter(item["kind"] for item in shown["items"])
    assert kinds == {"fifteen": 8, "pair": 6, "nobs": 1}
    assert shown["points"]["fifteen"] == 16 and shown["points"]["pair"] == 12
    assert {"kind": "nobs", "cards": ["JD"], "points": 1} in shown["items"]


@pytest.mark.parametrize(
    ("hand", "start", "points"),
    [
        (["5H", "5S", "5C", "5D"], "JS", 28),  # four fives and a ten-card, no nobs from the start jack
        (["5H", "5S", "5C", "5D"], "KS", 28),
        (["5H", "5S", "5C", "JH"], "5D", 28),  # the jack is not the start's suit
        (["7H", "7S", "8C", "8D"], "9H", 24),  # double double run, two pairs, four 7+8
        (["4H", "4S", "5C", "6D"], "6H", 24),
        (["3H", "3S", "3C", "9D"], "3D", 24),  # four threes: 12 for pairs, 3+3+9 six ways
        (["AH", "2H", "3H", "4H"], "5H", 12),  # run of five, 5-card flush, one fifteen
    ],
)
def test_classic_hands(hand: list[str], start: str, points: int) -> None:
    assert hand_value(hand, start) == points == naive_value(hand, start)


def test_a_four_card_flush_counts_in_a_hand_but_not_in_the_crib() -> None:
    # Even cards: no fifteens, no runs; only the flush.
    assert hand_value(["2H", "4H", "6H", "8H"], "KS") == 4
    assert hand_value(["2H", "4H", "6H", "8H"], "KS", crib=True) == 0
    assert hand_value(["2H", "4H", "6H", "8H"], "QH") == 5
    assert hand_value(["2H", "4H", "6H", "8H"], "QH", crib=True) == 5
    # Three hand cards and the start in a suit are no flush.
    assert hand_value(["2H", "4H", "6H", "8S"], "QH") == 0


def test_nobs_is_the_jack_in_hand_of_the_starts_suit_never_the_start_itself() -> None:
    assert hand_value(["JD", "2C", "4S", "6H"], "8D") == 1
    assert hand_value(["JD", "2C", "4S", "6H"], "8C") == 0
    # The start card a jack: the hand's jacks are other suits, so no nobs (his heels is the play's).
    assert hand_value(["2C", "4S", "6H", "8C"], "JH") == 0
    assert hand_value(["JC", "2C", "4S", "6H"], "JH") == 2  # the pair of jacks, no nobs
    assert hand_breakdown(["JC", "2C", "4S", "6H"], "JH")["points"]["nobs"] == 0


@pytest.mark.parametrize(
    ("hand", "start"),
    [
        (["5H", "5S", "5C"], "5D"),
        (["5H", "5S", "5C", "5D", "6D"], "7D"),
        (["5H", "5S", "5C", "5H"], "5D"),
        (["5H", "5S", "5C", "6H"], "5H"),
        (["5H", "5S", "5C", "1H"], "5D"),
        (["5H", "5S", "5C", "6H"], None),
        ("5H5S5C6H", "5D"),
    ],
)
def test_bad_shows_are_refused_clearly(hand: object, start: object) -> None:
    with pytest.raises(ValueError):
        hand_value(hand, start)  # type: ignore[arg-type]
    with pytest.raises(ValueError):
        hand_breakdown(hand, start)  # type: ignore[arg-type]


def test_hand_value_and_breakdown_agree_with_a_naive_count_on_random_shows() -> None:
    rng = random.Random(2024)
    for _ in range(3000):
        cards = rng.sample(CARD_NAMES, 5)
        hand, start = cards[:4], cards[4]
        crib = rng.random() < 0.3
        expected = naive_value(hand, start, crib)
        assert hand_value(hand, start, crib) == expected, (hand, start, crib)
        shown = hand_breakdown(hand, start, crib)
        assert shown["total"] == sum(item["points"] for item in shown["items"]) == expected


def naive_select(cards: list[str]) -> float:
    """The best average over the keeps, by scoring every keep with every start (the seed's hint 6)."""
    starts = [c for c in CARD_NAMES if c not in cards]
    return max(sum(naive_value(list(kept), s) for s in starts) for kept in combinations(cards, 4)) / len(
        starts
    )


@pytest.mark.parametrize("size", [5, 6])
def test_select_hand_keeps_a_best_average(size: int) -> None:
    rng = random.Random(size)
    for _ in range(25):
        cards = rng.sample(CARD_NAMES, size)
        hand, crib_cards = select_hand(cards)
        assert hand == sort_names(hand) and crib_cards == sort_names(crib_cards)
        assert len(hand) == 4 and sorted(hand + crib_cards) == sorted(cards)
        starts = [c for c in CARD_NAMES if c not in cards]
        average = sum(naive_value(hand, s) for s in starts) / len(starts)
        assert average == pytest.approx(naive_select(cards))


def test_every_keeps_total_over_the_starts_matches_the_naive_count() -> None:
    rng = random.Random(99)
    deals = [rng.sample(CARD_NAMES, rng.choice((5, 6))) for _ in range(12)]
    deals.append(["JC", "JD", "5H", "5S", "QC", "4D"])  # jacks for nobs, a flush-less keep
    deals.append(["2H", "4H", "6H", "JH", "5H", "KS"])  # a five-card suit: flushes and nobs
    for cards in deals:
        starts = [c for c in CARD_NAMES if c not in cards]
        for total, kept in keep_totals([parse_card(c) for c in cards]):
            hand = [CARD_NAMES[c] for c in kept]
            assert total == sum(naive_value(hand, s) for s in starts), (cards, hand)


def test_select_hand_keeps_the_obvious() -> None:
    assert select_hand(["5H", "5S", "5C", "JD", "KS", "2C"]) == (["5C", "JD", "5H", "5S"], ["2C", "KS"])
    # Nobs and the flush make the difference between otherwise equal keeps.
    hand, crib_cards = select_hand(["2H", "4H", "6H", "8H", "TS"])
    assert hand == ["2H", "4H", "6H", "8H"] and crib_cards == ["TS"]


@pytest.mark.parametrize(
    "cards", [["5H"] * 6, ["5H", "5S", "5C", "JD"], ["5H", "5S", "5C", "JD", "KS", "2C", "3C"], "5H5S5C5DJD"]
)
def test_select_hand_refuses_bad_deals(cards: object) -> None:
    with pytest.raises(ValueError):
        select_hand(cards)  # type: ignore[arg-type]


def test_all_12994800_shows_reproduce_the_published_distribution() -> None:
    counts = score_counts()
    assert sum(counts.values()) == TOTAL_SHOWS == 12_994_800
    assert round(mean(counts), 4) == 4.7692
    assert counts[29] == 4 and counts[28] == 76 and counts[24] == 3_680 and counts[0] == 1_009_008
    assert all(counts[points] == 0 for points in (19, 25, 26, 27))
    assert max(counts) == 29


def test_the_crib_distribution_only_loses_four_card_flushes() -> None:
    hand, crib = score_counts(), score_counts(crib=True)
    assert sum(crib.values()) == TOTAL_SHOWS
    # Each of the 715 sets of four ranks, in each of 4 suits, with any of the 39 off-suit start cards.
    four_card_flushes = 4 * 39 * sum(1 for ranks in rank_multisets(4) if len(set(ranks)) == 4)
    lost = sum(points * n for points, n in hand.items()) - sum(points * n for points, n in crib.items())
    assert lost == 4 * four_card_flushes


def test_the_closed_form_count_matches_scoring_every_card_on_a_sample() -> None:
    rng = random.Random(7)
    corners = [(4, 4, 4, 10), (4, 4, 4, 4), (6, 7, 7, 8), (0, 1, 2, 10)]
    sample = [*rng.sample(list(rank_multisets(4)), 40), *corners]
    checked = 0
    for ranks in sample:
        for start_rank in range(13):
            for crib in (False, True):
                shows = shows_of_ranks(ranks, start_rank, crib)
                assert rank_shows(ranks, start_rank, crib) == shows, (ranks, start_rank, crib)
                checked += sum(shows.values())
    assert checked > 200_000
