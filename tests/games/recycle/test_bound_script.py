"""bench/recycle_bound.py: its straight-line Hearts plays the interpreter's very games, or says not."""

from __future__ import annotations

import pytest

from bench import recycle_bound
from bench.recycle_bound import check_same_games


def test_the_bound_plays_the_interpreters_games() -> None:
    check_same_games(range(1, 3))  # exits when a score or a move count differs


def test_a_bound_that_counts_otherwise_is_caught(monkeypatch: pytest.MonkeyPatch) -> None:
    points = [12 if value == 13 else value for value in recycle_bound.POINTS]  # the queen of spades
    monkeypatch.setattr(recycle_bound, "POINTS", points)
    with pytest.raises(SystemExit, match="plays other games than the interpreter"):
        check_same_games(range(1, 3))
