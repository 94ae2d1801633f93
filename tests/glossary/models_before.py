"""The pydantic models the glossary's readers validated records with before they were dataclasses
(as they were written): the reference `test_records` holds `parse_record` to."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field


class CuratedEntry(BaseModel):
    model_config = ConfigDict(extra="forbid")

    id: str
    title: str
    category: str
    definition: str
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
    model_config = ConfigDict(extra="forbid")

    id: str | None = None
    title: str | None = None
    category: str | None = None
    acronym: str | None = None
    aliases: list[str] = Field(default_factory=list)
    keywords: list[str] = Field(default_factory=list)
    related: list[str] = Field(default_factory=list)
    note: str | None = None


class Topic(BaseModel):
    model_config = ConfigDict(extra="forbid", populate_by_name=True)

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


class ManifestSource(BaseModel):
    model_config = ConfigDict(extra="forbid")

    key: str = Field(pattern=r"^[a-z0-9-]+$")
    name: str = Field(min_length=1)
    file: str = Field(min_length=1)
    format: Literal["topics-json", "markdown", "curated-toml"]
    origin: str = ""
    curation: str | None = None
    sha256: str | None = None
    app_name: str | None = None
    app_sentences: list[str] = Field(default_factory=list)


class Manifest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    sources: list[ManifestSource] = Field(min_length=1)
