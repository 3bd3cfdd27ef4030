"""Rank estimates as CardStock's lead file held them: 15 significant digits, so an estimate
exactly at the drama threshold counts as below it (hand-made histories and a scripted game)."""

from __future__ import annotations

import math
import random
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any

import pytest

from games.stats import heuristics as h
from games.stats.experiments import GameRecord
from games.stats.players import SearchPlayer
from games.stats.report import heuristics

AT_THRESHOLD = 2.5 / 3  # a four-player winner's estimate after 5 wins in 10 playouts


def test_written_values_keep_fifteen_significant_digits() -> None:
    assert h.as_written(AT_THRESHOLD) == 0.833333333333333
    assert h.as_written(0.25) == 0.25 and h.as_written(1.0) == 1.0
    assert h.as_written(2 / 3) == 0.666666666666667
    assert h.as_written(h.as_written(0.1 + 0.2)) == h.as_written(0.1 + 0.2) == 0.3


def test_an_estimate_at_the_threshold_is_in_the_lead_only_before_it_is_written() -> None:
    threshold = h.drama_threshold(4)
    assert threshold == (1 + 2 / 3) / 2  # the notebook's expression, 0.8333333333333333
    assert threshold <= AT_THRESHOLD  # unwritten, it is not below the threshold: in the lead
    assert h.as_written(AT_THRESHOLD) < threshold


def test_drama_and_security_count_a_written_threshold_estimate_as_below() -> None:
    written = h.as_written(AT_THRESHOLD)
    # One of two estimates below the threshold, by about 3e-16: security 1/2, drama ~0.
    drama, security = h.game_drama_security([written, 1.0], 4)
    assert security == 0.5 and drama == pytest.approx(0.0, abs=1e-7)
    # Beside a real dip (0.7: gap 0.1333), the near-zero term halves the mean.
    drama, security = h.game_drama_security([0.7, written, 1.0], 4)
    assert security == pytest.approx(1 / 3)
    assert drama == pytest.approx(math.sqrt(h.drama_threshold(4) - 0.7) / 2, rel=1e-6)
    # Unwritten, the same history keeps the threshold estimate in the lead.
    assert h.game_drama_security([AT_THRESHOLD, 1.0], 4) == (0.0, 1.0)


@dataclass
class ScriptedGame:
    """A one-move game whose playouts end by script: after move 0, seat 0 is first in every
    other playout (seat 1 in the rest); after move 1, seat 1 always. Seats 2 and 3 share second."""

    played: int = 0
    info: Any = field(default_factory=lambda: SimpleNamespace(ranks=list))

    def legal_moves(self, state: Any, seat: int) -> list[int]:
        return [0, 1]

    def determinize(self, state: Any, seat: int, rng: random.Random) -> dict:
        self.played += 1
        return {"playout": self.played, "over": False}

    def advance(self, world: dict, seat: int, move: int) -> None:
        world.update(over=True, move=move)

    def is_over(self, world: dict) -> bool:
        return world["over"]

    def result(self, world: dict) -> dict:
        seat0_first = world["move"] == 0 and world["playout"] % 2 == 0
        return {"scores": [0, 1, 1, 1] if seat0_first else [1, 0, 1, 1]}


def test_the_search_player_keeps_its_lead_view_as_written_and_its_spread_exact() -> None:
    game = ScriptedGame()
    player = SearchPlayer(game, 10, random.Random(0))  # type: ignore[arg-type]
    assert player.choose(SimpleNamespace(players=4), 0) == 0
    (estimate,) = player.estimates
    # Move 0: seats 0 and 1 each first 5 times of 10, mean rank 0.5; seats 2 and 3 always rank 1.
    assert estimate.lead == [0.833333333333333, 0.833333333333333, 0.666666666666667, 0.666666666666667]
    # Spread from the unwritten estimates: 2.5/3 - 2/3 (move 1: seat 0 always rank 1).
    assert estimate.spread == pytest.approx(1 / 6, abs=1e-15)
    # As the winner's only estimate it is below the threshold: security 0, drama ~0.
    record = GameRecord([2], [0, 1, 1, 1], 0, [estimate])
    values, _, _ = heuristics({"random": [], "one_search": [], "all_search": [record]}, 4)
    assert values["security"] == 0.0 and values["drama"] == pytest.approx(0.0, abs=1e-7)
