"""The glossary: loading, validating and merging the data files into immutable entries."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

from bot.glossary.asked_as import apply_asked_as, read_asked_as
from bot.glossary.check import check_entries
from bot.glossary.merge import merge_sources
from bot.glossary.models import CATEGORIES, Entry, Glossary, SourceInfo, SourceNote, SourceText
from bot.glossary.problems import GlossaryError, Problem
from bot.glossary.sources import bundled_data_dir, read_sources

__all__ = [
    "CATEGORIES",
    "Entry",
    "Glossary",
    "GlossaryError",
    "Problem",
    "SourceInfo",
    "SourceNote",
    "SourceText",
    "bundled_data_dir",
    "inspect_glossary",
    "load_glossary",
]


def inspect_glossary(
    paths: Sequence[Path] | None = None, stage: Callable[[str], None] = lambda _: None
) -> tuple[Glossary, list[Problem]]:
    """Read and merge everything, returning the glossary with every problem found (for `check`).
    `stage` hears of each of the three stages as it begins (progress on a terminal)."""
    problems: list[Problem] = []
    stage("check: reading files")
    folders = list(paths) if paths else [bundled_data_dir()]
    sources = read_sources(folders, problems)
    stage(f"check: merging {len(sources)} sources")
    entries, lines = merge_sources(sources, problems)
    entries = apply_asked_as(entries, read_asked_as(folders, problems), problems)
    files = {s.info.key: s.location for s in sources}
    stage(f"check: checking {len(entries):,} entries")
    problems.extend(check_entries(entries, files, lines))
    if not entries and not any(p.severity == "error" for p in problems):
        where = ", ".join(str(p) for p in paths) if paths else "the bundled data"
        problems.append(Problem("error", where, "no glossary entries found"))
    return Glossary(tuple(entries), tuple(s.info for s in sources)), problems


def load_glossary(paths: Sequence[Path] | None = None) -> Glossary:
    """The glossary to serve; raises GlossaryError (naming file and entry) if any data is bad."""
    glossary, problems = inspect_glossary(paths)
    if any(p.severity == "error" for p in problems):  # no entries at all is one of them
        raise GlossaryError(problems)
    return glossary
