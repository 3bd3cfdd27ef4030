"""Two processes against one, from `bench/load.py`'s per-rate figures: ratios, and their noise.

One pair of runs (`--repeat 1`) prints two's figures as ratios to one's. Run to
run, one process alone moves by more than the gap being judged (its p99 at 250
moves/s ranged from 10 to 56 ms over four runs on one machine), so `--repeat N`
alternates one and two processes N times and prints, for each rate and figure,
the median of the N pairs' two/one ratios with their range, beside a control:
the ratios of consecutive runs of the same layout (one/one and two/two), which
differ by noise alone. A figure is called worse (or better) only when the median
ratio lies further from 1 than the largest control ratio does (and by more than
`FLOOR`, so that two figures equal to the rounding are not called different).
"""

from __future__ import annotations

import math
import statistics

# The figures compared, as `measure` names them, and how they are headed here.
FIGURES = (
    ("moves_per_s", "moves/s"),
    ("p50", "p50"),
    ("p95", "p95"),
    ("p99", "p99"),
    ("cpu_per_move", "ms/mv"),
)
# For these a larger ratio is better; for the rest (latency, CPU) a larger one is worse.
LARGER_IS_BETTER = {"moves_per_s"}
FLOOR = 0.02  # the least relative gap ever called a difference


def ratio(a: dict, b: dict, key: str) -> float:
    """``b[key] / a[key]``, or NaN when either is missing or zero."""
    x, y = a.get(key), b.get(key)
    return y / x if x and y is not None and not math.isnan(x) and not math.isnan(y) else float("nan")


def compare(runs: dict[int, list[dict]]) -> None:
    """Print two processes' figures as ratios to one process's at each total rate both reached."""
    one, two = runs.get(1, []), runs.get(2, [])
    print("\ntwo processes against one, same total rate (ratio two/one; above 1.00 is worse):")
    print(f"{'target':>7} {'moves/s':>8} {'p50':>6} {'p95':>6} {'p99':>6} {'ms/mv':>6} {'split p99':>9}")
    for a in one:
        b = next((r for r in two if r["rate"] == a["rate"]), None)
        if b is None:
            continue
        ratios = [ratio(a, b, key) for key, _ in FIGURES]
        # A move at a split table reaching the seats on the other server, against one process's p99.
        split = b["cross_p99"] / a["p99"] if b["cross"] and a["p99"] else float("nan")
        print(f"{a['rate']:7.0f} " + " ".join(f"{r:6.2f}" for r in ratios) + f" {split:9.2f}")


def _at(results: list[dict], rate: float) -> dict | None:
    return next((r for r in results if r["rate"] == rate), None)


def _matched(first: list[list[dict]], second: list[list[dict]], rate: float) -> list[tuple[dict, dict]]:
    pairs = [(_at(a, rate), _at(b, rate)) for a, b in zip(first, second, strict=False)]
    return [(a, b) for a, b in pairs if a is not None and b is not None]


def _pairs(first: list[list[dict]], second: list[list[dict]], rate: float, key: str) -> list[float]:
    """The ratios second[i]/first[i] at ``rate``, where both runs reached it (NaNs left out)."""
    ratios = (ratio(a, b, key) for a, b in _matched(first, second, rate))
    return [r for r in ratios if not math.isnan(r)]


def verdict(median: float, controls: list[float], key: str) -> str:
    """Whether ``median`` (a two/one ratio) is worse or better than 1 by more than the controls' noise."""
    if not controls or math.isnan(median):
        return "no control" if not math.isnan(median) else "-"
    noise = max(math.log(1 + FLOOR), *(abs(math.log(c)) for c in controls))
    gap = math.log(median) * (-1 if key in LARGER_IS_BETTER else 1)  # > 0: two is worse
    if gap > noise:
        return "WORSE"
    return "better" if gap < -noise else "within noise"


def repeated(runs: dict[int, list[list[dict]]]) -> None:
    """Print each rate's median two/one ratio, its range, the control's range and a verdict per figure.

    ``runs[n]`` holds the runs with ``n`` processes in the order they ran (one
    and two alternating). The control compares each run with the next of the
    same layout, so it needs at least two of each.
    """
    one, two = runs.get(1, []), runs.get(2, [])
    rates = sorted({r["rate"] for run in one for r in run})
    print(
        f"\n{len(one)} runs of one process and {len(two)} of two, alternating. Per figure: the median "
        "two/one ratio [its range over the pairs]; the control [range of one/one and two/two between "
        "consecutive runs]; the verdict (worse or better only beyond the control's largest deviation from 1)."
    )
    for rate in rates:
        print(f"\n{rate:g} moves/s:")
        for key, name in FIGURES:
            pairs = _pairs(one, two, rate, key)
            controls = _pairs(one[:-1], one[1:], rate, key) + _pairs(two[:-1], two[1:], rate, key)
            if not pairs:
                continue
            median = statistics.median(pairs)
            spread = f"[{min(pairs):.2f}-{max(pairs):.2f}]"
            noise = f"[{min(controls):.2f}-{max(controls):.2f}]" if controls else "[none]"
            print(
                f"  {name:>7}: two/one {median:5.2f} {spread:>11}   control {noise:>11}   "
                f"{verdict(median, controls, key)}"
            )
        cross = [b["cross_p99"] / a["p99"] for a, b in _matched(one, two, rate) if b["cross"] and a["p99"]]
        if cross:
            print(
                f"  split-table p99 against one process's p99: median {statistics.median(cross):.2f} "
                f"[{min(cross):.2f}-{max(cross):.2f}]"
            )
