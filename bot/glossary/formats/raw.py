"""What every reader produces (one source's record of one concept, before merging), and the
reading of a file each starts with."""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import Any

from bot.glossary.problems import Problem, read_utf8


class RawEntry:
    """Changed in place by a curation overlay; each list is the entry's own."""

    def __init__(
        self,
        *,
        source: str,
        file: str,
        local_id: str,
        id: str,
        title: str,
        definition: str,
        category: str | None = None,
        acronym: str | None = None,
        aliases: Sequence[str] = (),
        summary: str | None = None,
        boundary: str | None = None,
        importance: str | None = None,
        plain: str | None = None,
        keywords: Sequence[str] = (),
        related: Sequence[str] = (),
        see_also: Sequence[str] = (),
        reference: str | None = None,
        match_terms: Sequence[str] = (),
        match_exclusions: Sequence[str] = (),
        note: str | None = None,
        other_senses: Sequence[str] = (),
        line: int | None = None,
    ) -> None:
        self.source = source  # SourceInfo.key
        self.file = file  # for problem reports
        self.local_id = local_id  # topic id, heading, or curated id: what an overlay is keyed by
        self.id = id
        self.title = title
        self.definition = definition
        self.category = category
        self.acronym = acronym
        self.aliases = list(aliases)
        self.summary = summary
        self.boundary = boundary
        self.importance = importance
        self.plain = plain
        self.keywords = list(keywords)
        self.related = list(related)  # entry ids
        self.see_also = list(see_also)  # names from "See X." to resolve later
        self.reference = reference
        self.match_terms = list(match_terms)
        self.match_exclusions = list(match_exclusions)
        self.note = note  # a curation note for maintainers
        # a server term's, from a file of terms (the glossary's are in other-senses/*.toml)
        self.other_senses = list(other_senses)
        self.line = line


# Prose shown on a card as written (names have their own rule, `name_refusal`).
PROSE_FIELDS = ("definition", "summary", "boundary", "plain", "importance")


def from_record(
    fields: dict[str, Any], *, source: str, file: str, line: int | None = None
) -> RawEntry:
    """A reader's validated record (its fields by name; `not_in` as the formats spell the
    match exclusions) as a RawEntry keyed by its own id. Line breaks written inside its texts
    the Windows way ("\\r\\n", escaped: a script's file of text typed on Windows) or an old
    Mac's ("\\r") are "\\n", as a file's own line ends are read: a line break, which prose
    may hold, not the control character it may not."""
    exclusions = fields.pop("not_in", [])
    for name in PROSE_FIELDS:
        text = fields.get(name)
        if isinstance(text, str) and "\r" in text:
            fields[name] = text.replace("\r\n", "\n").replace("\r", "\n")
    return RawEntry(
        source=source,
        file=file,
        local_id=fields["id"],
        match_exclusions=exclusions,
        line=line,
        **fields,
    )


# What git leaves in a file whose merge conflicted: inside a string the parsers take it as
# text, and a card would show both sides and the markers.
_CONFLICT_MARKER = re.compile(r"^(?:<{7}|>{7})(?:[ \t]|$)", re.MULTILINE)
CONFLICT_MESSAGE = (
    "an unresolved merge conflict (a line starting with <<<<<<< or >>>>>>>): keep one side "
    "and remove the marker lines"
)


def conflict_line(text: str) -> int | None:
    """The line of the first merge conflict marker in `text`, if any."""
    found = _CONFLICT_MARKER.search(text)
    return None if found is None else text.count("\n", 0, found.start()) + 1


def read_text(path: Path, problems: list[Problem]) -> str | None:
    """The file's text, or None with the problem reported (named as the path was given)."""
    text = read_utf8(path, problems)
    if text is None:
        return None
    line = conflict_line(text)
    if line is not None:
        problems.append(Problem("error", str(path), CONFLICT_MESSAGE, line=line))
        return None
    return text


Parse = Callable[[str, str, str, list[Problem]], list[RawEntry]]  # (text, name, source, problems)


def file_reader(parse: Parse) -> Callable[[Path, str, list[Problem]], list[RawEntry]]:
    """A reader of files from a parser of their text; problems name the file as it was given."""

    def read(path: Path, source: str, problems: list[Problem]) -> list[RawEntry]:
        text = read_text(path, problems)
        return [] if text is None else parse(text, str(path), source, problems)

    return read
