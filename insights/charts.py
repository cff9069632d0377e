"""Server-rendered SVG charts for the report page: no script, no CDN, nothing fetched.

Each function returns SVG markup (every text escaped) with a <title> and <desc> for screen
readers; the numbers themselves are also in the report's daily table. Colours and sizes are CSS
classes defined in static/insights.css, so the page needs no inline style.
"""

from datetime import date
from html import escape

WIDTH, HEIGHT = 640, 220
LEFT, RIGHT, TOP, BOTTOM = 48, 12, 14, 34


def _nice_max(value: float) -> float:
    """A round axis maximum at or above value (1, 2, 2.5, 5 x 10^n)."""
    if value <= 0:
        return 1
    magnitude = 10 ** (len(str(int(value))) - 1) if value >= 1 else 1
    for step in (1, 2, 2.5, 5, 10):
        if step * magnitude >= value:
            return step * magnitude
    return 10 * magnitude


def _frame(chart_id: str, title: str, desc: str, top: float, unit: str, days: list[date], body: list[str]) -> str:
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    parts = [
        f'<svg class="chart" id="{chart_id}" viewBox="0 0 {WIDTH} {HEIGHT}" role="img" '
        f'aria-labelledby="{chart_id}-title {chart_id}-desc" xmlns="http://www.w3.org/2000/svg">',
        f'<title id="{chart_id}-title">{escape(title)}</title><desc id="{chart_id}-desc">{escape(desc)}</desc>',
    ]
    for i in range(5):  # horizontal grid lines and their labels
        y = TOP + plot_h - plot_h * i / 4
        value = top * i / 4
        label = f"{value:g}{unit}" if value < 1000 else f"{value / 1000:g}k{unit}"
        parts.append(
            f'<line class="grid" x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y:.1f}" y2="{y:.1f}"/>'
            f'<text class="axis" x="{LEFT - 4}" y="{y + 4:.1f}" text-anchor="end">{escape(label)}</text>'
        )
    step = max(1, len(days) // 8)  # at most ~8 date labels
    slot = plot_w / max(len(days), 1)
    for i, d in enumerate(days):
        if i % step == 0:
            x = LEFT + slot * (i + 0.5)
            parts.append(f'<text class="axis" x="{x:.1f}" y="{HEIGHT - BOTTOM + 16}" text-anchor="middle">{d:%m-%d}</text>')
    parts += body
    parts.append("</svg>")
    return "".join(parts)


def bars(chart_id: str, title: str, days: list[date], series: list[tuple[str, str, list[float]]]) -> str:
    """Overlaid bars per day: each series (label, css class, values) drawn over the previous one."""
    top = _nice_max(max((v for _, _, values in series for v in values), default=0))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / max(len(days), 1)
    body = []
    for label, css, values in series:
        for i, (d, v) in enumerate(zip(days, values, strict=True)):
            if v:
                h = plot_h * v / top
                body.append(
                    f'<rect class="{css}" x="{LEFT + slot * i + slot * 0.15:.1f}" y="{TOP + plot_h - h:.1f}" '
                    f'width="{slot * 0.7:.1f}" height="{h:.1f}"><title>{d}: {v:g} {escape(label)}</title></rect>'
                )
    desc = "; ".join(f"{label}: {sum(values):g} in all" for label, _, values in series)
    return _frame(chart_id, title, desc, top, "", days, body)


def lines(chart_id: str, title: str, days: list[date], series: list[tuple[str, str, list[float | None]]], unit: str = "") -> str:
    """A line per series (label, css class, values; None leaves a gap), with a dot per day."""
    top = _nice_max(max((v for _, _, values in series for v in values if v is not None), default=0))
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM
    slot = plot_w / max(len(days), 1)
    body = []
    for label, css, values in series:
        points = [(LEFT + slot * (i + 0.5), TOP + plot_h - plot_h * v / top, d, v) for i, (d, v) in enumerate(zip(days, values, strict=True)) if v is not None]
        if len(points) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y, _, _ in points)
            body.append(f'<polyline class="{css}" points="{path}"/>')
        for x, y, d, v in points:
            body.append(f'<circle class="{css} dot" cx="{x:.1f}" cy="{y:.1f}" r="3"><title>{d}: {escape(label)} {v:.1f}{unit}</title></circle>')
    known = [v for _, _, values in series for v in values if v is not None]
    desc = f"highest {max(known):.1f}{unit}" if known else "no searches in this period"
    return _frame(chart_id, title, desc, top, unit, days, body)
