"""The stats chart: lookups over the period and the top terms, as PNG bytes.

Drawn with Pillow: the plotting libraries measured either take the container image over its
size budget or, small enough, draw no text without system fonts (README "Image size"). The
background is transparent and every colour is of middle lightness, so the picture reads on
Discord's dark and light themes alike. Times are UTC, like the rolling periods of the stats.
"""

from __future__ import annotations

import io
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from functools import cache

from PIL import Image, ImageDraw, ImageFont

SIZE = (960, 480)  # pixels; Discord shows it scaled to the message width
MUTED = (128, 132, 142, 255)  # Discord's own muted grey: legible on both themes
TEXT = (138, 142, 152, 255)
GRID = (128, 132, 142, 90)
BARS = (88, 101, 242, 255)  # blurple
TERMS = (35, 165, 160, 255)  # teal
MAX_TERMS = 8
MAX_DAILY_BARS = 92  # a longer period is drawn by the week
FONT_SIZES = {"title": 24, "label": 16, "small": 14}

Font = ImageFont.FreeTypeFont | ImageFont.ImageFont


@dataclass(frozen=True)
class Bin:
    start: datetime
    label: str
    count: int


@cache
def _font(size: int) -> Font:
    return ImageFont.load_default(size)  # Pillow's bundled font: no system fonts needed


def bins(
    hours: Mapping[datetime, int], since: datetime | None, now: datetime
) -> tuple[list[Bin], str]:
    """Hourly counts grouped for drawing: by hour over a day, by day up to MAX_DAILY_BARS days,
    by week beyond. Returns the bins and the unit's name."""
    now = now.astimezone(UTC)
    first = since.astimezone(UTC) if since is not None else min(hours, default=now)
    if now - first <= timedelta(days=1):
        step, unit = timedelta(hours=1), "hour"
        start = first.replace(minute=0, second=0, microsecond=0)
    else:
        day = first.replace(hour=0, minute=0, second=0, microsecond=0)
        days = (now - day).days + 1
        step, unit = (
            (timedelta(days=1), "day") if days <= MAX_DAILY_BARS else (timedelta(7), "week")
        )
        start = day
    edges: list[datetime] = []
    edge = start
    while edge <= now:
        edges.append(edge)
        edge += step
    counts = [0] * len(edges)
    for moment, n in hours.items():
        index = math.floor((moment.astimezone(UTC) - start) / step)  # floor: earlier is < 0
        if 0 <= index < len(counts):
            counts[index] += n
    fmt = "%H:00" if unit == "hour" else "%b %d"
    return [Bin(e, e.strftime(fmt), c) for e, c in zip(edges, counts, strict=True)], unit


def nice_ceiling(value: int) -> int:
    """The smallest of 1, 2, 5 × 10^k that is at least `value` (the y axis's top)."""
    top = 1
    while True:
        for factor in (1, 2, 5):
            if top * factor >= value:
                return top * factor
        top *= 10


def short_number(n: int) -> str:
    if n >= 1_000_000:
        return f"{n / 1_000_000:.1f}M".replace(".0M", "M")
    if n >= 10_000:
        return f"{n / 1000:.0f}k"
    return f"{n:,}"


def fit_text(draw: ImageDraw.ImageDraw, text: str, font: Font, width: float) -> str:
    """`text` cut with an ellipsis to fit `width` pixels."""
    text = text[: int(width // 3)]  # no glyph is narrower: the loop below stays short
    if draw.textlength(text, font=font) <= width:
        return text
    while text and draw.textlength(text + "…", font=font) > width:
        text = text[:-1]
    return text.rstrip() + "…"


def lookups_chart(
    hours: Mapping[datetime, int],
    top_terms: Sequence[tuple[str, int]],
    *,
    since: datetime | None,
    now: datetime,
    title: str,
) -> bytes:
    """A PNG of SIZE: lookups per hour, day or week over the period (left) and the most looked-up
    terms (right). `hours` maps the start of each hour to its lookups; `top_terms` is (name,
    count), most first."""
    image = Image.new("RGBA", SIZE, (0, 0, 0, 0))
    draw = ImageDraw.Draw(image)
    width, height = SIZE
    title_font = _font(FONT_SIZES["title"])
    draw.text((24, 16), fit_text(draw, title, title_font, width - 48), font=title_font, fill=TEXT)

    series, unit = bins(hours, since, now)
    _draw_series(draw, series, unit, (24, 64, int(width * 0.62), height - 24))
    _draw_terms(draw, top_terms, (int(width * 0.62) + 32, 64, width - 24, height - 24))
    out = io.BytesIO()
    image.save(out, format="PNG", optimize=True)
    return out.getvalue()


def _draw_series(
    draw: ImageDraw.ImageDraw, series: list[Bin], unit: str, box: tuple[int, int, int, int]
) -> None:
    left, top, right, bottom = box
    label_font, small_font = _font(FONT_SIZES["label"]), _font(FONT_SIZES["small"])
    draw.text((left, top), f"Lookups per {unit} (UTC)", font=label_font, fill=MUTED)
    top += 32
    axis_width = 56
    plot_left, plot_bottom = left + axis_width, bottom - 28
    peak = max((b.count for b in series), default=0)
    ceiling = nice_ceiling(max(peak, 1))
    # Grid lines at 0, half and the top; only at whole numbers, and only 0 while there is nothing.
    for fraction in (0, 0.5, 1) if peak else (0,):
        if (ceiling * fraction) % 1:
            continue
        y = plot_bottom - (plot_bottom - top) * fraction
        draw.line((plot_left, y, right, y), fill=GRID, width=1)
        value = short_number(int(ceiling * fraction))
        draw.text((plot_left - 8, y), value, font=small_font, fill=MUTED, anchor="rm")
    if not series:
        return
    slot = (right - plot_left) / len(series)
    gap = max(1.0, slot * 0.2)
    for i, b in enumerate(series):
        if b.count == 0:
            continue
        x0 = plot_left + i * slot + gap / 2
        y0 = plot_bottom - (plot_bottom - top) * b.count / ceiling
        draw.rectangle((x0, y0, max(x0 + 1, x0 + slot - gap), plot_bottom), fill=BARS)
    # As many labels as fit without overlapping, evenly spaced; the last bin always labelled.
    label_width = draw.textlength("Mmm 00", font=small_font) + 12
    every = max(1, int(label_width // slot) + 1)
    for i in range(len(series) - 1, -1, -every):
        x = plot_left + (i + 0.5) * slot
        draw.text((x, plot_bottom + 6), series[i].label, font=small_font, fill=MUTED, anchor="ma")
    if peak == 0:
        middle = ((plot_left + right) / 2, (top + plot_bottom) / 2)
        draw.text(middle, "No lookups in this period", font=label_font, fill=MUTED, anchor="mm")


def _draw_terms(
    draw: ImageDraw.ImageDraw, terms: Sequence[tuple[str, int]], box: tuple[int, int, int, int]
) -> None:
    left, top, right, bottom = box
    label_font, small_font = _font(FONT_SIZES["label"]), _font(FONT_SIZES["small"])
    draw.text((left, top), "Top terms", font=label_font, fill=MUTED)
    top += 32
    shown = list(terms[:MAX_TERMS])
    if not shown:
        draw.text((left, top), "None yet", font=small_font, fill=MUTED)
        return
    row = min(40.0, (bottom - top) / MAX_TERMS)
    most = max(n for _, n in shown) or 1
    count_width = draw.textlength("00.0M", font=small_font) + 8
    for i, (name, n) in enumerate(shown):
        y = top + i * row
        draw.text(
            (left, y), fit_text(draw, name, small_font, right - left), font=small_font, fill=TEXT
        )
        bar_right = left + (right - left - count_width) * n / most
        draw.rectangle((left, y + 19, max(left + 2, bar_right), y + row - 8), fill=TERMS)
        draw.text((bar_right + 6, y + 19), short_number(n), font=small_font, fill=MUTED)
