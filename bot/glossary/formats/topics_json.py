"""The topics JSON shape (seed 003, LLM Studio): the richest source and the one cards are built on."""

# Annotations are evaluated as the module loads (no `from __future__ import annotations`): the
# records' field types are read at every start (bot.glossary.records), and strings would be
# evaluated one by one then.

import functools
import json
import re
from collections import Counter

from bot.glossary.formats.curated_toml import rest_checked
from bot.glossary.formats.raw import RawEntry, file_reader, from_record
from bot.glossary.problems import Problem, entry_label, lines_at, validate_fields
from bot.glossary.records import Record, RecordError, field, parse_record

KNOWN_HASH_ALGORITHMS = {"sha256-utf8-lf-no-bom"}


class Topic(Record):
    """Keys are spelled as the file spells them (`matchTerms`) or as the fields are named."""

    # An empty title or definition is reported by `check` with the topic's other problems.
    id: str
    number: int
    title: str
    category: str
    summary: str
    definition: str
    importance: str
    boundary: str
    keywords: list[str]
    related: list[str]
    plain: str | None = None
    match_terms: list[str] = field(default_factory=list, alias="matchTerms")
    not_in: list[str] = field(default_factory=list, alias="notIn")
    reference: str | None = None
    # A server term's other senses, in a file of terms (`ServerTerm.other_senses`); the
    # glossary's own entries have theirs in other-senses/*.toml (merge refuses them here).
    other_senses: list[str] = field(default_factory=list, alias="otherSenses")


class TopicsHeader(Record):
    schema_version: int = field(alias="schemaVersion")
    language: str
    categories: list[str]
    topics: list[object]
    revision: str | None = None
    source_commit: str | None = field(default=None, alias="sourceCommit")
    source_dirty: bool | None = field(default=None, alias="sourceDirty")
    source_sha256: str | None = field(default=None, alias="sourceSha256")
    revision_algorithm: str | None = field(default=None, alias="revisionAlgorithm")


_NOT_AN_OBJECT = (
    'expected the topics JSON: one object {"schemaVersion": 1, "language": …, "categories": '
    '[…], "topics": [{"id", "title", "category", "definition", …}, …]},'
)


def _json_kind(data: object) -> str:
    if isinstance(data, list):
        return "a list"
    if isinstance(data, str):
        return "a string"
    return "null" if data is None else "a number or true/false"


def _json_error(exc: json.JSONDecodeError) -> str:
    """Python's words for a JSON error, and where a hand edit's usual slip caused it, that
    slip named (Python's "Expecting value" does not say it): a comment, a comma after the
    last item, single quotes."""
    said = f"not valid JSON: {exc.msg}"
    at = exc.doc[exc.pos : exc.pos + 2]
    if at in ("//", "/*"):
        return f"{said}: JSON has no comments (this one opens with {at})"
    if at[:1] in ("]", "}") and exc.doc[: exc.pos].rstrip().endswith(","):
        return (
            f"{said}: a comma before this {at[:1]}, after the last item, which JSON does not allow"
        )
    if at[:1] == "'":
        return f'{said}: JSON strings take double quotes ("), not single ones'
    return said


def parse_topics_json(text: str, name: str, source: str, problems: list[Problem]) -> list[RawEntry]:
    """The entries of a topics JSON text; `name` names it in problems."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        problems.append(Problem("error", name, _json_error(exc), line=exc.lineno))
        return []
    except RecursionError:
        problems.append(Problem("error", name, "nested too deeply to read"))
        return []
    if not isinstance(data, dict):
        # A list of rows (what a spreadsheet's JSON export gives) is no header at all: say what
        # the file must be, not how a record failed to parse.
        problems.append(Problem("error", name, f"{_NOT_AN_OBJECT} not {_json_kind(data)}"))
        return []
    try:
        header = parse_record(TopicsHeader, data)
    except RecordError as exc:
        for msg in exc.messages:
            problems.append(Problem("error", name, msg))
        return []
    _check_integrity_fields(header, name, problems)

    entries = []
    lines = _topic_lines(text, len(header.topics))
    seen: Counter[str] = Counter()  # how many topics so far had each id
    for position, (item, line) in enumerate(zip(header.topics, lines, strict=True), start=1):
        entry_id = item.get("id") if isinstance(item, dict) else None
        copy = seen[entry_id] if isinstance(entry_id, str) else 0
        if isinstance(entry_id, str):
            seen[entry_id] += 1
        entry_name = entry_label(item, position, "topic", copy, source)

        def report(message: str, *, _entry: str = entry_name, _line: int | None = line) -> None:
            problems.append(Problem("error", name, message, entry=_entry, line=_line))

        rest = functools.partial(rest_checked, Topic, report=report)
        fields = validate_fields(Topic, item, report, rest)
        if fields is not None:
            del fields["number"]
            entries.append(from_record(fields, source=source, file=name, line=line))
    return entries


def _topic_lines(text: str, count: int) -> list[int | None]:
    """The line each of the `count` topics starts at, when each starts on a line of its own (a
    file written by hand or indented); else none: a line all topics share (the bundled file is
    one line) points at nothing. `text` is valid JSON, its topics an array."""
    unknown: list[int | None] = [None] * count
    if text.count("\n") < count:  # cheap: the bundled file is not walked again
        return unknown
    lines: list[int | None] = list(lines_at(text, _array_starts(text, "topics")))
    return lines if len(set(lines)) == count == len(lines) else unknown


_SPACE = re.compile(r"[ \t\n\r]*")  # JSON's whitespace


def _array_starts(text: str, key: str) -> list[int]:
    """Where each item of the top-level object's array `key` starts in `text` (valid JSON, a
    repeated key's last array, as `json.loads` keeps)."""
    decoder = json.JSONDecoder()

    def skip(at: int) -> int:
        match = _SPACE.match(text, at)
        return match.end() if match else at

    starts: list[int] = []
    at = skip(skip(0) + 1)  # past the object's "{"
    while text[at] != "}":
        name, at = decoder.raw_decode(text, at)  # the key
        at = skip(skip(at) + 1)  # past the ":"
        if name == key and text[at] == "[":
            starts = []
            at = skip(at + 1)
            while text[at] != "]":
                starts.append(at)
                _, at = decoder.raw_decode(text, at)
                at = skip(at)
                at = skip(at + 1) if text[at] == "," else at
            at += 1
        else:
            _, at = decoder.raw_decode(text, at)
        at = skip(at)
        at = skip(at + 1) if text[at] == "," else at
    return starts


def _check_integrity_fields(header: TopicsHeader, name: str, problems: list[Problem]) -> None:
    """The file's own integrity fields must agree with each other and name a known algorithm.

    They hash the upstream source the file was generated from (not this file), so the bytes we
    ship are pinned separately by the sha256 recorded in the data folder's sources.toml.
    """
    if header.revision and header.source_sha256 and header.revision != header.source_sha256:
        problems.append(
            Problem(
                "error",
                name,
                f"integrity fields disagree: revision {header.revision} "
                f"!= sourceSha256 {header.source_sha256}",
            )
        )
    algorithm = header.revision_algorithm
    if algorithm is not None and algorithm not in KNOWN_HASH_ALGORITHMS:
        problems.append(Problem("error", name, f"unknown revisionAlgorithm {algorithm!r}"))
    if header.source_dirty:
        problems.append(
            Problem("warning", name, "generated from an uncommitted (dirty) upstream source")
        )


read_topics_json = file_reader(parse_topics_json)
