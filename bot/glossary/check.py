"""Checks on the merged glossary: what `glossary-bot check` reports and loading refuses."""

from __future__ import annotations

from urllib.parse import urlparse

from bot import limits
from bot.glossary.models import CATEGORIES, Entry
from bot.glossary.name_rules import text_refusal
from bot.glossary.names import entry_names
from bot.glossary.problems import Problem
from bot.glossary.slug import SLUG_PATTERN

# Fields shown in one embed field each; the definition goes in the description.
FIELD_LIMITS = {
    "summary": limits.EMBED_FIELD_VALUE,
    "boundary": limits.EMBED_FIELD_VALUE,
    "plain": limits.EMBED_FIELD_VALUE,
    "importance": limits.EMBED_FIELD_VALUE,
}
# Prose shown on a card as written (names have their own rule, `name_refusal`).
PROSE_FIELDS = ("definition", "summary", "boundary", "plain", "importance")


def check_entries(
    entries: list[Entry], files: dict[str, str], lines: dict[str, int | None]
) -> list[Problem]:
    """`files` names each source's file (by its key) as given; `lines` gives the line of each
    entry's leading record, where its format tells it. Related ids are checked as they merge."""
    problems: list[Problem] = []
    names = entry_names(entries)
    clashes = {(id(c.claimant), c.name): c.owner for c in names.clashes}

    for entry in entries:
        lead = entry.sources[0]
        file = files.get(lead.source, lead.source)

        def report(message: str, *, _file: str = file, _entry: Entry = entry) -> None:
            local_id = _entry.sources[0].local_id
            problems.append(Problem("error", _file, message, local_id, lines.get(_entry.id)))

        if not SLUG_PATTERN.fullmatch(entry.id):
            report(f"id {entry.id!r} is not a lowercase slug (like 'kv-cache')")
        for _field, message in entry_problems(entry):
            report(message)
        for name in entry.names:
            if not names.key(name):
                report(f"empty name {name!r}")
            other = clashes.get((id(entry), name))
            if other is not None:
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
    for field in PROSE_FIELDS:
        refusal = text_refusal(getattr(entry, field) or "", field)
        if refusal:
            problems.append((field, refusal))
    if entry.reference and not _is_web_url(entry.reference):
        problems.append(("reference", f"bad reference URL {entry.reference!r}"))
    return problems


def _is_web_url(url: str) -> bool:
    parsed = urlparse(url)
    return parsed.scheme in {"http", "https"} and bool(parsed.netloc) and " " not in url
