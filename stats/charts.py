"""Small line charts drawn on the server as SVG (no charting library, no CDN). Pure Python."""

from __future__ import annotations

from django.utils.html import escape

WIDTH, HEIGHT, PAD = 320, 120, 28


def line_chart(points: list[float], *, label: str, low: float = 0.0, high: float | None = None, unit: str = "") -> str:
    """An SVG line through `points` (evenly spaced), with its lowest and highest value written on the axis.

    Returns "" when there is nothing to draw (fewer than two points).
    """
    if len(points) < 2:
        return ""
    top = max(points) if high is None else high
    bottom = min(low, min(points))
    span = (top - bottom) or 1
    step = (WIDTH - 2 * PAD) / (len(points) - 1)
    coords = " ".join(
        f"{PAD + i * step:.1f},{HEIGHT - PAD - (value - bottom) / span * (HEIGHT - 2 * PAD):.1f}"
        for i, value in enumerate(points)
    )
    return (
        f'<svg class="chart" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" aria-label="{escape(label)}" '
        f'data-points="{len(points)}">'
        f"<title>{escape(label)}</title>"
        f'<line x1="{PAD}" y1="{HEIGHT - PAD}" x2="{WIDTH - PAD}" y2="{HEIGHT - PAD}" class="axis"/>'
        f'<line x1="{PAD}" y1="{PAD}" x2="{PAD}" y2="{HEIGHT - PAD}" class="axis"/>'
        f'<text x="{PAD - 4}" y="{HEIGHT - PAD}" text-anchor="end" class="tick">{_fmt(bottom)}{escape(unit)}</text>'
        f'<text x="{PAD - 4}" y="{PAD + 4}" text-anchor="end" class="tick">{_fmt(top)}{escape(unit)}</text>'
        f'<polyline fill="none" stroke="currentColor" stroke-width="2" points="{coords}"/>'
        "</svg>"
    )


def _fmt(value: float) -> str:
    return str(int(round(value)))


def sample(values: list[float], most: int = 60) -> list[float]:
    """At most `most` values, evenly picked, always keeping the last."""
    if len(values) <= most:
        return values
    step = len(values) / most
    picked = [values[int(i * step)] for i in range(most - 1)]
    return [*picked, values[-1]]
