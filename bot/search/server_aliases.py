"""One server's aliases, compiled once per change into what lookup, autocomplete and term
finding read: a key -> entry map, the keys in sorted order (prefixes are a contiguous run), and
the first words of aliases of several words. An alias is found by its own key and by the key
search reads it as typed alone (`read_otherwise`: "the quuxer" by "quuxer"), as a server term's
title and other names are (`names.entry_names`).

Compiling normalises every alias; doing that per request cost 24-30 ms a search for a server
with 1,000 long aliases (issue 10), so the discord layer keeps these per server and rebuilds
one only when that server's aliases change.
"""

from __future__ import annotations

import bisect
import itertools
from collections.abc import Iterator, Mapping
from dataclasses import dataclass

from bot.glossary import lookalikes
from bot.glossary.keys import compact, normalize
from bot.glossary.lookalikes import LookAlikes
from bot.search.query import plural_variants, query_core, read_otherwise


@dataclass(frozen=True, slots=True)
class ServerAlias:
    key: str  # compact, as names are keyed
    text: str  # the alias, normalised, shown beside the title it opens
    entry: int  # position in the index's entries


class ServerAliases:
    """Not changed once built (but see `add`); aliases to entries the index does not have are
    left out."""

    __slots__ = (
        "_lookalikes",
        "_sorted",
        "_sorted_keys",
        "by_key",
        "cards",
        "claims",
        "first_words",
        "found_by",
        "positions",
        "source",
    )

    def __init__(
        self,
        aliases: Mapping[str, str],
        positions: Mapping[str, int],
        cards: Mapping[str, str] | None = None,
    ) -> None:
        self.source = dict(aliases)  # normalised alias -> entry id, as read from the store
        self.positions = positions  # the index compiled against (a reload builds new ones)
        # A server term's id -> the id of the card it is shown as, where they differ (a term
        # that words a bundled entry): its aliases open that card.
        self.cards = dict(cards or {})
        compiled = []
        for alias, entry_id in aliases.items():
            position = self._position(entry_id)
            if position is not None:
                text = normalize(alias)
                compiled.append(ServerAlias(compact(text), text, position))
        compiled = [a for a in compiled if a.key]
        self.by_key: dict[str, int] = {a.key: a.entry for a in compiled}
        cores: dict[str, ServerAlias] = {}  # a core key -> the alias it finds (the first's)
        core_words = set()
        for each in compiled:
            if core := read_otherwise(each.text):
                key = _squeeze(core)
                cores.setdefault(key, ServerAlias(key, each.text, each.entry))
                core_words.add(compact(core.partition(" ")[0]))
        # Every key that finds an alias: its own (which wins) and its core. The same map as
        # `by_key` where no alias has a core of its own, as in most servers: no second copy.
        found = {core.key: core.entry for core in cores.values()}
        self.found_by = {**found, **self.by_key} if cores else self.by_key
        # Mentions and prefixes read an alias by its core too ("we use quuxer daily" writes
        # "the quuxer"): a core another alias holds as its own key is that alias's.
        reached = [c for c in cores.values() if c.key not in self.by_key]
        self._sorted = sorted([*compiled, *reached], key=lambda a: a.key)
        self._sorted_keys = [a.key for a in self._sorted]
        self.first_words = frozenset(
            {compact(a.text.partition(" ")[0]) for a in compiled} | core_words
        )
        # Every key a search for an alias tries (its own first) -> that alias: a new alias must
        # claim none of them, or searching for the old one would find the new one too.
        own = sorted(compiled, key=lambda a: a.key)
        self.claims: dict[str, ServerAlias] = {a.key: a for a in own}
        for held in own:
            for key in sorted(_keys_of_normalized(held.text)):
                self.claims.setdefault(key, held)
        self._lookalikes: LookAlikes[str] | None = None  # built when a new name is first checked

    @property
    def lookalikes(self) -> LookAlikes[str]:
        """The look-alike index of `source` (each alias held by its entry id), which a new name
        is checked against (`/alias add`, `aliases import`, a suggestion): built on first use,
        kept with the set, grown by `add`."""
        if self._lookalikes is None:
            self._lookalikes = lookalikes.alias_lookalikes(self.source)
        return self._lookalikes

    @property
    def lookalikes_built(self) -> bool:
        """Whether `lookalikes` is built (and so held: the server cache weighs it from then)."""
        return self._lookalikes is not None

    def add(self, alias: str, entry_id: str) -> None:
        """Grow this set by one alias in place, as compiling the set afresh would: for a caller
        that checks a batch line by line against the lines it has accepted so far and owns this
        object (`aliases import`; compiling afresh per line made an import of n aliases cost n²
        normalisations). The sets the bot keeps per server are never grown."""
        if self is NO_ALIASES:
            raise ValueError("the shared empty set cannot grow")
        if alias in self.source:
            return
        self.source[alias] = entry_id
        if self._lookalikes is not None:  # as alias_lookalikes(source) would index it
            self._lookalikes.add(entry_id, [alias])
        position = self._position(entry_id)
        if position is None:
            return
        text = normalize(alias)
        added = ServerAlias(compact(text), text, position)
        if not added.key:
            return
        # Another alias's core, read in mentions and prefixes: this alias's own key now.
        reached = added.key not in self.by_key and added.key in self.found_by
        self.by_key[added.key] = added.entry
        self.found_by[added.key] = added.entry  # (the same map where no core is held)
        if reached:
            at = bisect.bisect_left(self._sorted_keys, added.key)
            del self._sorted[at], self._sorted_keys[at]
        self._insert(added)
        words = {compact(text.partition(" ")[0])}
        if core := read_otherwise(text):
            words.add(compact(core.partition(" ")[0]))
            if (core_key := _squeeze(core)) not in self.found_by:
                if self.found_by is self.by_key:
                    self.found_by = dict(self.by_key)  # as compiling splits it once a core is held
                self.found_by[core_key] = added.entry
                self._insert(ServerAlias(core_key, text, added.entry))
        self.first_words = self.first_words | words
        self.claims[added.key] = added
        for key in _keys_of_normalized(text):
            # As in __init__: an alias's own key beats another's derived key; of derived
            # claims, the alias first in key order holds it.
            held = self.claims.get(key)
            if held is None or (held.key != key and added.key < held.key):
                self.claims[key] = added

    def _insert(self, alias: ServerAlias) -> None:
        at = bisect.bisect_right(self._sorted_keys, alias.key)
        self._sorted.insert(at, alias)
        self._sorted_keys.insert(at, alias.key)

    def _position(self, entry_id: str) -> int | None:
        return self.positions.get(self.cards.get(entry_id, entry_id))

    def catch_up(self, grown_from: Mapping[str, str]) -> None:
        """Add what was appended to `grown_from` since this set was built from it (a map that
        only grows: the aliases a write has stored so far)."""
        for alias, entry_id in itertools.islice(grown_from.items(), len(self.source), None):
            self.add(alias, entry_id)

    def written_in(self, entry: int, text: str) -> str | None:
        """The longest alias of `entry` written in `text` (normalised), as stored: the name a
        card found by this server's alias says it matched, not the whole question around it."""
        said = compact(text)
        written = [a for a in self._sorted if a.entry == entry and a.key in said]
        return max(written, key=lambda a: len(a.key)).text if written else None

    def get(self, key: str) -> ServerAlias | None:
        """The alias `key` finds: by its own key, or by its core (`read_otherwise`: the row
        then holds the core as its key)."""
        at = bisect.bisect_left(self._sorted_keys, key)
        found = at < len(self._sorted_keys) and self._sorted_keys[at] == key
        return self._sorted[at] if found else None

    def __len__(self) -> int:
        return len(self.by_key)

    def starting_with(self, prefix: str) -> Iterator[ServerAlias]:
        """Aliases whose key starts with `prefix`, in key order; an alias search reads otherwise
        (`read_otherwise`: "the quuxer" as "quuxer") is there under that key too, so one alias
        may come twice ("the" starts both of "the theory"'s)."""
        at = bisect.bisect_left(self._sorted_keys, prefix)
        while at < len(self._sorted_keys) and self._sorted_keys[at].startswith(prefix):
            yield self._sorted[at]
            at += 1

    def has_prefix(self, prefix: str) -> bool:
        at = bisect.bisect_left(self._sorted_keys, prefix)
        return at < len(self._sorted_keys) and self._sorted_keys[at].startswith(prefix)


NO_ALIASES = ServerAliases({}, {})


def search_keys(text: str) -> set[str]:
    """Every key a search for `text` tries against names and aliases: its compact form, that
    of its core ("what is X" -> X), and the other number of each ("kv caches" -> "kvcache").
    Two aliases that share one of these are the same alias to search."""
    return _keys_of_normalized(normalize(text))


def _keys_of_normalized(normalized: str) -> set[str]:
    """`search_keys` of text already normalised (compacting it is then just squeezing)."""
    firsts = {_squeeze(normalized), _squeeze(query_core(normalized)) if normalized else ""}
    keys = {k for k in firsts if k}
    return keys | {form for key in keys for form in plural_variants(key)}


def _squeeze(normalized: str) -> str:
    return normalized.replace(" ", "").replace("'", "")
