"""Charts drawn as SVG on the server: no script, no library, readable by a screen reader.

Each function returns a ``SafeString`` holding one ``<svg role="img">`` with a
``<title>`` and ``<desc>``; every bar or point has its own ``<title>`` with its
exact number, so a chart never hides a figure. Colours are the Okabe-Ito
palette (distinct for colour-blind readers) and lines also differ by dash.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence

from django.utils.html import escape
from django.utils.safestring import SafeString, mark_safe

PALETTE = ("#0072B2", "#E69F00", "#009E73", "#CC79A7", "#56B4E9", "#D55E00", "#000000", "#999999")
DASHES = ("", "6 3", "2 3", "8 3 2 3", "1 2", "10 4")
W, H = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 44, 12, 12, 34


def nice_ceiling(value: float) -> float:
    """The smallest of 1, 2, 2.5, 5 times a power of ten that is at least ``value`` (1 for nothing)."""
    if value <= 0:
        return 1
    power = 10 ** math.floor(math.log10(value))
    for step in (1, 2, 2.5, 5, 10):
        if value <= step * power + 1e-9:
            return step * power
    return 10 * power


def _fmt(value: float) -> str:
    return f"{value:g}" if abs(value) < 1e6 else f"{value:.3g}"


def _svg(title: str, desc: str, body: list[str], height: int = H) -> SafeString:
    head = (
        # Sized by svg.chart in the stylesheets, lettered by attributes: the CSP allows no style attribute.
        f'<svg class="chart" viewBox="0 0 {W} {height}" role="img" xmlns="http://www.w3.org/2000/svg" '
        'font-family="sans-serif" font-size="11">'
        f"<title>{escape(title)}</title><desc>{escape(desc)}</desc>"
    )
    return mark_safe(head + "".join(body) + "</svg>")  # every label is escaped above and below


def _y_axis(low: float, high: float, height: int = H) -> tuple[list[str], Callable[[float], float]]:
    plot = height - TOP - BOTTOM

    def y(value: float) -> float:
        return TOP + plot * (1 - (value - low) / (high - low or 1))

    body = []
    for tick in (low, (low + high) / 2, high):
        body.append(
            f'<line x1="{LEFT}" x2="{W - RIGHT}" y1="{y(tick):.1f}" y2="{y(tick):.1f}" stroke="#ddd"/>'
            f'<text x="{LEFT - 4}" y="{y(tick) + 4:.1f}" text-anchor="end" fill="#444">{_fmt(tick)}</text>'
        )
    return body, y


def _legend(names: Sequence[str], x0: float = LEFT, y0: float = H - 6, lines: bool = False) -> list[str]:
    body, x = [], x0
    for i, name in enumerate(names):
        colour = PALETTE[i % len(PALETTE)]
        if lines:
            dash = DASHES[i % len(DASHES)]
            body.append(
                f'<line x1="{x}" x2="{x + 16}" y1="{y0 - 4}" y2="{y0 - 4}" stroke="{colour}" '
                f'stroke-width="2" stroke-dasharray="{dash}"/>'
            )
        else:
            body.append(f'<rect x="{x}" y="{y0 - 9}" width="10" height="10" fill="{colour}"/>')
        body.append(f'<text x="{x + 20}" y="{y0}" fill="#222">{escape(name)}</text>')
        x += 28 + 7 * len(name)
    return body


def bars(
    values: Sequence[float], labels: Sequence[str], title: str, desc: str, every: int = 10
) -> SafeString:
    """A vertical bar per value (time series such as moves per minute); every ``every``-th label shown."""
    high = nice_ceiling(max(values, default=0))
    body, y = _y_axis(0, high)
    width = (W - LEFT - RIGHT) / max(len(values), 1)
    for i, (value, label) in enumerate(zip(values, labels, strict=True)):
        x = LEFT + i * width
        body.append(
            f'<rect x="{x + 0.5:.1f}" y="{y(value):.1f}" width="{max(width - 1, 0.5):.1f}" '
            f'height="{y(0) - y(value):.1f}" fill="{PALETTE[0]}">'
            f"<title>{escape(label)}: {_fmt(value)}</title></rect>"
        )
        if i % every == 0 or i == len(values) - 1:
            body.append(
                f'<text x="{x + width / 2:.1f}" y="{H - BOTTOM + 14}" text-anchor="middle" '
                f'fill="#444">{escape(label)}</text>'
            )
    return _svg(title, desc, body)


def stacked_bars(
    labels: Sequence[str], series: dict[str, Sequence[int]], title: str, desc: str
) -> SafeString:
    """One bar per label, stacked by series (games finished per day, by game), with a legend."""
    totals = [sum(values[i] for values in series.values()) for i in range(len(labels))]
    high = nice_ceiling(max(totals, default=0))
    height = H + 14
    body, y = _y_axis(0, high, height - 14)
    width = (W - LEFT - RIGHT) / max(len(labels), 1)
    for i, label in enumerate(labels):
        x, base = LEFT + i * width, 0
        for k, (name, values) in enumerate(series.items()):
            if values[i]:
                body.append(
                    f'<rect x="{x + 2:.1f}" y="{y(base + values[i]):.1f}" width="{width - 4:.1f}" '
                    f'height="{y(base) - y(base + values[i]):.1f}" fill="{PALETTE[k % len(PALETTE)]}">'
                    f"<title>{escape(label)}, {escape(name)}: {values[i]}</title></rect>"
                )
                base += values[i]
        body.append(
            f'<text x="{x + width / 2:.1f}" y="{height - 14 - BOTTOM + 14}" text-anchor="middle" '
            f'fill="#444">{escape(label)}</text>'
        )
    body += _legend(list(series), y0=height - 6)
    return _svg(title, desc, body, height)


def rate_bars(
    rates: Sequence[tuple[float, float]], labels: Sequence[str], fair: float, title: str, desc: str
) -> SafeString:
    """Horizontal bars of rates (0..1) with their interval as whiskers and a dashed line at ``fair``."""
    row, left, right = 24, 130, 70
    height = TOP + row * len(rates) + 26
    scale = max([fair, *(r + h for r, h in rates)], default=1)
    scale = min(1.0, nice_ceiling(scale))

    def x(value: float) -> float:
        return left + (W - left - right) * min(max(value, 0), scale) / scale

    body = []
    for i, ((rate, half), label) in enumerate(zip(rates, labels, strict=True)):
        top = TOP + i * row
        text = f"{rate:.1%} ± {half:.1%}"
        body.append(
            f'<text x="{left - 6}" y="{top + 15}" text-anchor="end" fill="#222">{escape(label)}</text>'
            f'<rect x="{left}" y="{top + 4}" width="{x(rate) - left:.1f}" height="14" fill="{PALETTE[0]}">'
            f"<title>{escape(label)}: {text}</title></rect>"
            f'<line x1="{x(rate - half):.1f}" x2="{x(rate + half):.1f}" y1="{top + 11}" y2="{top + 11}" '
            f'stroke="#222"/><text x="{W - right + 4}" y="{top + 15}" fill="#222">{rate:.1%}</text>'
        )
    bottom = TOP + row * len(rates)
    body.append(
        f'<line x1="{x(fair):.1f}" x2="{x(fair):.1f}" y1="{TOP}" y2="{bottom}" stroke="{PALETTE[5]}" '
        f'stroke-dasharray="4 3"/><text x="{x(fair):.1f}" y="{bottom + 14}" text-anchor="middle" '
        f'fill="{PALETTE[5]}">fair {fair:.1%}</text>'
    )
    body.append(f'<text x="{left}" y="{bottom + 14}" text-anchor="middle" fill="#444">0%</text>')
    body.append(
        f'<text x="{x(scale):.1f}" y="{bottom + 14}" text-anchor="middle" fill="#444">{scale:.0%}</text>'
    )
    return _svg(title, desc, body, height)


def lines(
    history: Sequence[Sequence[float]],
    names: Sequence[str],
    marks: Sequence[int],
    title: str,
    desc: str,
    unit: str = "moves",
) -> SafeString:
    """One step line per seat over the steps (lead history), with a faint rule where each deal began;
    ``unit`` names the steps under the chart."""
    flat = [v for scores in history for v in scores] or [0]
    low, high = min(0, min(flat)), nice_ceiling(max(flat)) if max(flat) > 0 else 1
    height = H + 14
    body, y = _y_axis(low, high, height - 14)
    steps = max(len(history) - 1, 1)

    def x(step: float) -> float:
        return LEFT + (W - LEFT - RIGHT) * step / steps

    for step in marks[1:]:
        body.append(
            f'<line x1="{x(step):.1f}" x2="{x(step):.1f}" y1="{TOP}" y2="{y(low):.1f}" stroke="#eee"/>'
        )
    for seat, name in enumerate(names):
        points, last = [], None
        for step, scores in enumerate(history):
            if last is not None and scores[seat] != last:
                points.append(f"{x(step):.1f},{y(last):.1f}")
            points.append(f"{x(step):.1f},{y(scores[seat]):.1f}")
            last = scores[seat]
        final = history[-1][seat] if history else 0
        body.append(
            f'<polyline points="{" ".join(points)}" fill="none" stroke="{PALETTE[seat % len(PALETTE)]}" '
            f'stroke-width="2" stroke-dasharray="{DASHES[seat % len(DASHES)]}">'
            f"<title>{escape(name)}: {_fmt(final)} at the end</title></polyline>"
        )
    body.append(
        f'<text x="{W - RIGHT}" y="{height - BOTTOM}" text-anchor="end" fill="#444">'
        f"{steps} {escape(unit)}</text>"
    )
    body += _legend(names, y0=height - 6, lines=True)
    return _svg(title, desc, body, height)
