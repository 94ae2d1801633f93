"""What every reader produces: one source's record of one concept, before merging."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any


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
