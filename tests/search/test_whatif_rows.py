"""product73: the what-if scripts (bench/*_rows_changed.py) read relevance rows as the report does
(`bench.relevance_report.every_case`, `load_cases`): `also` split on ",", an off-topic row's
`expected` ("-") no entry. react70's, asked71's and review71's read the TSVs themselves, split
`also` on "|" and took an off-topic row of kind "off-topic" for an on-topic one expecting "-"."""

from __future__ import annotations

from pathlib import Path

from bench import asked71_rows_changed, react70_rows_changed
from bench.relevance_report import shown_row_by_row
from bot.search.relevance import load_cases
from bot.search.results import SearchResult
from tests.search.conftest import make_entry


def test_a_what_if_counts_a_row_as_the_report_does(tmp_path: Path) -> None:
    path = tmp_path / "relevance_x.tsv"
    path.write_text(
        "slice\tkind\tquery\texpected\talso\n"
        "dev\tquestion\tlora or a kv cache\tlora-qlora\trag,kv-cache\n"
        "dev\toff-topic\tmy cat\t-\t\n",
        encoding="utf-8",
    )
    both, off = load_cases(path)
    kv_cache = SearchResult.opened(make_entry("kv-cache", "KV Cache"))
    nothing = SearchResult("none", None, None, 0.0, "my cat", "my cat")
    assert react70_rows_changed.outcome(both, kv_cache) == "right"
    assert asked71_rows_changed.outcome(both, kv_cache) == ("right", True)
    assert react70_rows_changed.outcome(off, nothing) == "ok"
    assert react70_rows_changed.outcome(off, kv_cache) == "offcard"
    assert asked71_rows_changed.outcome(off, nothing) == ("ok", False)


def test_a_what_if_shows_tuning_rows_only() -> None:
    """Held-out slices and calib are counted, never printed row by row (the brief)."""
    assert not shown_row_by_row("test34")
    assert not shown_row_by_row("everyday-check")
    assert not shown_row_by_row("calib")
    assert shown_row_by_row("dev26")
