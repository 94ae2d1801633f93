"""Autocomplete for a term still being typed, within Discord's limits (25 choices, 100 chars:
the names fitted together, so two long titles alike at both ends stay apart).

Tiers, each entry shown once: the exact name; the server's aliases starting with the text; names
starting with it ("py" finds Python and PyTorch, a short prefix R. Danny's trigram threshold
misses); names with a later word starting with it ("cache" finds KV Cache); then names whose start
is a typo away ("spculative"); and for several words, entries whose description matches. Within a
tier, the caller's popular terms come first, then shorter names.
"""

from __future__ import annotations

import heapq
from collections.abc import Sequence
from typing import Protocol
from weakref import WeakKeyDictionary

import numpy as np

from bot.glossary.keys import compact, normalize
from bot.glossary.letters import fit_names
from bot.glossary.models import Entry
from bot.limits import AUTOCOMPLETE_CHOICES, AUTOCOMPLETE_NAME, AUTOCOMPLETE_VALUE
from bot.search.fulltext import FullTextIndex
from bot.search.names import NameKind, NameTable
from bot.search.query import query_core
from bot.search.results import Choice
from bot.search.server_aliases import ServerAliases
from bot.search.similarity import typing_similarity


class Completable(Protocol):
    """What autocomplete reads of the search index (which calls it: no import back)."""

    entries: tuple[Entry, ...]
    positions: dict[str, int]
    names: NameTable
    default_order: list[int]

    @property
    def fulltext(self) -> FullTextIndex: ...

    def fuzzy_candidates(self, key: str, limit: int) -> list[int]: ...


MAX_TEXT = 200
SCAN = 300  # prefix keys looked at per tier: enough to fill 25 choices after de-duplication
TYPO_CANDIDATES = 100
TYPO_SCORE = 78.0
_TITLE = int(NameKind.TITLE)  # enum attribute lookups are slow in a hot loop
_PART = NameKind.PART
# Of each name table (an index's), whether an entry's id, read as typed, names that entry alone
# (`_Picker._value`): worked out at an entry's first choice, kept while the index lives.
_ID_NAMES_ITS_OWN: WeakKeyDictionary[NameTable, dict[int, bool]] = WeakKeyDictionary()


class _Picker:
    def __init__(
        self, index: Completable, limit: int, popular: Sequence[str], server: ServerAliases
    ) -> None:
        self.index = index
        self.server = server
        self.limit = limit
        self.choices: list[Choice] = []
        self.seen: set[int] = set()
        self.popularity: dict[int, int] = {}
        for rank, entry_id in enumerate(popular):
            position = index.positions.get(entry_id)
            if position is not None:
                self.popularity.setdefault(position, rank)

    @property
    def full(self) -> bool:
        return len(self.choices) >= self.limit

    def add(self, position: int, via: str | None = None, *, normalized: bool = False) -> None:
        """Add an entry once; `via` is the other name the text matched, if any (`normalized`
        already: a server's alias, spared normalising again on every keystroke)."""
        if self.full or position in self.seen:
            return
        entry = self.index.entries[position]
        if not entry.id or len(entry.id) > AUTOCOMPLETE_VALUE:
            return  # Discord would reject the whole answer
        self.seen.add(position)
        label = _label(entry.display_title or entry.id, via, normalized=normalized)
        self.choices.append(Choice(label, self._value(position, entry)))

    def _value(self, position: int, entry: Entry) -> str:
        """What /define gets back when the choice is picked: the entry's id, which search reads
        after the names, unless a name or this server's alias read as the id opens another
        entry first (a server term renamed keeps its id, and a new term may then take its old
        title, outsider76: "Quux Mesh" picked opened the new "Quuxnet"); then its title, which
        no other entry may have, where it fits."""
        names = self.index.names
        known = _ID_NAMES_ITS_OWN.setdefault(names, {})
        own = known.get(position)
        key = compact(entry.id)
        if own is None:
            hits = names.lookup(key)
            own = known[position] = all(h.entry == position or h.kind == _PART for h in hits)
        alias = self.server.get(key) if own and len(self.server) else None
        if own and (alias is None or alias.entry == position):
            return entry.id
        return entry.title if 0 < len(entry.title) <= AUTOCOMPLETE_VALUE else entry.id

    def fitted(self) -> list[Choice]:
        """The choices, their names fitted to Discord's length together (`fit_names`)."""
        names = fit_names([choice.name for choice in self.choices], AUTOCOMPLETE_NAME)
        return [Choice(name, c.value) for name, c in zip(names, self.choices, strict=True)]

    def add_keys(self, positions: Sequence[int]) -> None:
        """Add the entries of name keys, popular ones first, then shorter names."""
        if not positions:
            return
        names = self.index.names
        owner, entries, kinds = names.hits_of(positions)
        lengths = np.fromiter((len(names.keys[p]) for p in positions), np.int64)[owner]
        unranked = len(self.popularity)
        rank = np.fromiter((self.popularity.get(e, unranked) for e in entries.tolist()), np.int64)
        for i in np.lexsort((kinds, lengths, rank)).tolist():
            if self.full:
                break
            # A title shows as itself; another name is shown beside the title it leads to.
            via = None if kinds[i] == _TITLE else names.written[positions[owner[i]]]
            self.add(int(entries[i]), via)


def complete(
    index: Completable,
    text: str,
    server: ServerAliases,
    popular: Sequence[str],
    limit: int,
) -> list[Choice]:
    limit = max(0, min(int(limit), AUTOCOMPLETE_CHOICES))
    picker = _Picker(index, limit, popular, server)
    if limit == 0:
        return []
    normalized = normalize(text[:MAX_TEXT])
    core = query_core(normalized) if normalized else ""
    key = compact(core)
    if not key:
        for position in sorted(picker.popularity, key=picker.popularity.__getitem__):
            picker.add(position)
        for position in index.default_order:
            picker.add(position)
        return picker.fitted()

    # The server's aliases starting with the text, shortest first (the exact one, if any,
    # before the glossary's own names).
    aliases = heapq.nsmallest(limit, server.starting_with(key), key=lambda a: len(a.key))
    for alias in aliases:
        if alias.key == key:
            picker.add(alias.entry, alias.text, normalized=True)
    for hit in index.names.lookup(key):
        picker.add(hit.entry)
    for alias in aliases:
        picker.add(alias.entry, alias.text, normalized=True)
    picker.add_keys(index.names.with_prefix(key, SCAN))
    if not picker.full:
        picker.add_keys(index.names.with_word_prefix(key, SCAN))
    if not picker.full and len(key) >= 3:
        _add_typos(picker, key)
    if not picker.full and " " in core:
        for described in index.fulltext.search(core, limit=picker.limit):
            if described.coverage >= 0.75 and described.matched >= 2:
                picker.add(described.document)
    return picker.fitted()


def _add_typos(picker: _Picker, key: str) -> None:
    names = picker.index.names
    positions = picker.index.fuzzy_candidates(key, TYPO_CANDIDATES)
    if not positions:
        return
    scores = typing_similarity(key, [names.keys[p] for p in positions])
    ranked = sorted(zip(scores.tolist(), positions, strict=True), key=lambda item: -item[0])
    for score, position in ranked:
        if score < TYPO_SCORE or picker.full:
            break
        for hit in names.hits(position):
            picker.add(hit.entry, None if hit.kind == _TITLE else names.written[position])


def _label(title: str, via: str | None, *, normalized: bool = False) -> str:
    """ "KV Cache — key-value cache" when the text matched another name (not cut: `fitted`)."""
    name = " ".join(title.split()) or "?"
    if via:
        via = " ".join(via.split())
        if via and (via if normalized else normalize(via)) not in normalize(name):
            name = f"{name} — {via}"
    return name
