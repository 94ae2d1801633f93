"""Checks on the merged glossary: what `glossary-bot check` reports and loading refuses."""

from __future__ import annotations

from urllib.parse import urlparse

from bot import limits
from bot.glossary.keys import compact
from bot.glossary.models import CATEGORIES, Entry, SourceInfo
from bot.glossary.problems import Problem

# Fields shown in one embed field each; the definition goes in the description.
FIELD_LIMITS = {
    "summary": limits.EMBED_FIELD_VALUE,
    "boundary": limits.EMBED_FIELD_VALUE,
    "plain": limits.EMBED_FIELD_VALUE,
    "importance": limits.EMBED_FIELD_VALUE,
}


def check_entries(
    entries: list[Entry], sources: list[SourceInfo], lines: dict[str, int | None]
) -> list[Problem]:
    """`lines` gives the line of each entry's leading record, where its format tells it."""
    files = {s.key: s.file for s in sources}
    ids = {e.id for e in entries}
    problems: list[Problem] = []
    owners: dict[str, Entry] = {}

    for entry in entries:
        lead = entry.sources[0]
        file = files.get(lead.source, lead.source)

        def report(message: str, *, _file: str = file, _entry: Entry = entry) -> None:
            local_id = _entry.sources[0].local_id
            problems.append(Problem("error", _file, message, local_id, lines.get(_entry.id)))

        for _field, message in entry_problems(entry):
            report(message)
        for target in entry.related:
            if target not in ids:
                report(f"related id {target!r} names no entry")
        for name in entry.names:
            key = compact(name)
            if not key:
                report(f"empty name {name!r}")
                continue
            other = owners.setdefault(key, entry)
            if other.id != entry.id:
                report(
                    f"name {name!r} is claimed by two entries: {other.id!r} "
                    f"({files.get(other.sources[0].source)}) and {entry.id!r}"
                )
    return problems


def entry_problems(entry: Entry) -> list[tuple[str, str]]:
    """The checks one entry passes on its own, as (field, message), the field being the Entry
    field at fault: `check`'s rules, which server terms share."""
    problems: list[tuple[str, str]] = []
    if not entry.title.strip():
        problems.append(("title", "empty title"))
    if not entry.definition.strip():
        problems.append(("definition", "empty definition"))
    if not entry.category:
        problems.append(
            ("category", "no category (give it one; for a verbatim file, in its curation overlay)")
        )
    elif entry.category not in CATEGORIES:
        problems.append(
            ("category", f"unknown category {entry.category!r} (one of: {', '.join(CATEGORIES)})")
        )
    if len(entry.display_title) > limits.EMBED_TITLE:
        problems.append(("title", f"title longer than {limits.EMBED_TITLE} characters"))
    if len(entry.definition) > limits.EMBED_DESCRIPTION:
        problems.append(
            ("definition", f"definition longer than {limits.EMBED_DESCRIPTION} characters")
        )
    for field, limit in FIELD_LIMITS.items():
        value = getattr(entry, field)
        if value and len(value) > limit:
            problems.append((field, f"{field} longer than {limit} characters ({len(value)})"))
    if entry.reference and not _is_web_url(entry.reference):
        problems.append(("reference", f"bad reference URL {entry.reference!r}"))
    return problems


def _is_web_url(url: str) -> bool:
    parsed = urlparse(url)
    return parsed.scheme in {"http", "https"} and bool(parsed.netloc) and " " not in url
