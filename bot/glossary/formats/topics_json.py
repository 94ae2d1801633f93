"""The topics JSON shape (seed 003, LLM Studio): the richest source and the one cards are built on."""

from __future__ import annotations

import json
from pathlib import Path

from pydantic import BaseModel, ConfigDict, Field, ValidationError

from bot.glossary.formats.raw import RawEntry, from_record
from bot.glossary.problems import Problem, describe_validation_error, validate_record

KNOWN_HASH_ALGORITHMS = {"sha256-utf8-lf-no-bom"}


class Topic(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

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
    match_terms: list[str] = Field(default_factory=list, alias="matchTerms")
    not_in: list[str] = Field(default_factory=list, alias="notIn")
    reference: str | None = None


class TopicsHeader(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

    schema_version: int = Field(alias="schemaVersion")
    language: str
    categories: list[str]
    topics: list[object]
    revision: str | None = None
    source_commit: str | None = Field(default=None, alias="sourceCommit")
    source_dirty: bool | None = Field(default=None, alias="sourceDirty")
    source_sha256: str | None = Field(default=None, alias="sourceSha256")
    revision_algorithm: str | None = Field(default=None, alias="revisionAlgorithm")


def read_topics_json(path: Path, source: str, problems: list[Problem]) -> list[RawEntry]:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        problems.append(Problem("error", str(path), f"cannot read the file: {exc}"))
        return []
    return parse_topics_json(text, str(path), source, problems)  # named as given


def parse_topics_json(text: str, name: str, source: str, problems: list[Problem]) -> list[RawEntry]:
    """The entries of a topics JSON text; `name` names it in problems."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        problems.append(Problem("error", name, f"not valid JSON: {exc.msg}", line=exc.lineno))
        return []
    except RecursionError:
        problems.append(Problem("error", name, "nested too deeply to read"))
        return []
    try:
        header = TopicsHeader.model_validate(data)
    except ValidationError as exc:
        for msg in describe_validation_error(exc):
            problems.append(Problem("error", name, msg))
        return []
    _check_integrity_fields(header, name, problems)

    entries = []
    for position, item in enumerate(header.topics, start=1):
        label = item.get("id") if isinstance(item, dict) else None
        entry_name = str(label) if isinstance(label, str) and label else f"topic #{position}"

        def report(message: str, *, _entry: str = entry_name) -> None:
            problems.append(Problem("error", name, message, entry=_entry))

        topic = validate_record(Topic, item, report)
        if topic is not None:
            fields = topic.model_dump(exclude={"number"})
            entries.append(from_record(fields, source=source, file=name))
    return entries


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
