"""A rating history as an SVG line chart's coordinates (pure; the template draws the SVG)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

WIDTH, HEIGHT, PAD = 600, 160, 8
MAX_POINTS = 300


@dataclass(frozen=True)
class Chart:
    width: int
    height: int
    points: str  # "x,y x,y …" for <polyline points=…>
    last_x: float
    last_y: float
    zero_y: float | None  # where rating 0 is, if inside the range
    low: float
    high: float
    matches: int


def thin(values: Sequence[float], limit: int = MAX_POINTS) -> list[float]:
    """At most `limit` values, evenly picked, always keeping the first and the last."""
    if len(values) <= limit:
        return list(values)
    step = (len(values) - 1) / (limit - 1)
    return [values[round(i * step)] for i in range(limit)]


def line_chart(values: Sequence[float], width: int = WIDTH, height: int = HEIGHT) -> Chart | None:
    """Coordinates for a rating history: the rating before the first match, then after each
    match (x = match number, y = rating)."""
    if not values:
        return None
    shown = thin(values)
    low, high = min(shown), max(shown)
    if high - low < 1:
        low, high = low - 0.5, high + 0.5
    inner_w, inner_h = width - 2 * PAD, height - 2 * PAD

    def y(value: float) -> float:
        return round(PAD + (high - value) / (high - low) * inner_h, 1)

    def x(index: int) -> float:
        return round(PAD + (index / (len(shown) - 1) if len(shown) > 1 else 1) * inner_w, 1)

    coords = [(x(i), y(v)) for i, v in enumerate(shown)]
    return Chart(
        width=width,
        height=height,
        points=" ".join(f"{cx},{cy}" for cx, cy in coords),
        last_x=coords[-1][0],
        last_y=coords[-1][1],
        zero_y=y(0.0) if low <= 0 <= high else None,
        low=low,
        high=high,
        matches=len(values) - 1,
    )
