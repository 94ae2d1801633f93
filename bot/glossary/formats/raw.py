"""What every reader produces (one source's record of one concept, before merging), and the
reading of a file each starts with."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from bot.glossary.problems import Problem


@dataclass
class RawEntry:
    source: str  # SourceInfo.key
    file: str  # for problem reports
    local_id: str  # topic id, heading, or curated id: what the curation overlay is keyed by
    id: str
    title: str
    definition: str
    category: str | None = None
    acronym: str | None = None
    aliases: list[str] = field(default_factory=list)
    summary: str | None = None
    boundary: str | None = None
    importance: str | None = None
    plain: str | None = None
    keywords: list[str] = field(default_factory=list)
    related: list[str] = field(default_factory=list)  # entry ids
    see_also: list[str] = field(default_factory=list)  # names from "See X." to resolve later
    reference: str | None = None
    match_terms: list[str] = field(default_factory=list)
    match_exclusions: list[str] = field(default_factory=list)
    note: str | None = None  # a curation note for maintainers
    line: int | None = None


def from_record(
    fields: dict[str, Any], *, source: str, file: str, line: int | None = None
) -> RawEntry:
    """A reader's validated record (its fields by name; `not_in` as the formats spell the
    match exclusions) as a RawEntry keyed by its own id."""
    exclusions = fields.pop("not_in", [])
    return RawEntry(
        source=source,
        file=file,
        local_id=fields["id"],
        match_exclusions=exclusions,
        line=line,
        **fields,
    )


def read_text(path: Path, problems: list[Problem]) -> str | None:
    """The file's text, or None with the problem reported (named as the path was given)."""
    try:
        return path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(Problem("error", str(path), f"cannot read the file: {exc}"))
        return None


Parse = Callable[[str, str, str, list[Problem]], list[RawEntry]]  # (text, name, source, problems)


def file_reader(parse: Parse) -> Callable[[Path, str, list[Problem]], list[RawEntry]]:
    """A reader of files from a parser of their text; problems name the file as it was given."""

    def read(path: Path, source: str, problems: list[Problem]) -> list[RawEntry]:
        text = read_text(path, problems)
        return [] if text is None else parse(text, str(path), source, problems)

    return read
