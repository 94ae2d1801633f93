"""The glossary as the rest of the bot sees it: immutable pydantic models.

Loaders turn each source file into `SourceEntry` records; the merger folds records that describe the
same concept into one `Entry`, keeping every source's own wording in `Entry.sources`.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType

from pydantic import BaseModel, ConfigDict, Field

CATEGORIES: tuple[str, ...] = (
    "Fundamentals",
    "Retrieval & Context",
    "Agents & Interfaces",
    "Training & Adaptation",
    "Inference & Operations",
    "Quality & Governance",
    "Modality & Production",
)


class Frozen(BaseModel):
    model_config = ConfigDict(frozen=True, extra="forbid")


class SourceInfo(Frozen):
    """One glossary file and where its content came from."""

    key: str  # short stable name, e.g. "llm-studio"
    name: str  # shown on cards, e.g. "LLM Studio topics glossary"
    file: str  # file name inside its data folder
    origin: str = ""  # where the content was taken from, for maintainers
    app_name: str | None = None  # the application the source speaks of as "this app"


class SourceNote(Frozen):
    """A sentence that speaks of the source's own application ("this app"), kept but attributed."""

    source: str  # SourceInfo.key
    field: str  # which field it was taken from: definition, boundary, importance, plain
    text: str


class SourceText(Frozen):
    """One source's own wording of an entry, verbatim."""

    source: str  # SourceInfo.key
    local_id: str  # the entry's key inside that file: topic id, heading, or curated id
    title: str
    summary: str | None = None
    definition: str
    boundary: str | None = None
    importance: str | None = None
    plain: str | None = None


class Entry(Frozen):
    """One concept, one card."""

    id: str  # stable slug, e.g. "kv-cache"
    title: str
    acronym: str | None = None  # "KV" for nothing; "RAG" for Retrieval-Augmented Generation
    aliases: tuple[str, ...] = ()  # other names: acronyms, expansions, common names
    category: str
    summary: str = ""
    definition: str  # the primary (richest) source's definition, app-specific sentences removed
    boundary: str | None = None  # what the term does not mean or guarantee
    importance: str | None = None
    plain: str | None = None  # a plain-words version
    keywords: tuple[str, ...] = ()
    related: tuple[str, ...] = ()  # entry ids, all resolving
    reference: str | None = None  # URL
    match_terms: tuple[str, ...] = ()  # surface forms to recognise in running text
    match_exclusions: tuple[str, ...] = ()  # places where match terms must not be linked (notIn)
    notes: tuple[SourceNote, ...] = ()  # app-specific sentences, shown attributed to their source
    asked_as: tuple[str, ...] = ()  # how people describe it without its name (for search only)
    sources: tuple[SourceText, ...] = Field(min_length=1)  # primary first

    @property
    def names(self) -> tuple[str, ...]:
        """Title, acronym and aliases: every name the entry answers to."""
        extra = (self.acronym,) if self.acronym else ()
        return (self.title, *extra, *self.aliases)

    @property
    def display_title(self) -> str:
        """The title with its acronym, e.g. "Retrieval-Augmented Generation (RAG)"."""
        if self.acronym and self.acronym.casefold() not in self.title.casefold():
            return f"{self.title} ({self.acronym})"
        return self.title


class Glossary:
    """All entries, looked up by id. Immutable once built."""

    def __init__(self, entries: tuple[Entry, ...], sources: tuple[SourceInfo, ...]) -> None:
        self.entries = entries
        self.sources = sources
        self._by_id: Mapping[str, Entry] = MappingProxyType({e.id: e for e in entries})
        self._source_by_key: Mapping[str, SourceInfo] = MappingProxyType(
            {s.key: s for s in sources}
        )

    def __len__(self) -> int:
        return len(self.entries)

    def __iter__(self) -> Iterator[Entry]:
        return iter(self.entries)

    def __contains__(self, entry_id: object) -> bool:
        return entry_id in self._by_id

    def get(self, entry_id: str) -> Entry | None:
        return self._by_id.get(entry_id)

    def __getitem__(self, entry_id: str) -> Entry:
        return self._by_id[entry_id]

    def source(self, key: str) -> SourceInfo:
        return self._source_by_key[key]

    def definitions_per_source(self) -> list[tuple[SourceInfo, int]]:
        """Each source with how many of its definitions the glossary holds, in source order."""
        counts = dict.fromkeys(self._source_by_key, 0)
        for entry in self.entries:
            for text in entry.sources:
                counts[text.source] += 1
        return [(source, counts[source.key]) for source in self.sources]
