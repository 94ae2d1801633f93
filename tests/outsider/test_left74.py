"""left74 (PLAN.md, "left74"): loose ends outsider74 noticed, below Discord."""

from __future__ import annotations

from bot.glossary import bundled_data_dir, load_glossary
from bot.glossary.interchange import parse_import


def _problems_importing(name: str) -> list[str]:
    data = bundled_data_dir()
    terms, problems = parse_import((data / name).read_bytes(), name, load_glossary([data]))
    assert terms == [], terms
    return [str(p) for p in problems]


def test_the_sources_file_imported_as_terms_says_what_it_is() -> None:
    """outsider74: `/term import` of data/sources.toml said "unknown top-level key:
    ['sources']", a Python list, and not that the file is the glossary's sources file."""
    said = _problems_importing("sources.toml")
    line = next(p for p in said if "unknown top-level key" in p)
    assert "key 'sources'" in line, said  # as written, not a Python list
    assert "this looks like the glossary's sources file" in line, said


def test_a_curation_overlay_imported_as_terms_says_what_it_is() -> None:
    """outsider74: an overlay imported as a server's terms said "`entries` must be an array of
    tables", true, but not that the file is an overlay, which no server imports."""
    said = _problems_importing("llm-studio-topics.curation.toml")
    line = next(p for p in said if "array of tables" in p)
    assert "this looks like a curation overlay" in line, said
    assert "write each entry under [[entries]] (two brackets)" in line, said
