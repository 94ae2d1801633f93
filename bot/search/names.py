"""Every name an entry answers to, keyed for exact, prefix and word-start lookup.

A key is `compact(name)`, so "KV-Cache", "kv cache" and "kvcache" meet. One key may belong to
several entries ("rag" the acronym and "rag" the cloth; "clip" the model and the text encoder
named after it), so a key maps to all its hits, strongest kind first, and the caller decides
whether one is clearly ahead.

At 100k entries there are ~130k keys: hits live in flat typed arrays (one row per key and entry)
rather than in Python objects, which keeps the table to tens of megabytes. The table is plain
Python (the `array` module, no numpy): `define <a name>` answers from it alone, and numpy is the
largest import a one-shot command would pay for.
"""

from __future__ import annotations

import bisect
import operator
import re
from array import array
from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from enum import IntEnum
from itertools import groupby
from typing import TYPE_CHECKING

from bot.glossary.keys import compact, normalize, normalize_many
from bot.glossary.models import Entry
from bot.search.query import plural_variants, read_otherwise
from bot.search.results import Strategy

if TYPE_CHECKING:
    import numpy as np
    import numpy.typing as npt


class NameKind(IntEnum):
    """How a name belongs to its entry; lower is stronger (the RFC 2229 order)."""

    TITLE = 0
    ALIAS = 1
    ACRONYM = 2
    EXPANSION = 3
    MATCH_TERM = 4
    ID = 5  # ids are looked up by the index itself, after the names ("rag" is the acronym)
    PART = 6  # "Scheduler" from "Scheduler (Sampler)", "QLoRA" from "LoRA & QLoRA"


_KINDS = tuple(NameKind)

STRATEGY: dict[NameKind, Strategy] = {
    NameKind.TITLE: "exact",
    NameKind.ALIAS: "alias",
    NameKind.ACRONYM: "acronym",
    NameKind.EXPANSION: "expansion",
    NameKind.MATCH_TERM: "match-term",
    NameKind.ID: "id",
    NameKind.PART: "alias",
}
# Kinds of equal standing: two entries with the same acronym are a tie, an acronym and a match
# term are not.
TIER: dict[NameKind, int] = {
    NameKind.TITLE: 0,
    NameKind.ALIAS: 2,
    NameKind.ACRONYM: 2,
    NameKind.EXPANSION: 2,
    NameKind.MATCH_TERM: 3,
    NameKind.ID: 4,
    NameKind.PART: 5,
}
SERVER_ALIAS_TIER = 1  # a moderator's alias outranks the glossary's other names, not its titles
# A part of a title is a weaker claim than a curated name: "Goodput" from "Goodput (Serving)" is
# just as much "Training Goodput", so it scores below the bar for a direct answer.
SCORE: dict[NameKind, float] = {
    NameKind.TITLE: 100.0,
    NameKind.ALIAS: 99.0,
    NameKind.ACRONYM: 99.0,
    NameKind.EXPANSION: 99.0,
    NameKind.MATCH_TERM: 98.0,
    NameKind.ID: 98.0,
    NameKind.PART: 86.0,
}

_ACRONYM_LENGTH = 8
_COMPOSITE = re.compile(r"[(&/+]")  # a title that may have parts
_QUALIFIER = re.compile(r"\s*\(([^()]*)\)\s*")
_JOINERS = re.compile(r"\s+(?:&|/|\+)\s+")
# "the shard": search reads a question's "the" away (`query_core`); of a data file's names,
# those opening so are the ones read as search reads them alone (`entry_names`).
_ARTICLE = re.compile(r"(?:the|a|an)\s+(?=\S)", re.IGNORECASE)
_MINOR_WORDS = frozenset({"of", "from", "for", "and", "the", "with", "in", "on", "to", "a", "an"})


@dataclass(frozen=True, slots=True)
class Hit:
    """One entry that a key names, and how."""

    entry: int  # position in the index's entry list
    kind: NameKind
    cased: bool  # only ever written as an acronym ("RAG", "RoPE"): "rag" in prose is a word


def written_as_acronym(name: str) -> bool:
    """ "RAG", "LoRA", "RoPE", "ZeRO-3": short, one word, several capitals ("PagedAttention" is
    not one). Stricter than the glossary's `looks_like_acronym`, which reads data files: a name
    this says yes to matches running text only when written in capitals ("rag" is a word)."""
    name = name.strip()
    if name.islower() or " " in name or len(name) > _ACRONYM_LENGTH:
        return False
    letters = [c for c in name if c.isalnum()]
    return len(letters) <= 6 and sum(c.isupper() for c in letters) >= 2


def initials(text: str, *, skip_minor: bool) -> str:
    words = normalize(text).split()
    if skip_minor:
        words = [w for w in words if w not in _MINOR_WORDS]
    return "".join(w[0] for w in words if w)


def _is_expansion(name: str, acronym: str) -> bool:
    key = compact(acronym)
    return len(key) >= 2 and key in (
        initials(name, skip_minor=False),
        initials(name, skip_minor=True),
    )


def entry_names(entry: Entry) -> Iterator[tuple[str, NameKind]]:
    """(name, kind) for every name of the entry, strongest first; repeats are fine."""
    yield entry.title, NameKind.TITLE
    # A title or other name is found by what search reads it as typed alone too, as a server's
    # alias is (`read_otherwise`: "what is the bitter lesson?" asks "bitter lesson"). A server's
    # term may take no name that reads so beside it (`server_terms`), so its names read so are
    # its own, as strong; of a data file's names (not so checked) only those opening with an
    # article are read (2 of the bundled 954 read otherwise, both so; reading every name of a
    # 100k-entry glossary would cost seconds), and an other name read so is a part of it.
    server = entry.worded_by_server
    if read := _read_otherwise(entry.title, server):
        yield read, NameKind.TITLE
    acronym = entry.acronym or (entry.title if written_as_acronym(entry.title) else None)
    for alias in entry.aliases:
        expansion = acronym is not None and _is_expansion(alias, acronym)
        kind = NameKind.EXPANSION if expansion else NameKind.ALIAS
        yield alias, kind
        if read := _read_otherwise(alias, server):
            yield read, kind if server else NameKind.PART
    if entry.acronym:
        yield entry.acronym, NameKind.ACRONYM
    for term in entry.match_terms:
        yield term, NameKind.MATCH_TERM
    if "(" in entry.title or " " in entry.title:
        yield from ((part, NameKind.PART) for part in _title_parts(entry.title))


def _read_otherwise(name: str, server: bool) -> str | None:
    """What search reads `name` typed alone as, where that is another key (`read_otherwise`);
    only for a name opening with an article unless it is a `server` term's (`entry_names`)."""
    if not server and not _ARTICLE.match(name):
        return None
    read = read_otherwise(normalize(name))
    if read is None:
        return None
    # As written where it is the name's last words ("The ZE" is "ZE", an acronym still).
    words = name.split()
    tails = (" ".join(words[at:]) for at in range(1, len(words)))
    return next((tail for tail in tails if normalize(tail) == read), read)


def _title_parts(title: str) -> list[str]:
    """The pieces of a composite title: "LoRA & QLoRA", "Text Encoder (CLIP)"."""
    parts: list[str] = []
    qualifiers = _QUALIFIER.findall(title)
    bare = _QUALIFIER.sub(" ", title).strip()
    if qualifiers and bare:
        parts.append(bare)
    # A qualifier is a name only when it looks like one ("CLIP"), not a gloss ("Hugging Face").
    parts += [q for q in qualifiers if written_as_acronym(q)]
    pieces = _JOINERS.split(bare)
    if len(pieces) > 1:
        parts += pieces
    return parts


class NameTable:
    """All keys in sorted order; a key's position is its index in that order, so the keys with
    a given prefix are one contiguous run. Ids are not names here ("wn-noun-00217499" is
    nobody's typo): the index finds them exactly."""

    def __init__(self, entries: Sequence[Entry]) -> None:
        names, owners, kinds = _all_names(entries)
        texts = normalize_many(names)
        # `compact` of each name, from texts `normalize_many` already normalised (normalising
        # ~280k names again would add a few tenths of a second to a 100k-entry build).
        row_keys = [t.replace(" ", "").replace("'", "") for t in texts]
        # Sort instead of a key -> number dict: the sorted list is what prefix search needs.
        order = sorted(range(len(row_keys)), key=row_keys.__getitem__)
        self.keys: list[str] = []
        # Each key's name as the glossary writes it ("key-value cache"), for labels.
        self.written: list[str] = []
        self._spaced: list[str | None] = []  # and as normalised text, if it has a space
        # A key's hits are rows _starts[position] to _starts[position + 1] of these.
        self.hit_entry = array("i")
        self.hit_kind = array("b")
        self._hit_cased = bytearray()
        self._starts = array("q", [0])
        for key, group in groupby(order, row_keys.__getitem__):
            rows = list(group)
            self.keys.append(key)
            self.written.append(names[rows[0]])
            spaced = [texts[row] for row in rows if " " in texts[row]]
            self._spaced.append(spaced[0] if spaced else None)
            if key:  # the empty key names nothing
                self._add_hits(rows, owners, kinds, names)
            self._starts.append(len(self.hit_entry))
        self.named = bytearray(map(bool, self.keys))  # the empty key, if any, is not a name
        self.named_positions = array("i", [p for p, key in enumerate(self.keys) if key])
        self._word_starts, self._word_start_positions = self._tails()
        # First words of names of several words (a one-word name is found as a key).
        self._first_words = {t.partition(" ")[0].replace("'", "") for t in self._spaced if t}
        self.most_words = max((t.count(" ") + 1 for t in self._spaced if t), default=1)

    def starts_a_name(self, word: str) -> bool:
        """Could a name begin with this compact word ("kv" of "kv cache", "kvcache" itself, or
        another number of it: "tokens")? A cheap filter before trying word windows."""
        if word in self._first_words or self.find(word) is not None:
            return True
        return any(self.find(form) is not None for form in plural_variants(word))

    def _add_hits(
        self, rows: list[int], owners: list[int], kinds: list[NameKind], names: list[str]
    ) -> None:
        """The hits of the next key, from its names' rows: one per entry, its strongest kind,
        cased only if every spelling was; strongest kind first."""
        if len(rows) == 1:  # the common case
            row = rows[0]
            self.hit_entry.append(owners[row])
            self.hit_kind.append(kinds[row])
            self._hit_cased.append(_cased(names[row]))
            return
        strongest: dict[int, tuple[NameKind, bool]] = {}
        for row in rows:
            kind, cased = kinds[row], _cased(names[row])
            held = strongest.get(owners[row])
            if held is not None:
                kind, cased = min(held[0], kind), held[1] and cased
            strongest[owners[row]] = (kind, cased)
        for kind, owner, cased in sorted((k, o, c) for o, (k, c) in strongest.items()):
            self.hit_entry.append(owner)
            self.hit_kind.append(kind)
            self._hit_cased.append(cased)

    def find(self, key: str) -> int | None:
        """The position of a key, or None."""
        at = bisect.bisect_left(self.keys, key)
        return at if at < len(self.keys) and self.keys[at] == key and key else None

    def lookup(self, key: str) -> tuple[Hit, ...]:
        position = self.find(key)
        return () if position is None else self.hits(position)

    def hits(self, position: int) -> tuple[Hit, ...]:
        start, end = self._starts[position], self._starts[position + 1]
        if end - start == 1:  # the common case, without slicing
            kind = _KINDS[self.hit_kind[start]]
            return (Hit(self.hit_entry[start], kind, bool(self._hit_cased[start])),)
        return tuple(
            Hit(entry, _KINDS[kind], cased)
            for entry, kind, cased in zip(
                self.hit_entry[start:end].tolist(),
                self.hit_kind[start:end].tolist(),
                map(bool, self._hit_cased[start:end]),
                strict=True,
            )
        )

    def hits_of(
        self, positions: Sequence[int]
    ) -> tuple[npt.NDArray[np.int64], npt.NDArray[np.int64], npt.NDArray[np.int8]]:
        """For many keys at once (autocomplete): every hit as (index into `positions`, entry,
        kind), in numpy arrays (imported here: a lookup by name needs none)."""
        import numpy as np

        wanted = np.asarray(positions, dtype=np.int64)
        bounds = np.frombuffer(self._starts, dtype=np.int64)
        starts = bounds[wanted]
        counts = bounds[wanted + 1] - starts
        owner = np.repeat(np.arange(len(wanted)), counts)
        offsets = np.arange(int(counts.sum())) - np.repeat(np.cumsum(counts) - counts, counts)
        rows = np.repeat(starts, counts) + offsets
        entries = np.frombuffer(self.hit_entry, dtype=np.int32)[rows].astype(np.int64)
        return owner, entries, np.frombuffer(self.hit_kind, dtype=np.int8)[rows]

    def text(self, position: int) -> str:
        """The key's name as normalised text, spaces kept ("kv cache" for "kvcache")."""
        return self._spaced[position] or self.keys[position]

    def spaced(self, key: str) -> str | None:
        position = self.find(key)
        return None if position is None else self.text(position)

    def has_prefix(self, prefix: str) -> bool:
        """Does any key start with `prefix`?"""
        at = bisect.bisect_left(self.keys, prefix)
        return at < len(self.keys) and self.keys[at].startswith(prefix)

    def with_prefix(self, prefix: str, limit: int) -> list[int]:
        """Positions of name keys starting with `prefix` (at most `limit`, in key order)."""
        found: list[int] = []
        at = bisect.bisect_left(self.keys, prefix)
        while at < len(self.keys) and len(found) < limit and self.keys[at].startswith(prefix):
            if self.named[at]:
                found.append(at)
            at += 1
        return found

    def with_word_prefix(self, prefix: str, limit: int) -> list[int]:
        """Positions of multi-word keys with a later word starting with `prefix`."""
        found: list[int] = []
        tails = self._word_starts
        at = bisect.bisect_left(tails, prefix)
        while at < len(tails) and len(found) < limit and tails[at].startswith(prefix):
            found.append(self._word_start_positions[at])
            at += 1
        return found

    def _tails(self) -> tuple[list[str], array[int]]:
        """ "attention" finds "multi head attention": compact tails from each later word."""
        tails: list[str] = []
        owners: list[int] = []
        for position, text in enumerate(self._spaced):
            if text is not None:
                rest = text.replace("'", "")
                while " " in rest:
                    rest = rest.partition(" ")[2]
                    tails.append(rest.replace(" ", ""))
                    owners.append(position)
        order = sorted(range(len(tails)), key=tails.__getitem__)
        return [tails[i] for i in order], array("i", [owners[i] for i in order])


def _cased(name: str) -> bool:
    """`written_as_acronym`, after the cheap tests that settle most names (it is hot at 100k)."""
    return len(name) <= _ACRONYM_LENGTH and not name.islower() and written_as_acronym(name)


def _all_names(entries: Sequence[Entry]) -> tuple[list[str], list[int], list[NameKind]]:
    """Every (name, entry position, kind), gathered field by field (it is hot at 100k): titles,
    then the plain synonyms of ordinary entries in bulk, then entries with more to them."""
    titles = list(map(operator.attrgetter("title"), entries))
    aliases_of = list(map(operator.attrgetter("aliases"), entries))
    rich = zip(
        map(operator.attrgetter("acronym"), entries),
        map(operator.attrgetter("match_terms"), entries),
        titles,
        strict=True,
    )
    special = {
        i
        for i, (acronym, terms, title) in enumerate(rich)
        if acronym
        or terms
        or _COMPOSITE.search(title)
        or written_as_acronym(title)
        or _ARTICLE.match(title)
    }
    special.update(i for i, entry in enumerate(entries) if entry.worded_by_server)
    special.update(i for i, aliases in enumerate(aliases_of) if any(map(_ARTICLE.match, aliases)))
    plain = [(i, aliases) for i, aliases in enumerate(aliases_of) if aliases and i not in special]
    names = titles + [alias for _, aliases in plain for alias in aliases]
    owners = [*range(len(entries)), *(i for i, aliases in plain for _ in aliases)]
    kinds = [NameKind.TITLE] * len(entries) + [NameKind.ALIAS] * (len(names) - len(entries))
    for position in sorted(special):
        for name, kind in entry_names(entries[position]):
            if kind != NameKind.TITLE or name != titles[position]:  # titles are in already
                names.append(name)
                owners.append(position)
                kinds.append(kind)
    return names, owners, kinds
