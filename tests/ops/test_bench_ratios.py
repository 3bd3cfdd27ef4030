"""bench/ratios.py: two processes are called worse than one only beyond the noise between runs."""

from __future__ import annotations

import pytest

from bench.ratios import repeated, verdict


def run(rate: float, p99: float, cpu: float = 3.0) -> list[dict]:
    """One run's figures at one rate, as bench/load.py's ``measure`` returns them (the ones compared)."""
    return [
        {
            "rate": rate,
            "moves_per_s": rate,
            "p50": p99 / 3,
            "p95": p99 / 2,
            "p99": p99,
            "cpu_per_move": cpu,
            "cross": 0,
            "cross_p99": float("nan"),
        }
    ]


def test_a_gap_inside_the_controls_spread_is_noise_and_one_beyond_it_is_not() -> None:
    assert verdict(1.3, [0.7, 1.1], "p99") == "within noise"  # one/one moved by 30% on its own
    assert verdict(1.3, [0.95, 1.05], "p99") == "WORSE"
    assert verdict(0.7, [0.95, 1.05], "p99") == "better"
    assert verdict(0.7, [0.95, 1.05], "moves_per_s") == "WORSE"  # fewer moves a second is worse
    assert verdict(1.01, [1.0, 1.0], "p99") == "within noise"  # equal but for rounding
    assert verdict(1.5, [], "p99") == "no control"


def test_repeated_runs_print_the_median_pair_ratio_and_the_verdict(capsys: pytest.CaptureFixture) -> None:
    one = [run(250, 10.0), run(250, 11.0), run(250, 10.5)]
    two = [run(250, 20.0, cpu=3.1), run(250, 22.0, cpu=3.0), run(250, 19.0, cpu=2.9)]
    repeated({1: one, 2: two})
    lines = {line.split(":")[0].strip(): line for line in capsys.readouterr().out.splitlines() if ":" in line}
    assert "two/one  2.00 [1.81-2.00]" in lines["p99"] and lines["p99"].endswith("WORSE")
    assert "two/one  1.00" in lines["ms/mv"] and lines["ms/mv"].endswith("within noise")
