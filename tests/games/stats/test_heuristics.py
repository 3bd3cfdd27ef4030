"""CardStock's heuristics on small constructed records, every value computed by hand."""

from __future__ import annotations

import math

import pytest

from games.stats import heuristics as h
from games.stats.experiments import GameRecord
from games.stats.players import Estimate
from games.stats.report import heuristics, winner_history


def test_ranks_share_the_better_place_and_follow_the_direction() -> None:
    assert h.ranks_of([5, 9, 9, 1], lowest_wins=False) == [2, 0, 0, 3]
    assert h.ranks_of([5, 9, 9, 1], lowest_wins=True) == [1, 2, 2, 0]
    assert h.ranks_of([3, 3, 3], lowest_wins=False) == [0, 0, 0]


def test_rank_estimate_is_one_for_first_and_zero_for_last() -> None:
    assert h.rank_estimate(0, 4) == 1
    assert h.rank_estimate(3, 4) == 0
    assert h.rank_estimate(1.5, 4) == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("wins", "games", "players", "expected"),
    [
        (25, 100, 4, 1.0),
        (10, 100, 4, 0.4),
        (50, 100, 4, 2 / 3),
        (100, 100, 4, 0.0),
        (0, 100, 4, 0.0),
        (3, 4, 2, 0.5),
    ],
)
def test_fairness_peaks_at_the_fair_share(wins: int, games: int, players: int, expected: float) -> None:
    assert h.fairness(wins, games, players) == pytest.approx(expected)


def test_convergence_of_shrinking_flat_and_growing_choices() -> None:
    # [4,3,2,1]: slope -1, so 1 - (-0.5 + 0.5) = 1; [1,1]: slope 0 gives 0.5; [5] is left out.
    assert h.convergence([[4, 3, 2, 1], [1, 1], [5]]) == pytest.approx(0.75)
    # [1,3]: slope 2, so 1 - (1 + 0.5) = -0.5 (CardStock does not clip it).
    assert h.convergence([[1, 3]]) == pytest.approx(-0.5)
    assert h.convergence([]) == 0.0


def test_slope_is_least_squares() -> None:
    assert h.slope([0, 1, 2, 3], [1, 3, 2, 6]) == pytest.approx(1.4)


def test_order_scales_the_search_gain_over_the_fair_share() -> None:
    assert h.order(55, 100, 4) == pytest.approx(0.4)
    assert h.order(25, 100, 4) == pytest.approx(0.0)
    assert h.order(10, 10, 2) == pytest.approx(1.0)


def test_drama_threshold_is_midway_between_first_and_second() -> None:
    assert h.drama_threshold(2) == pytest.approx(0.5)
    assert h.drama_threshold(4) == pytest.approx((1 + 2 / 3) / 2)


def test_drama_and_security_from_winners_histories() -> None:
    # Two players, threshold 0.5. Game 1: 0.25 and 0.41 are below: sqrt(.25)=.5, sqrt(.09)=.3,
    # drama .4, security 1 - 2/4. Game 2: never below: drama 0, security 1. An empty one is left out.
    drama, security = h.drama_and_security([[0.25, 0.5, 1.0, 0.41], [0.9, 1.0], []], 2)
    assert drama == pytest.approx(0.2)
    assert security == pytest.approx(0.75)
    assert h.drama_and_security([], 3) == (0.0, 0.0)


def test_spread_is_the_mean_gap() -> None:
    assert h.spread([0.1, 0.3]) == pytest.approx(0.2)
    assert h.spread([]) == 0.0


def test_the_winner_of_a_shared_first_place_is_the_highest_seat() -> None:
    record = GameRecord(
        [2, 1], [0, 1, 0], 0, [Estimate(0, [0.5, 0.0, 1.0], 0.2), Estimate(2, [1.0, 0.0, 0.5], 0.4)]
    )
    assert winner_history(record) == [1.0, 0.5]


def test_heuristics_read_the_right_experiment() -> None:
    # Two players. Random: the first player (seat 1 here) wins 1 game of 2: fairness 1.
    # One search: seat 0 wins both: order 1; its spreads .2 and .4 (seat 1's .9 is not its own).
    # All search: the winner (seat 1) was at .25 once of twice: drama sqrt(.25) = .5, security .5.
    rnd = [GameRecord([3, 2, 1], [0, 1], 1), GameRecord([2, 2], [1, 0], 1)]
    one = [
        GameRecord([2], [0, 1], 0, [Estimate(0, [1, 0], 0.2), Estimate(1, [1, 0], 0.9)]),
        GameRecord([2], [0, 1], 0, [Estimate(0, [1, 0], 0.4)]),
    ]
    every = [GameRecord([2], [1, 0], 0, [Estimate(0, [0.75, 0.25], 0.1), Estimate(1, [0, 1], 0.1)])]
    values = heuristics({"random": rnd, "one_search": one, "all_search": every}, 2)
    assert values["fairness"] == pytest.approx(1.0)
    assert values["convergence"] == pytest.approx((1.0 + 0.5) / 2)
    assert values["order"] == pytest.approx(1.0)
    assert values["spread"] == pytest.approx(0.3)
    assert values["drama"] == pytest.approx(math.sqrt(0.25))
    assert values["security"] == pytest.approx(0.5)


def test_an_experiment_not_run_gives_no_value() -> None:
    values = heuristics({"random": [GameRecord([1], [0, 1], 0)], "one_search": [], "all_search": []}, 2)
    assert values["fairness"] == pytest.approx(0.0)  # the first player won every game: (-2/1)*1 + 2
    assert values["order"] is None and values["drama"] is None and values["spread"] is None
