"""The stats chart: a PNG of the expected size that shows the counts it was given, readable on
dark and light backgrounds, whatever the data (none, huge, long names, years of it)."""

from __future__ import annotations

import io
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest
from PIL import Image

from bot.cards import chart
from bot.cards.chart import (
    BARS,
    LABEL_SIZE,
    MUTED,
    SIZE,
    TERMS,
    TEXT,
    bins,
    fit_width,
    lookups_chart,
    nice_ceiling,
    text_width,
)
from bot.discord_app.app import GlossaryBot
from bot.glossary.letters import whole_letters_cut
from bot.storage import Store
from tests.discord_app.helpers import define, embed_of

from .conftest import Scene

NOW = datetime(2026, 12, 1, 14, 30, tzinfo=UTC)
PNG_MAGIC = b"\x89PNG\r\n\x1a\n"


def hour(days_ago: float) -> datetime:
    return (NOW - timedelta(days=days_ago)).replace(minute=0, second=0, microsecond=0)


def opened(png: bytes) -> Image.Image:
    assert png.startswith(PNG_MAGIC)
    image = Image.open(io.BytesIO(png))
    image.verify()  # a complete, uncorrupted PNG
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    assert image.size == SIZE
    return image.convert("RGBA")


def colour_share(image: Image.Image, colour: tuple[int, int, int, int]) -> float:
    colours = image.getcolors(maxcolors=SIZE[0] * SIZE[1]) or []
    return sum(n for n, c in colours if c == colour) / (SIZE[0] * SIZE[1])


def test_a_week_of_lookups_draws_bars_and_top_terms_on_a_transparent_background() -> None:
    hours = {hour(d): 10 for d in range(7)}
    png = lookups_chart(
        hours, [("KV Cache", 40), ("RAG", 20)], since=NOW - timedelta(days=7), now=NOW, title="t"
    )
    image = opened(png)
    assert image.getpixel((0, 0))[3] == 0  # transparent: Discord's theme shows through
    assert image.getpixel((SIZE[0] - 1, SIZE[1] - 1))[3] == 0
    assert colour_share(image, BARS) > 0.05
    assert colour_share(image, TERMS) > 0.005


def test_the_picture_changes_with_the_data() -> None:
    since = NOW - timedelta(days=7)
    few = opened(lookups_chart({hour(1): 1}, [], since=since, now=NOW, title="t"))
    many = opened(
        lookups_chart({hour(d): 5 for d in range(7)}, [], since=since, now=NOW, title="t")
    )
    assert colour_share(many, BARS) > 3 * colour_share(few, BARS) > 0


def grey_pixels(image: Image.Image, box: tuple[int, int, int, int]) -> int:
    """Pixels of the text colours inside `box`, at any coverage (the edges of glyphs keep their
    colour and are only less opaque)."""
    colours = image.crop(box).getcolors(maxcolors=SIZE[0] * SIZE[1]) or []
    greys = [grey[:3] for grey in (TEXT, MUTED)]
    return sum(
        n
        for n, c in colours
        if c[3] > 0
        and any(all(abs(a - b) <= 8 for a, b in zip(c[:3], g, strict=True)) for g in greys)
    )


def test_the_title_labels_and_term_names_are_drawn_as_text() -> None:
    # The image has no system fonts: a renderer that finds none draws the shapes and no text.
    since, title_area = NOW - timedelta(days=7), (0, 0, SIZE[0], 50)
    week = {hour(d): 3 for d in range(7)}
    titled = opened(lookups_chart(week, [("RAG", 2)], since=since, now=NOW, title="Lookups"))
    untitled = opened(lookups_chart(week, [("RAG", 2)], since=since, now=NOW, title=""))
    assert grey_pixels(titled, title_area) > 100
    assert grey_pixels(untitled, title_area) == 0
    below_the_bars = (0, SIZE[1] - 40, int(SIZE[0] * 0.6), SIZE[1])  # the day labels
    assert grey_pixels(untitled, below_the_bars) > 100
    long_name = opened(
        lookups_chart(week, [("Retrieval-augmented", 2)], since=since, now=NOW, title="")
    )
    terms_panel = (int(SIZE[0] * 0.62), 50, SIZE[0], SIZE[1])
    assert grey_pixels(long_name, terms_panel) > 1.5 * grey_pixels(untitled, terms_panel) > 0


def test_nothing_to_show_is_still_a_valid_picture() -> None:
    image = opened(lookups_chart({}, [], since=None, now=NOW, title="Lookups · all time · 0"))
    assert colour_share(image, BARS) == 0
    assert colour_share(image, TERMS) == 0


def test_hostile_data_stays_inside_the_picture() -> None:
    hours = {hour(d / 24): 10**12 for d in range(3 * 365 * 24)}  # years, every hour, huge
    terms = [("x" * 10_000, 10**15), ("💥" * 500, 1), ("", 0)] + [(f"t{i}", i) for i in range(50)]
    png = lookups_chart(hours, terms, since=None, now=NOW, title="t" * 5000)
    opened(png)


@pytest.mark.parametrize(
    "name", ["W" * 40, "x " * 30, "e\u0301" * 40, "👍🏽" * 20 + "i" * 30, "🇫🇷" * 25, "ok"]
)
def test_a_label_is_cut_to_the_longest_whole_letters_that_fit(name: str) -> None:
    most = 0.5 * text_width(name, LABEL_SIZE) + LABEL_SIZE  # room for "…" at least
    shown = fit_width(name, most)
    if text_width(name, LABEL_SIZE) <= most:
        assert shown == name
        return
    assert shown.endswith("…")
    assert text_width(shown, LABEL_SIZE) <= most
    kept = len(shown) - 1
    assert name[:kept].rstrip() == shown[:-1]
    # one whole letter more would not fit
    longer = next(
        name[: whole_letters_cut(name, n)].rstrip() + "…"
        for n in range(kept + 1, len(name) + 1)
        if name[: whole_letters_cut(name, n)].rstrip() != shown[:-1]
    )
    assert text_width(longer, LABEL_SIZE) > most


def test_a_name_of_10_000_letters_is_measured_a_few_times_not_once_a_length(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Trying every length from the end measured a 10,000-letter name 10,000 times: the hostile
    picture above took minutes. Halving the length measures it about log2(10,000) times."""
    measured: list[str] = []

    def counted(text: str, size: float) -> float:
        measured.append(text)
        return text_width(text, size)

    monkeypatch.setattr(chart, "text_width", counted)
    assert fit_width("x" * 10_000, chart.MAX_LABEL_WIDTH).endswith("x…")
    assert len(measured) <= 20


def test_bins_by_hour_day_or_week_and_keep_every_count_in_the_period() -> None:
    hours = {hour(d / 24): 1 for d in range(24 * 40)}  # an hour each, 40 days back
    day, unit = bins(hours, NOW - timedelta(days=1), NOW)
    assert unit == "hour"
    assert len(day) in (24, 25)
    week, unit = bins(hours, NOW - timedelta(days=7), NOW)
    assert unit == "day"
    assert len(week) == 8
    assert week[-1].label == "Dec 01"
    assert sum(b.count for b in week) == sum(1 for h in hours if h >= week[0].start)
    years, unit = bins({hour(1000): 3, hour(0): 4}, None, NOW)
    assert unit == "week"
    assert sum(b.count for b in years) == 7
    assert bins({hour(400): 1}, NOW - timedelta(days=30), NOW)[0][0].count == 0  # before: out


def test_the_y_axis_tops_at_a_round_number() -> None:
    assert [nice_ceiling(n) for n in (1, 2, 3, 7, 11, 250, 501)] == [1, 2, 5, 10, 20, 500, 1000]


async def test_the_store_reads_lookups_per_hour_stored_and_buffered(tmp_path: Path) -> None:
    times = iter([NOW - timedelta(days=2)] * 3 + [NOW] * 100)
    store = await Store.open(tmp_path / "c.db", flush_interval=None, clock=lambda: next(times))
    try:
        for _ in range(3):
            store.record_lookup(7, "kv-cache")  # two days ago, written to the database
        assert await store.flush()
        store.record_lookup(7, "rag")  # now, still buffered
        store.record_lookup(8, "rag")  # another server
        mine = await store.lookups_by_hour(7)
        assert mine == {hour(2): 3, NOW.replace(minute=0): 1}
        assert sum((await store.lookups_by_hour(None)).values()) == 5
        assert await store.lookups_by_hour(7, NOW - timedelta(hours=1)) == {
            NOW.replace(minute=0): 1
        }
    finally:
        await store.close()


async def test_stats_attaches_the_chart_of_this_server(
    scene: Scene, bot: GlossaryBot, store: Store
) -> None:
    fake = scene.fake
    for term in ("kv cache", "kv cache", "rag"):
        await define(fake, scene.alice, term, scene.channel)
    await define(fake, scene.alice, "lora", scene.other_channel)  # another server's
    handle = await fake.slash(scene.moderator, "stats", {"period": "day"}, channel=scene.channel)
    message = await handle.final_message()
    (attachment,) = message["attachments"]
    assert attachment["filename"] == "lookups.png"
    assert embed_of(message)["image"]["url"].endswith("lookups.png")
    image = opened(fake.attachment_bytes(attachment))
    assert colour_share(image, BARS) > 0  # this hour's three lookups
    assert colour_share(image, TERMS) > 0
