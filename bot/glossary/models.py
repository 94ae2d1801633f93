"""The glossary as the rest of the bot sees it: immutable records.

Loaders turn each source file into `RawEntry` records; the merger folds records that describe the
same concept into one `Entry`, keeping every source's own wording in `Entry.sources`. The readers
have validated every value by then, so these are plain classes: loading needs no pydantic, and
no dataclasses either (generating their methods was a sixth of `glossary-bot check`'s start-up).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import Any, Literal, NoReturn, Self

CATEGORIES: tuple[str, ...] = (
    "Fundamentals",
    "Retrieval & Context",
    "Agents & Interfaces",
    "Training & Adaptation",
    "Inference & Operations",
    "Quality & Governance",
    "Modality & Production",
)


def category_named(text: str) -> str | None:
    """The category `text` names, in any case ("inference & operations"), or None."""
    folded = text.casefold()
    return next((c for c in CATEGORIES if c.casefold() == folded), None)


# What kind of thing an entry names (data/kinds/*.toml, for the search):
# tool: a named thing that runs methods (software, library, service, format, hardware);
# model: a model, a model family or a kind of trained system that does the work;
# method: something done (technique, algorithm, practice, a mechanism inside a model);
# concept: something had or measured (property, quantity, metric, phenomenon, principle)
KINDS: tuple[str, ...] = ("tool", "model", "method", "concept")
DOERS = frozenset({"tool", "model"})  # kinds that carry methods out rather than being one


_set = object.__setattr__  # past Frozen.__setattr__, which refuses any change


class Frozen:
    """Immutable, equal when of one class with equal fields (and hashed so), as a frozen dataclass
    is; `model_copy` and `model_dump` as the rest of the bot knows them (pydantic's).

    A subclass names its fields in `__slots__`, in order, and its `__init__` sets them with
    `self.init_fields(...)`; the records built by the thousand in this module set each with
    `_set(self, name, value)` instead, as a frozen dataclass's does (field by field: the fastest
    way)."""

    __slots__: tuple[str, ...] = ()

    def init_fields(self, *values: object) -> None:
        """Set the fields named in `__slots__`, in that order, to `values`: once, from `__init__`
        (a record already set refuses, so it stays immutable)."""
        if len(values) != len(self.__slots__):
            raise TypeError(f"{type(self).__name__} has {len(self.__slots__)} fields")
        if self.__slots__ and hasattr(self, self.__slots__[0]):
            raise AttributeError(
                f"cannot set the fields of an immutable {type(self).__name__} again"
            )
        for name, value in zip(self.__slots__, values, strict=True):
            _set(self, name, value)

    def _values(self) -> tuple[Any, ...]:
        return tuple(getattr(self, name) for name in self.__slots__)

    def __setattr__(self, name: str, value: object) -> NoReturn:
        raise AttributeError(f"cannot assign to {name!r} of an immutable {type(self).__name__}")

    def __delattr__(self, name: str) -> NoReturn:
        raise AttributeError(f"cannot delete {name!r} of an immutable {type(self).__name__}")

    def __eq__(self, other: object) -> bool:
        if type(other) is not type(self):
            return NotImplemented
        return self._values() == other._values()

    def __hash__(self) -> int:
        return hash(self._values())

    def __repr__(self) -> str:
        fields = ", ".join(f"{name}={getattr(self, name)!r}" for name in self.__slots__)
        return f"{type(self).__name__}({fields})"

    def model_copy(self, *, update: Mapping[str, Any]) -> Self:
        """A copy with the fields in `update` replaced (not validated, as pydantic's is not)."""
        fields = {name: getattr(self, name) for name in self.__slots__}
        return type(self)(**{**fields, **update})

    def model_dump(self, *, mode: Literal["python", "json"] = "python") -> dict[str, Any]:
        """Every field by name, nested records as dicts; tuples become lists in "json" mode."""
        return {name: _dumped(getattr(self, name), mode) for name in self.__slots__}


def _dumped(value: object, mode: Literal["python", "json"]) -> object:
    if isinstance(value, Frozen):
        return value.model_dump(mode=mode)
    if isinstance(value, tuple):
        items = [_dumped(item, mode) for item in value]
        return items if mode == "json" else tuple(items)
    return value


def names_of(title: str, acronym: str | None, aliases: tuple[str, ...]) -> tuple[str, ...]:
    """Title, acronym and aliases: every name an entry (or a server's term) answers to."""
    return (title, acronym, *aliases) if acronym else (title, *aliases)


def titled(title: str, acronym: str | None) -> str:
    """The title with its acronym, e.g. "Retrieval-Augmented Generation (RAG)"."""
    if acronym and acronym.casefold() not in title.casefold():
        return f"{title} ({acronym})"
    return title


# The source key of a server's own terms (bot.glossary.server_terms), here so search can tell a
# server term without importing what writes them.
SERVER_SOURCE_KEY = "server"


class SourceInfo(Frozen):
    """One glossary file and where its content came from."""

    __slots__ = ("key", "name", "file", "origin", "app_name")  # noqa: RUF023 (fields in order)
    key: str  # short stable name, e.g. "llm-studio"
    name: str  # shown on cards, e.g. "LLM Studio topics glossary"
    file: str  # file name inside its data folder
    origin: str  # where the content was taken from, for maintainers
    app_name: str | None  # the application the source speaks of as "this app"

    def __init__(
        self, *, key: str, name: str, file: str, origin: str = "", app_name: str | None = None
    ) -> None:
        _set(self, "key", key)
        _set(self, "name", name)
        _set(self, "file", file)
        _set(self, "origin", origin)
        _set(self, "app_name", app_name)


class SourceNote(Frozen):
    """A sentence that speaks of the source's own application ("this app"), kept but attributed."""

    __slots__ = ("source", "field", "text")  # noqa: RUF023 (the fields, in order)
    source: str  # SourceInfo.key
    field: str  # which field it was taken from: definition, boundary, importance, plain
    text: str

    def __init__(self, *, source: str, field: str, text: str) -> None:
        _set(self, "source", source)
        _set(self, "field", field)
        _set(self, "text", text)


class SourceText(Frozen):
    """One source's own wording of an entry, verbatim."""

    __slots__ = (  # noqa: RUF023 (the fields, in order)
        "source",
        "local_id",
        "title",
        "summary",
        "definition",
        "boundary",
        "importance",
        "plain",
    )
    source: str  # SourceInfo.key
    local_id: str  # the entry's key inside that file: topic id, heading, or curated id
    title: str
    summary: str | None
    definition: str
    boundary: str | None
    importance: str | None
    plain: str | None

    def __init__(
        self,
        *,
        source: str,
        local_id: str,
        title: str,
        summary: str | None = None,
        definition: str,
        boundary: str | None = None,
        importance: str | None = None,
        plain: str | None = None,
    ) -> None:
        _set(self, "source", source)
        _set(self, "local_id", local_id)
        _set(self, "title", title)
        _set(self, "summary", summary)
        _set(self, "definition", definition)
        _set(self, "boundary", boundary)
        _set(self, "importance", importance)
        _set(self, "plain", plain)


class Entry(Frozen):
    """One concept, one card."""

    __slots__ = (  # noqa: RUF023 (the fields, in order)
        "id",
        "title",
        "acronym",
        "aliases",
        "category",
        "summary",
        "definition",
        "boundary",
        "importance",
        "plain",
        "keywords",
        "related",
        "reference",
        "match_terms",
        "match_exclusions",
        "notes",
        "asked_as",
        "kind",
        "other_senses",
        "sources",
    )
    id: str  # stable slug, e.g. "kv-cache"
    title: str
    acronym: str | None  # "KV" for nothing; "RAG" for Retrieval-Augmented Generation
    aliases: tuple[str, ...]  # other names: acronyms, expansions, common names
    category: str
    summary: str
    definition: str  # the primary (richest) source's definition, app-specific sentences removed
    boundary: str | None  # what the term does not mean or guarantee
    importance: str | None
    plain: str | None  # a plain-words version
    keywords: tuple[str, ...]
    related: tuple[str, ...]  # entry ids, all resolving
    reference: str | None  # URL
    match_terms: tuple[str, ...]  # surface forms to recognise in running text
    match_exclusions: tuple[str, ...]  # places where match terms must not be linked (notIn)
    notes: tuple[SourceNote, ...]  # app-specific sentences, shown attributed to their source
    asked_as: tuple[str, ...]  # how people describe it without its name (for search only)
    kind: str | None  # tool, model, method or concept (kinds.toml; for search only), None unknown
    # what its plain-word name means outside the field ("an electrical transformer on a utility
    # pole"): other-senses/*.toml, or a server term's own (for search only)
    other_senses: tuple[str, ...]
    sources: tuple[SourceText, ...]  # primary first

    def __init__(
        self,
        *,
        id: str,
        title: str,
        acronym: str | None = None,
        aliases: tuple[str, ...] = (),
        category: str,
        summary: str = "",
        definition: str,
        boundary: str | None = None,
        importance: str | None = None,
        plain: str | None = None,
        keywords: tuple[str, ...] = (),
        related: tuple[str, ...] = (),
        reference: str | None = None,
        match_terms: tuple[str, ...] = (),
        match_exclusions: tuple[str, ...] = (),
        notes: tuple[SourceNote, ...] = (),
        asked_as: tuple[str, ...] = (),
        kind: str | None = None,
        other_senses: tuple[str, ...] = (),
        sources: tuple[SourceText, ...],
    ) -> None:
        if not sources:
            raise ValueError(f"entry {id!r} has no source")
        _set(self, "id", id)
        _set(self, "title", title)
        _set(self, "acronym", acronym)
        _set(self, "aliases", aliases)
        _set(self, "category", category)
        _set(self, "summary", summary)
        _set(self, "definition", definition)
        _set(self, "boundary", boundary)
        _set(self, "importance", importance)
        _set(self, "plain", plain)
        _set(self, "keywords", keywords)
        _set(self, "related", related)
        _set(self, "reference", reference)
        _set(self, "match_terms", match_terms)
        _set(self, "match_exclusions", match_exclusions)
        _set(self, "notes", notes)
        _set(self, "asked_as", asked_as)
        _set(self, "kind", kind)
        _set(self, "other_senses", other_senses)
        _set(self, "sources", sources)

    @property
    def names(self) -> tuple[str, ...]:
        return names_of(self.title, self.acronym, self.aliases)

    @property
    def worded_by_server(self) -> bool:
        """A server's own term, or its wording of a bundled entry (its text leads the card)."""
        return self.sources[0].source == SERVER_SOURCE_KEY

    @property
    def display_title(self) -> str:
        """The title with its acronym, e.g. "Retrieval-Augmented Generation (RAG)"."""
        return titled(self.title, self.acronym)


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
