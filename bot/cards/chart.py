"""The stats chart: lookups over the period and the top terms, as PNG bytes.

Drawn with pygal (SVG) and rasterised with resvg, which together add ~5 MB to the container image
(README "Image size"). The image has no system fonts, so the chart carries its own: DejaVu Sans
in fonts/ (licence beside it), handed to resvg. pygal's style is set in full so every colour is
ours: the background is transparent and every colour is of middle lightness, so the picture reads
on Discord's dark and light themes alike. Times are UTC, like the rolling periods of the stats.
"""

from __future__ import annotations

import functools
import math
import re
import struct
import unicodedata
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any
from xml.sax.saxutils import escape

import pygal
import resvg_py
from pygal.style import Style

from bot.glossary.letters import whole_letters_cut

SIZE = (960, 480)  # pixels; Discord shows it scaled to the message width
FONT_FILE = Path(__file__).with_name("fonts") / "DejaVuSans.ttf"
FONT = "DejaVu Sans"
MUTED = (128, 132, 142, 255)  # Discord's own muted grey: legible on both themes
TEXT = (138, 142, 152, 255)
BARS = (88, 101, 242, 255)  # blurple
TERMS = (35, 165, 160, 255)  # teal
MAX_TERMS = 8
MAX_DAILY_BARS = 92  # a longer period is drawn by the week
MAX_TITLE = 70  # characters; DejaVu Sans at 24 px fits about this many across SIZE
LABEL_SIZE = 13  # the labels' font size, pygal's label_font_size below
# A top term's label at most as wide as 24 average letters (by pygal's estimate, 0.6 em each),
# measured in the font: cut by characters, 24 "W"s ran past the panel's left edge.
MAX_LABEL_WIDTH = 24 * 0.6 * LABEL_SIZE


@dataclass(frozen=True)
class Bin:
    start: datetime
    label: str
    count: int


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
    if unit == "hour" and (since is None or edges[0].date() != edges[-1].date()):
        # 24 hours are 25 bars: "14:00" of two days would read as one hour; and all time
        # within one day would name no day at all
        fmt = "%b %d %H:00"
    if unit != "hour" and edges[0].year != edges[-1].year:
        fmt += " '%y"  # "Jan 01" of two years would read as one day, and label two bins alike
    return [Bin(e, e.strftime(fmt), c) for e, c in zip(edges, counts, strict=True)], unit


def nice_ceiling(value: int) -> int:
    """The smallest of 1, 2, 5 × 10^k that is at least `value` (the y axis's top)."""
    top = 1
    while True:
        for factor in (1, 2, 5):
            if top * factor >= value:
                return top * factor
        top *= 10


# (size, suffix, decimals): a count is said in the first unit its rounded figure is under 1,000 of
_UNITS = ((10**3, "k", 0), (10**6, "M", 1), (10**9, "B", 1), (10**12, "T", 1))


def short_number(n: float) -> str:
    """A count as a bar's label or an axis's: "9,999", "10k", "1.5M". The unit is chosen after
    rounding: 999,600 is "1M", not "1000k"."""
    n = int(n)  # pygal hands axis values over as floats
    if n < 10_000:
        return f"{n:,}"
    for size, suffix, decimals in _UNITS[:-1]:
        figure = f"{n / size:.{decimals}f}"
        if float(figure) < 1000:
            return figure.removesuffix(".0") + suffix
    size, suffix, decimals = _UNITS[-1]  # past it too: "9223372T"
    return f"{n / size:.{decimals}f}".removesuffix(".0") + suffix


def _hex(colour: tuple[int, int, int, int]) -> str:
    return "#{:02x}{:02x}{:02x}".format(*colour[:3])


def _style(bars: tuple[int, int, int, int]) -> Style:
    """Every colour pygal would otherwise pick itself, set: opaque bars, grey text and grid."""
    return Style(
        background="transparent",
        plot_background="transparent",
        foreground=_hex(MUTED),
        foreground_strong=_hex(TEXT),
        foreground_subtle=_hex(MUTED),
        guide_stroke_color=_hex(MUTED),
        major_guide_stroke_color=_hex(MUTED),
        colors=(_hex(bars),),
        value_colors=(_hex(TEXT),),
        opacity="1",
        opacity_hover="1",
        font_family=FONT,
        **{f"{text}_font_family": FONT for text in ("title", "label", "major_label", "value")},
        no_data_font_family=FONT,
        title_font_size=16,
        label_font_size=LABEL_SIZE,
        major_label_font_size=LABEL_SIZE,
        value_font_size=13,
        no_data_font_size=16,
    )


def shorten(text: str, most: int) -> str:
    """`text` cut with an ellipsis to at most `most` characters."""
    return text if len(text) <= most else text[: whole_letters_cut(text, most - 1)].rstrip() + "…"


def _svg(chart: pygal.graph.graph.Graph) -> str:
    """The chart's SVG without its XML declaration, to nest inside the picture's own."""
    svg: str = chart.render(is_unicode=True)
    return re.sub(r"^<\?xml[^>]*\?>", "", svg)


def _options(colour: tuple[int, int, int, int], title: str, no_data_text: str) -> dict[str, Any]:
    """What both panels share: our style, no legend, labels never cut short, counts as numbers."""
    return {
        "style": _style(colour),
        "title": title,
        "no_data_text": no_data_text,
        "show_legend": False,
        "truncate_label": -1,
        "value_formatter": short_number,
        "margin": 8,
    }


def _series_chart(series: list[Bin], unit: str, width: int, height: int) -> str:
    peak = max((b.count for b in series), default=0)
    ceiling = nice_ceiling(max(peak, 1))
    chart = pygal.Bar(
        **_options(BARS, f"Lookups per {unit} (UTC)", "No lookups in this period"),
        width=width,
        height=height,
        range=(0, ceiling),
        # Grid lines at 0, half and the top, only at whole numbers; none while there is nothing
        # (pygal then writes no_data_text alone, and fails on explicit y labels).
        y_labels=[v for v in (0, ceiling / 2, ceiling) if v % 1 == 0] if peak else None,
        show_y_guides=bool(peak),
        show_y_labels=bool(peak),
        show_minor_x_labels=False,
        x_label_rotation=0,
        margin_right=24,  # room for half of the last bin's label
    )
    chart.x_labels = [b.label for b in series]
    # As many labels as fit without overlapping, the last bin always labelled.
    longest = max((len(b.label) for b in series), default=0)
    label_width = 70 if longest <= len("Jan 01") else 95 if longest <= len("Jan 01 '23") else 110
    every = max(1, math.ceil(len(series) * label_width / width))
    chart.x_labels_major = [b.label for b in series[len(series) - 1 :: -every]]
    if peak:
        chart.add("lookups", [b.count for b in series])
    return _svg(chart)


def _font_tables() -> tuple[bytes, dict[bytes, int]]:
    font = FONT_FILE.read_bytes()
    (tables,) = struct.unpack_from(">H", font, 4)
    # Each table record: tag, checksum, offset, length.
    offsets = {
        font[12 + 16 * i : 16 + 16 * i]: struct.unpack_from(">I", font, 20 + 16 * i)[0]
        for i in range(tables)
    }
    return font, offsets


@functools.cache
def _font_glyphs() -> dict[int, int]:
    """Code point -> glyph index, for the code points FONT_FILE has glyphs for: its cmap's
    format 12 subtable (every TrueType font of this size has one; DejaVu Sans does)."""
    font, offsets = _font_tables()
    cmap = offsets[b"cmap"]
    (subtables,) = struct.unpack_from(">H", font, cmap + 2)
    glyphs: dict[int, int] = {}
    for i in range(subtables):
        (offset,) = struct.unpack_from(">I", font, cmap + 8 + 8 * i)
        start = cmap + offset
        if struct.unpack_from(">H", font, start)[0] != 12:
            continue
        (groups,) = struct.unpack_from(">I", font, start + 12)
        for group in range(groups):
            first, last, glyph = struct.unpack_from(">III", font, start + 16 + 12 * group)
            for code in range(max(first, 1 if glyph == 0 else first), last + 1):
                glyphs[code] = glyph + code - first
        break
    return glyphs


@functools.cache
def _font_advances() -> tuple[float, ...]:
    """Each glyph's advance width in ems (hhea and hmtx: the last width repeats)."""
    font, offsets = _font_tables()
    (units,) = struct.unpack_from(">H", font, offsets[b"head"] + 18)
    (metrics,) = struct.unpack_from(">H", font, offsets[b"hhea"] + 34)
    hmtx = offsets[b"hmtx"]
    return tuple(struct.unpack_from(">H", font, hmtx + 4 * i)[0] / units for i in range(metrics))


def text_width(text: str, size: float) -> float:
    """`text`'s drawn width in pixels at font `size`, in the chart's font (kerning aside; a
    character it lacks counted as wide as "W")."""
    widths = _font_advances()
    glyphs = _font_glyphs()
    wide = widths[min(glyphs[ord("W")], len(widths) - 1)]
    return size * sum(
        widths[min(glyphs[ord(c)], len(widths) - 1)] if ord(c) in glyphs else wide for c in text
    )


def drawable(name: str, rank: int) -> str:
    """`name` as the chart's font can draw it. Without a font for every script (CJK alone is
    tens of megabytes) a name in letters it lacks became a row of empty boxes: such a name is
    labelled by its place in the list the chart comes with ("#3"); symbols it lacks (emoji) are
    left out of a name it can otherwise draw."""
    covered = _font_glyphs()  # the code points the font has glyphs for
    folded = unicodedata.normalize("NFKC", name)  # fullwidth "Ｚ" is "Z", which it has
    if all(ord(c) in covered for c in folded):
        return folded
    if any(ord(c) not in covered and unicodedata.category(c)[0] in "LN" for c in folded):
        return f"#{rank}"
    kept = " ".join("".join(c for c in folded if ord(c) in covered).split())
    return kept or f"#{rank}"


def fit_width(text: str, most: float) -> str:
    """`text` cut with an ellipsis to at most `most` pixels wide as drawn (LABEL_SIZE)."""
    if text_width(text, LABEL_SIZE) <= most:
        return text

    def cut(keep: int) -> str:
        return text[: whole_letters_cut(text, keep)].rstrip() + "…"

    # The longest cut that fits, found by halving: a cut's width only grows with `keep`, and
    # trying every length from the end took minutes for a name of 10,000 letters.
    fits, too_wide = 0, len(text) + 1
    while too_wide - fits > 1:
        keep = (fits + too_wide) // 2
        if text_width(cut(keep), LABEL_SIZE) <= most:
            fits = keep
        else:
            too_wide = keep
    return cut(fits)


def _terms_chart(terms: Sequence[tuple[str, int]], width: int, height: int) -> str:
    shown = [
        (fit_width(drawable(name, rank), MAX_LABEL_WIDTH) or "?", n)
        for rank, (name, n) in enumerate(terms[:MAX_TERMS], 1)
    ]
    # pygal leaves the labels 0.6 em a character: wide letters draw past that, narrow ones
    # leave it half empty. The left margin makes up the difference either way.
    estimated = 0.6 * LABEL_SIZE * max((len(name) for name, _ in shown), default=0)
    drawn = max((text_width(name, LABEL_SIZE) for name, _ in shown), default=0.0)
    chart = pygal.HorizontalBar(
        **_options(TERMS, "Top terms", "None yet"),
        width=width,
        height=height,
        show_y_guides=False,
        show_x_guides=False,
        show_x_labels=False,
        print_values=True,
        print_values_position="top",
        formatter=lambda n: "\u00a0" + short_number(n),  # a space from the bar's end
        margin_right=56,  # room for the count beside the longest bar
        margin_left=8 + math.ceil(drawn - estimated),
    )
    if any(n for _, n in shown):
        chart.x_labels = [name for name, _ in reversed(shown)]  # most looked-up on top
        chart.add("lookups", [n for _, n in reversed(shown)])
    return _svg(chart)


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
    width, height = SIZE
    series, unit = bins(hours, since, now)
    split, top = int(width * 0.62), 56
    picture = (
        f'<svg xmlns="http://www.w3.org/2000/svg" width="{width}" height="{height}">'
        # pygal centres a count on its bar's end; it reads better beside it
        "<style>.terms text.value{text-anchor:start}</style>"
        f'<text x="24" y="38" font-family="{FONT}" font-size="24" fill="{_hex(TEXT)}">'
        f"{escape(shorten(title, MAX_TITLE))}</text>"
        f'<svg x="0" y="{top}" width="{split}" height="{height - top}">'
        f"{_series_chart(series, unit, split, height - top)}</svg>"
        f'<svg class="terms" x="{split}" y="{top}" width="{width - split}" height="{height - top}">'
        f"{_terms_chart(top_terms, width - split, height - top)}</svg>"
        "</svg>"
    )
    png = resvg_py.svg_to_bytes(
        svg_string=picture, skip_system_fonts=True, font_files=[str(FONT_FILE)], font_family=FONT
    )
    return bytes(png)
