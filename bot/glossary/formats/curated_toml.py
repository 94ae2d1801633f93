"""The canonical, hand-editable format (TOML) and the curation overlays for files kept verbatim.

A curated file holds whole entries (`[[entries]]`); an overlay (`*.curation.toml`) adds ids,
categories, names and notes to the entries of a file that is shipped exactly as its source wrote it.
"""

# Annotations are evaluated as the module loads (no `from __future__ import annotations`): the
# records' field types are read at every start (bot.glossary.records), and strings would be
# evaluated one by one then.

import difflib
import functools
from collections import Counter
from collections.abc import Callable
from pathlib import Path
from typing import Any

from bot.glossary.formats.raw import RawEntry, from_record, read_text
from bot.glossary.models import CATEGORIES
from bot.glossary.problems import LineFinder, Problem, entry_label, validate_fields
from bot.glossary.records import Record, RecordError, field, parse_fields, required_keys
from bot.glossary.toml import TomlError, parse_toml


class CuratedEntry(Record):
    # Required, but an empty one is reported by `check` with the entry's other problems.
    id: str
    title: str
    category: str
    definition: str
    acronym: str | None = None
    aliases: list[str] = field(default_factory=list)
    summary: str | None = None
    boundary: str | None = None
    importance: str | None = None
    plain: str | None = None
    keywords: list[str] = field(default_factory=list)
    related: list[str] = field(default_factory=list)
    reference: str | None = None
    match_terms: list[str] = field(default_factory=list)
    not_in: list[str] = field(default_factory=list)
    note: str | None = None


class ImportedEntry(CuratedEntry):
    """An entry of a curated file a moderator imports: one without a category is read, to be
    given one as a Markdown term is (the entry it words, else the import's default, else
    "choose a category"), and one without an id too, not refused as a bundled file's entry
    would be."""

    category: str | None = None  # type: ignore[assignment]
    # A file written by hand with what the form asks has no ids: each is then a slug of its
    # title, as the form gives one (a Markdown heading's is made so too).
    id: str = ""
    # A server term's other senses (`ServerTerm.other_senses`); the glossary's own entries
    # have theirs in other-senses/*.toml.
    other_senses: list[str] = field(default_factory=list)


class Overlay(Record):
    """What curation may say about an entry of a verbatim file."""

    id: str | None = None
    title: str | None = None
    category: str | None = None
    acronym: str | None = None
    aliases: list[str] = field(default_factory=list)
    keywords: list[str] = field(default_factory=list)
    related: list[str] = field(default_factory=list)
    note: str | None = None


def unknown_top_level(data: dict[str, Any], written: str) -> str | None:
    """The problem with top-level keys other than `entries`, or None. A near miss (`[[entry]]`,
    `[[Entries]]`, `[[entrys]]`) reads as a file of no entries: the line says which key was
    meant, written as the file writes it (`written`)."""
    unknown = sorted(set(data) - {"entries"})
    if not unknown:
        return None
    names = [repr(key) for key in unknown]  # named as written, not as a Python list
    named = f"{', '.join(names[:-1])} and {names[-1]}" if len(names) > 1 else names[0]
    said = f"unknown top-level key{'s' if len(unknown) > 1 else ''} {named}"
    near = [k for k in unknown if difflib.get_close_matches(k.lower(), ["entries"], cutoff=0.6)]
    if near:
        said += f" (did you mean {written}? {near[0]!r} is not read)"
    elif _tables(data.get("sources")) and "entries" not in data:
        said += ": this looks like the glossary's sources file (`[[sources]]`), not a file of terms"
    return said


# `[entries."id"]` tables, each amending a bundled entry, where a file of terms was expected.
_OVERLAY = (
    'this looks like a curation overlay (`[entries."id"]` tables amending a bundled file\'s '
    "entries), not a file of terms; "
)


def _overlay(items: Any) -> bool:
    return (
        isinstance(items, dict) and bool(items) and all(isinstance(v, dict) for v in items.values())
    )


def _tables(value: Any) -> bool:
    """Whether `value` is a non-empty array of tables (`[[name]]`)."""
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _read_toml(path: Path, problems: list[Problem]) -> tuple[dict[str, Any], str] | None:
    text = read_text(path, problems)
    if text is None:
        return None
    try:
        return parse_toml(text), text
    except TomlError as exc:
        problems.append(Problem("error", str(path), str(exc)))
        return None


def read_curated_toml(path: Path, source: str, problems: list[Problem]) -> list[RawEntry]:
    loaded = _read_toml(path, problems)
    if loaded is None:
        return []
    data, text = loaded
    return curated_entries(data, text, str(path), source, problems)


def curated_entries(
    data: dict[str, Any],
    text: str,
    name: str,
    source: str,
    problems: list[Problem],
    kind: type[CuratedEntry] = CuratedEntry,
) -> list[RawEntry]:
    """The entries of a curated TOML file already parsed (`data`) from `text`, named `name`,
    each read as a `kind` record."""
    unknown = unknown_top_level(data, "[[entries]]")
    if unknown:
        problems.append(Problem("error", name, unknown))
    items = data.get("entries", [])
    if not isinstance(items, list):
        problems.append(
            Problem(
                "error",
                name,
                "`entries` must be an array of tables: "
                + (_OVERLAY if _overlay(items) else "")
                + "write each entry under [[entries]] (two brackets)",
            )
        )
        return []

    line_of = LineFinder(text, r'[ \t]*id[ \t]*=[ \t]*"([^"\n]*)"')
    headers: LineFinder | None = None  # read only for an entry without an id: rare
    entries = []
    seen: Counter[str] = Counter()  # how many entries so far had each id
    for position, item in enumerate(items, start=1):
        label = item.get("id") if isinstance(item, dict) else None
        line, copy = None, 0
        if isinstance(label, str):  # a second entry with an id is reported at its own line
            line, copy = line_of(label, seen[label]), seen[label]
            seen[label] += 1
        else:  # a hand-written file without ids: its `[[entries]]` line
            headers = headers or LineFinder(text, r"[ \t]*\[\[[ \t]*(entries)[ \t]*\]\]")
            if headers.count("entries") == len(items):  # one header per entry, in order
                line = headers("entries", position - 1)
        entry_name = entry_label(item, position, "entry", copy, source)

        def report(message: str, *, _entry: str = entry_name, _line: int | None = line) -> None:
            problems.append(Problem("error", name, message, entry=_entry, line=_line))

        rest = functools.partial(rest_checked, kind, report=report)
        fields = validate_fields(kind, item, report, rest)
        if fields is not None:
            entries.append(from_record(fields, source=source, file=name, line=line))
    return entries


# What a refused entry's required fields are read as, to check the rest (never loaded): each
# told apart, so no rule reads two stand-ins as one text repeated.
_STAND_INS: dict[str, object] = {
    "id": "probe",
    "title": "Probe",
    "category": CATEGORIES[0],
    "definition": "A probe's definition.",
    "number": 1,
    "summary": "A probe's summary.",
    "importance": "A probe's importance.",
    "boundary": "A probe's boundary.",
    "keywords": [],
    "related": [],
}


def rest_checked(
    kind: type[Any],
    item: dict[str, Any],
    refused: frozenset[str],
    *,
    report: Callable[[str], None],
    given_only: bool = False,
) -> None:
    """An entry refused (a missing definition, a list given as text) still has its other
    fields checked by `check`'s rules (`entry_problems`: an unknown category, a bad
    reference), one line each, so one run says every problem; never loaded. Those refused
    are said by the refusal alone; its required fields left out are stood in for
    (`_STAND_INS`). `given_only`: only what the item itself gives is judged (a curation
    overlay's entry, whose other fields are its file's)."""
    from bot.glossary.check import entry_problems
    from bot.glossary.server_terms import entry_probe

    kept = {key: value for key, value in item.items() if key not in refused}
    given = frozenset(kept)
    for key in required_keys(kind):
        if key in _STAND_INS:
            kept.setdefault(key, _STAND_INS[key])
    try:
        values = parse_fields(kind, kept)
    except RecordError:  # what else is wrong is said once that is mended
        return
    for field_name, message in entry_problems(entry_probe(values)):
        if field_name not in refused and (not given_only or field_name in given):
            report(message)


def apply_overlay(
    path: Path, entries: list[RawEntry], problems: list[Problem], *, curated_read: bool = True
) -> None:
    """Apply a curation overlay, keyed by each entry's local id, to the entries of one file.
    `curated_read` False: that file could not be read, so the overlay's ids are not checked
    against it (each would be "not in the file", 89 lines under the file's one error): one
    line says so."""
    loaded = _read_toml(path, problems)
    if loaded is None:
        return
    data, text = loaded
    if not curated_read:
        count = len(data.get("entries", {})) if isinstance(data.get("entries"), dict) else 0
        problems.append(
            Problem(
                "error",
                str(path),
                f"its {count:,} entr{'y is' if count == 1 else 'ies are'} not checked: the file it "
                "curates could not be read; `check` checks them once it reads",
            )
        )
        return
    unknown = unknown_top_level(data, '[entries."…"]')
    if unknown:
        problems.append(Problem("error", str(path), unknown))
    overlays = data.get("entries", {})
    if not isinstance(overlays, dict):  # `[[entries]]`, as a curated file writes them
        problems.append(
            Problem(
                "error",
                str(path),
                "an overlay's `entries` are tables named by id: write each as "
                '[entries."…"] (one pair of brackets)',
            )
        )
        return
    by_local_id = {e.local_id: e for e in entries}
    line_of = LineFinder(text, r'[ \t]*\[entries\."(.*)"\]')
    for local_id, item in overlays.items():
        line = line_of(local_id)

        def report(message: str, *, _entry: str = local_id, _line: int | None = line) -> None:
            problems.append(Problem("error", str(path), message, entry=_entry, line=_line))

        # One refused (aliases given as text) has the rest of what it says checked too, and
        # whether its entry is there: one run says every problem.
        rest = functools.partial(rest_checked, Overlay, report=report, given_only=True)
        fields = validate_fields(Overlay, item, report, rest)
        entry = by_local_id.get(local_id)
        if entry is None:
            problems.append(
                Problem(
                    "error",
                    str(path),
                    "curation names an entry that is not in the file it curates",
                    entry=local_id,
                    line=line,
                )
            )
            continue
        if fields is not None:
            _apply(entry, Overlay(**fields))


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
