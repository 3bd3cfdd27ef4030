"""CardStock's heuristics on small hand-made records, every value and error computed by hand."""

from __future__ import annotations

import math

import pytest

from games.stats import heuristics as h
from games.stats.experiments import GameRecord
from games.stats.players import Estimate
from games.stats.report import fairness_basis, first_player_rates, heuristics, winner_history


def test_ranks_share_the_better_place_and_follow_the_direction() -> None:
    assert h.ranks_of([5, 9, 9, 1], lowest_wins=False) == [2, 0, 0, 3]
    assert h.ranks_of([5, 9, 9, 1], lowest_wins=True) == [1, 2, 2, 0]
    assert h.ranks_of([3, 3, 3], lowest_wins=False) == [0, 0, 0]


def test_rank_estimate_is_one_for_first_and_zero_for_last() -> None:
    assert h.rank_estimate(0, 4) == 1
    assert h.rank_estimate(3, 4) == 0
    assert h.rank_estimate(1.5, 4) == pytest.approx(0.5)


@pytest.mark.parametrize(
    ("rate", "players", "expected"),
    [(0.25, 4, 1.0), (0.10, 4, 0.4), (0.50, 4, 2 / 3), (1.0, 4, 0.0), (0.0, 4, 0.0), (0.75, 2, 0.5)],
)
def test_fairness_peaks_at_the_fair_share(rate: float, players: int, expected: float) -> None:
    assert h.fairness(rate, players) == pytest.approx(expected)


def test_a_shared_first_place_splits_the_win() -> None:
    # Seats 0, 2 and 3 share first place: a third each, as CardStock's playerFirst counts it.
    assert h.first_place_credit([0, 3, 0, 0], 0) == pytest.approx(1 / 3)
    assert h.first_place_credit([0, 3, 0, 0], 1) == 0.0
    assert h.first_place_credit([0, 1, 2, 3], 0) == 1.0


def test_fairness_rates_split_ties_and_measure_losses_where_one_seat_loses() -> None:
    # Four players, first player 0. Hearts-like ties: alone first, shared by two, last, shared by four.
    ties = [GameRecord([1], ranks, 0) for ranks in ([0, 1, 2, 3], [0, 0, 2, 3], [3, 0, 1, 2], [0, 0, 0, 0])]
    assert fairness_basis(ties, "auto") == "win"
    assert first_player_rates(ties, "win") == pytest.approx([1, 0.5, 0, 0.25])
    values, errors, basis = heuristics({"random": ties, "one_search": [], "all_search": []}, 4)
    # Mean rate 0.4375 (above 1/4): fairness -4/3*0.4375 + 4/3 = 0.75; a full win per tie gave 0.75 -> 0.
    assert basis == "win" and values["fairness"] == pytest.approx(0.75)
    rate_error = math.sqrt(sum((x - 0.4375) ** 2 for x in [1, 0.5, 0, 0.25]) / 3 / 4)
    assert errors["fairness"] == pytest.approx(4 / 3 * rate_error)
    # Ninety-Eight-like: one seat loses, three share first. The first player lost 1 game of 4.
    one_loser = [
        GameRecord([1], ranks, 0) for ranks in ([0, 3, 0, 0], [3, 0, 0, 0], [0, 0, 3, 0], [0, 0, 0, 3])
    ]
    assert fairness_basis(one_loser, "auto") == "loss"
    values, _, basis = heuristics({"random": one_loser, "one_search": [], "all_search": []}, 4)
    assert basis == "loss" and values["fairness"] == pytest.approx(1.0)
    # Asked for the win basis, the same games score their split wins: (3 * 1/3) / 4 = 0.25, also fair.
    values, _, basis = heuristics({"random": one_loser, "one_search": [], "all_search": []}, 4, "win")
    assert basis == "win" and values["fairness"] == pytest.approx(1.0)
    # Losing every game is as unfair as winning every one.
    always = [GameRecord([1], [3, 0, 0, 0], 0)] * 3
    assert heuristics({"random": always, "one_search": [], "all_search": []}, 4)[0]["fairness"] == 0.0


def test_convergence_of_shrinking_flat_and_growing_choices() -> None:
    assert h.game_convergence([4, 3, 2, 1]) == pytest.approx(1.0)  # slope -1: 1 - (-0.5 + 0.5)
    assert h.game_convergence([1, 1]) == pytest.approx(0.5)
    assert h.game_convergence([5]) is None
    assert h.game_convergence([1, 3]) == pytest.approx(-0.5)  # slope 2


def test_slope_is_least_squares() -> None:
    assert h.slope([0, 1, 2, 3], [1, 3, 2, 6]) == pytest.approx(1.4)


def test_order_scales_the_search_gain_and_is_clamped() -> None:
    assert h.order(0.55, 4) == pytest.approx(0.4)
    assert h.order(0.25, 4) == pytest.approx(0.0)
    assert h.order(1.0, 2) == pytest.approx(1.0)
    # Winning less than a fair share would be -1/3 by the formula; the scale stops at 0.
    assert h.order(0.0, 4) == 0.0


def test_drama_threshold_is_midway_between_first_and_second() -> None:
    assert h.drama_threshold(2) == pytest.approx(0.5)
    assert h.drama_threshold(4) == pytest.approx((1 + 2 / 3) / 2)


def test_one_games_drama_and_security() -> None:
    # Two players, threshold 0.5: 0.25 and 0.41 are below: sqrt(.25)=.5, sqrt(.09)=.3.
    assert h.game_drama_security([0.25, 0.5, 1.0, 0.41], 2) == pytest.approx((0.4, 0.5))
    assert h.game_drama_security([0.9, 1.0], 2) == pytest.approx((0.0, 1.0))


def test_the_winner_is_the_highest_last_estimate_and_the_lowest_seat_of_equals() -> None:
    assert h.winner_of([[0.2, 0.9, 0.1], [0.5, 0.4, 0.6]]) == 2
    assert h.winner_of([[0.0, 1.0, 1.0]]) == 1
    assert h.winner_of([]) is None
    # Seats 0 and 2 end at 1.0: seat 0 is the winner, its estimates 0.5 then 1.0.
    record = GameRecord(
        [2, 1], [0, 1, 0], 0, [Estimate(0, [0.5, 0.0, 1.0], 0.2), Estimate(2, [1.0, 0.0, 1.0], 0.4)]
    )
    assert winner_history(record) == [0.5, 1.0]


def test_mean_and_ratio_errors() -> None:
    assert h.mean_and_error([1.0, 0.0, 1.0, 0.0]) == pytest.approx((0.5, math.sqrt(1 / 3 / 4)))
    assert h.mean_and_error([0.7]) == (0.7, 0.0)
    # Games of 1 and 3 choices with spread totals 0.1 and 0.9: ratio 0.25; residuals
    # 0.1 - 0.25 and 0.9 - 0.75, each 0.15 in size.
    ratio, error = h.ratio_and_error([0.1, 0.9], [1, 3])
    assert ratio == pytest.approx(0.25)
    assert error == pytest.approx(math.sqrt(2 * (0.15**2 + 0.15**2)) / 4)


def test_heuristics_read_the_right_experiments() -> None:
    # Two players. Random: the first player (seat 1 here) wins 1 game of 2: fairness 1.
    rnd = [GameRecord([3, 2, 1], [0, 1], 1), GameRecord([2, 2], [1, 0], 1)]
    # One search (seat 0): it wins both: order 1. Convergence comes from these games: [2, 1]
    # gives 1 and [2, 2] 0.5. Only seat 0 searches here, one choice of it forced (spread 0).
    one = [
        GameRecord([2, 1], [0, 1], 0, [Estimate(0, [1, 0], 0.2), Estimate(0, [1, 0], 0.0)]),
        GameRecord([2, 2], [0, 0], 0, [Estimate(0, [1, 0], 0.4)]),
    ]
    # All search: the winner by the last estimate is seat 1, at .25 once of twice: drama
    # sqrt(.25) = .5, security .5. Its spreads count in spread too.
    every = [GameRecord([2], [1, 0], 0, [Estimate(0, [0.75, 0.25], 0.1), Estimate(1, [0, 1], 0.3)])]
    values, errors, _ = heuristics({"random": rnd, "one_search": one, "all_search": every}, 2)
    assert values["fairness"] == pytest.approx(1.0)
    assert values["convergence"] == pytest.approx((1.0 + 0.5) / 2)
    assert values["order"] == pytest.approx(1.0) and errors["order"] == 0.0
    # Spread: every searched choice, forced ones included: (.2 + 0 + .4 + .1 + .3) / 5.
    assert values["spread"] == pytest.approx(0.2)
    assert values["drama"] == pytest.approx(math.sqrt(0.25))
    assert values["security"] == pytest.approx(0.5)


def test_an_experiment_not_run_gives_no_value() -> None:
    values, errors, _ = heuristics(
        {"random": [GameRecord([1], [0, 1], 0)], "one_search": [], "all_search": []}, 2
    )
    assert values["fairness"] == pytest.approx(0.0)  # the first player won every game
    assert values["order"] is None and values["drama"] is None and values["spread"] is None
    assert errors["order"] is None and errors["fairness"] == 0.0


def test_every_value_stays_on_its_scale() -> None:
    # Choices that grow fast give convergence below 0 by the formula; the value is clamped.
    growing = [GameRecord([1, 5, 9], [1, 0], 0, [Estimate(0, [0, 1], 0.5)])] * 2
    values, _, _ = heuristics({"random": growing, "one_search": growing, "all_search": growing}, 2)
    assert h.game_convergence([1, 5, 9]) == pytest.approx(-1.5)
    assert values["convergence"] == 0.0 and values["order"] == 0.0
    assert all(0.0 <= v <= 1.0 for v in values.values())
