"""The glossary's one name index: every name (title, acronym, alias) -> the entry that owns it.

Names are keyed by `compact`, the key search meets them on, so "KV cache", "kv-cache" and
"kvcache" are one name. The first claimant owns a key; a later one is a clash. The merger uses
the index to resolve "See X." links and `check` to report names claimed twice. (Alias rules
compare against every key search folds a name to, so they ask the search index instead.)
"""

from __future__ import annotations

import functools
from collections.abc import Iterable
from typing import Generic, TypeVar

from bot.glossary.keys import compact
from bot.glossary.models import Entry

Owner = TypeVar("Owner")


@functools.lru_cache(maxsize=1 << 16)
def name_key(name: str) -> str:
    """`compact(name)`, worked out once per name: merging, then checking, ask it of every name
    several times over."""
    return compact(name)


class Clash(Generic[Owner]):
    __slots__ = ("claimant", "name", "owner")

    def __init__(self, name: str, owner: Owner, claimant: Owner) -> None:
        self.name = name  # as the second claimant spells it
        self.owner = owner  # who has it
        self.claimant = claimant  # who wanted it too


class NameIndex(Generic[Owner]):
    """Each name's key -> its first claimant; every later claim to a key is a clash."""

    def __init__(self) -> None:
        self.owners: dict[str, Owner] = {}
        self.clashes: list[Clash[Owner]] = []

    key = staticmethod(name_key)

    def add(self, owner: Owner, names: Iterable[str | None]) -> None:
        """Claim `names` for `owner`; empty names are skipped (check reports them itself)."""
        for name in names:
            key = self.key(name) if name else ""
            if not key:
                continue
            held = self.owners.setdefault(key, owner)
            if held is not owner and held != owner:  # not two entries compared field by field
                self.clashes.append(Clash(name or "", held, owner))

    def owner(self, name: str) -> Owner | None:
        return self.owners.get(self.key(name))


def entry_names(entries: Iterable[Entry]) -> NameIndex[Entry]:
    index: NameIndex[Entry] = NameIndex()
    for entry in entries:
        index.add(entry, entry.names)
    return index
