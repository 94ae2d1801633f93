"""The canonical, hand-editable format (TOML) and the curation overlays for files kept verbatim.

A curated file holds whole entries (`[[entries]]`); an overlay (`*.curation.toml`) adds ids,
categories, names and notes to the entries of a file that is shipped exactly as its source wrote it.
"""

from __future__ import annotations

import tomllib
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.glossary.formats.raw import RawEntry
from bot.glossary.problems import LineFinder, Problem, describe_validation_error


class CuratedEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str = Field(min_length=1)
    title: str = Field(min_length=1)
    category: str = Field(min_length=1)
    definition: str = Field(min_length=1)
    acronym: str | None = None
    aliases: list[str] = Field(default_factory=list)
    summary: str | None = None
    boundary: str | None = None
    importance: str | None = None
    plain: str | None = None
    keywords: list[str] = Field(default_factory=list)
    related: list[str] = Field(default_factory=list)
    reference: str | None = None
    match_terms: list[str] = Field(default_factory=list)
    not_in: list[str] = Field(default_factory=list)
    note: str | None = None


class Overlay(BaseModel):
    """What curation may say about an entry of a verbatim file."""

    model_config = ConfigDict(extra="forbid")

    id: str | None = None
    title: str | None = None
    category: str | None = None
    acronym: str | None = None
    aliases: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    related: list[str] = Field(default_factory=list)
    note: str | None = None


def _read_toml(path: Path, problems: list[Problem]) -> tuple[dict[str, Any], str] | None:
    try:
        text = path.read_text(encoding="utf-8")
        return tomllib.loads(text), text
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(Problem("error", path.name, f"cannot read the file: {exc}"))
    except tomllib.TOMLDecodeError as exc:
        problems.append(Problem("error", path.name, f"not valid TOML: {exc}"))
    return None


def read_curated_toml(path: Path, source: str, problems: list[Problem]) -> list[RawEntry]:
    loaded = _read_toml(path, problems)
    if loaded is None:
        return []
    data, text = loaded
    return curated_entries(data, text, path.name, source, problems)


def curated_entries(
    data: dict[str, Any], text: str, name: str, source: str, problems: list[Problem]
) -> list[RawEntry]:
    """The entries of a curated TOML file already parsed (`data`) from `text`, named `name`."""
    unknown = set(data) - {"entries"}
    if unknown:
        problems.append(Problem("error", name, f"unknown top-level keys: {sorted(unknown)}"))
    items = data.get("entries", [])
    if not isinstance(items, list):
        problems.append(Problem("error", name, "`entries` must be an array of tables"))
        return []

    line_of = LineFinder(text, r'\s*id\s*=\s*"([^"]*)"')
    entries = []
    for position, item in enumerate(items, start=1):
        label = item.get("id") if isinstance(item, dict) else None
        entry_name = label if isinstance(label, str) and label else f"entry #{position}"
        line = line_of(label)
        try:
            curated = CuratedEntry.model_validate(item)
        except ValidationError as exc:
            for msg in describe_validation_error(exc):
                problems.append(Problem("error", name, msg, entry=entry_name, line=line))
            continue
        entries.append(
            RawEntry(
                source=source,
                file=name,
                local_id=curated.id,
                id=curated.id,
                title=curated.title,
                category=curated.category,
                definition=curated.definition,
                acronym=curated.acronym,
                aliases=list(curated.aliases),
                summary=curated.summary,
                boundary=curated.boundary,
                importance=curated.importance,
                plain=curated.plain,
                keywords=list(curated.keywords),
                related=list(curated.related),
                reference=curated.reference,
                match_terms=list(curated.match_terms),
                match_exclusions=list(curated.not_in),
                note=curated.note,
                line=line,
            )
        )
    return entries


def apply_overlay(path: Path, entries: list[RawEntry], problems: list[Problem]) -> None:
    """Apply a curation overlay, keyed by each entry's local id, to the entries of one file."""
    loaded = _read_toml(path, problems)
    if loaded is None:
        return
    data, text = loaded
    unknown = set(data) - {"entries"}
    if unknown:
        problems.append(Problem("error", path.name, f"unknown top-level keys: {sorted(unknown)}"))
    by_local_id = {e.local_id: e for e in entries}
    line_of = LineFinder(text, r'\s*\[entries\."(.*)"\]')
    for local_id, item in data.get("entries", {}).items():
        line = line_of(local_id)
        try:
            overlay = Overlay.model_validate(item)
        except ValidationError as exc:
            for msg in describe_validation_error(exc):
                problems.append(Problem("error", path.name, msg, entry=local_id, line=line))
            continue
        entry = by_local_id.get(local_id)
        if entry is None:
            problems.append(
                Problem(
                    "error",
                    path.name,
                    "curation names an entry that is not in the file it curates",
                    entry=local_id,
                    line=line,
                )
            )
            continue
        _apply(entry, overlay)


def _apply(entry: RawEntry, overlay: Overlay) -> None:
    if overlay.id:
        entry.id = overlay.id
    if overlay.title:
        if overlay.title != entry.title:
            entry.aliases.append(entry.title)  # the file's own name stays findable
        entry.title = overlay.title
    if overlay.category:
        entry.category = overlay.category
    if overlay.acronym:
        entry.acronym = overlay.acronym
    entry.aliases.extend(overlay.aliases)
    entry.keywords.extend(overlay.keywords)
    entry.related.extend(overlay.related)
    if overlay.note:
        entry.note = overlay.note
