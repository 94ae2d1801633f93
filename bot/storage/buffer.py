"""Counts recorded in memory between flushes.

Recording is a dictionary increment, so `/define` never waits for the disk. Each buffer carries
the sequence number its flush will write to the database; a reader that sees the database's
`flush_seq` knows which buffers it already contains and adds only the newer ones.
"""

from __future__ import annotations

from collections import Counter, defaultdict
from dataclasses import dataclass, field

from .periods import HOUR, hour_of


@dataclass(slots=True)
class MissTally:
    first_seen: int
    last_seen: int
    hours: Counter[int] = field(default_factory=Counter)

    def add(self, other: MissTally) -> None:
        self.first_seen = min(self.first_seen, other.first_seen)
        self.last_seen = max(self.last_seen, other.last_seen)
        self.hours.update(other.hours)

    def copy(self) -> MissTally:
        return MissTally(self.first_seen, self.last_seen, Counter(self.hours))


def merge_tallies(into: dict[str, MissTally], tallies: dict[str, MissTally]) -> None:
    """Add `tallies` to `into`, query by query (copies, so neither side shares a tally)."""
    for query, tally in tallies.items():
        mine = into.get(query)
        if mine is None:
            into[query] = tally.copy()
        else:
            mine.add(tally)


class CountBuffer:
    """Lookups and misses not yet written, keyed by scope."""

    __slots__ = ("lookup_keys", "lookups", "miss_keys", "misses", "seq")

    def __init__(self, seq: int) -> None:
        self.seq = seq
        # scope -> (entry_id, hour) -> count
        self.lookups: defaultdict[int, Counter[tuple[str, int]]] = defaultdict(Counter)
        # scope -> query -> tally
        self.misses: defaultdict[int, dict[str, MissTally]] = defaultdict(dict)
        # Distinct keys held, to bound memory while the database cannot be written.
        self.lookup_keys = 0  # (scope, entry_id, hour)
        self.miss_keys = 0  # (scope, query)

    # -- recording (hot path) -----------------------------------------------------------------

    def add_lookup(self, scope: int, entry_id: str, now: int, *, max_keys: int) -> bool:
        """Count a lookup; False when its key is new and the buffer already holds `max_keys`."""
        counts = self.lookups[scope]
        key = (entry_id, now // HOUR)
        n = counts.get(key, 0)  # get(): Counter's += on a new key is slower
        if not n:
            if self.lookup_keys >= max_keys:
                return False
            self.lookup_keys += 1
        counts[key] = n + 1
        return True

    def add_miss(self, scope: int, query: str, now: int, *, max_keys: int) -> bool:
        """Count a miss; False when it is a new query and the buffer already holds `max_keys`."""
        tallies = self.misses.get(scope)
        tally = tallies.get(query) if tallies else None
        if tally is None:
            if self.miss_keys >= max_keys:
                return False
            tally = self.misses[scope][query] = MissTally(now, now)
            self.miss_keys += 1
        tally.hours[hour_of(now)] += 1
        tally.last_seen = max(tally.last_seen, now)
        return True

    # -- flushing -------------------------------------------------------------------------------

    def is_empty(self) -> bool:
        return not self.lookups and not self.misses

    def absorb(self, older: CountBuffer) -> None:
        """Take back the counts of a batch whose write failed, so none is lost."""
        for scope, counts in older.lookups.items():
            mine = self.lookups[scope]
            self.lookup_keys += len(counts.keys() - mine.keys())
            mine.update(counts)
        for scope, tallies in older.misses.items():
            mine_misses = self.misses[scope]
            self.miss_keys += len(tallies.keys() - mine_misses.keys())
            merge_tallies(mine_misses, tallies)

    def forget_miss(self, scope: int, query: str) -> None:
        """Drop a pending miss that an alias now answers."""
        tallies = self.misses.get(scope)
        if tallies and tallies.pop(query, None) is not None:
            self.miss_keys -= 1
            if not tallies:
                del self.misses[scope]

    # Rows come sorted by the key they upsert: processes flushing into one PostgreSQL at once
    # then lock the rows they share in the same order, never each waiting on the other (a
    # deadlock aborted one flush, and the counts of a process closing with it were lost).
    def lookup_rows(self) -> list[tuple[int, str, int, int]]:
        return sorted(
            (scope, entry_id, hour, n)
            for scope, counts in self.lookups.items()
            for (entry_id, hour), n in counts.items()
        )

    def miss_rows(self) -> list[tuple[int, str, int, int, int]]:
        return sorted(
            (scope, query, tally.hours.total(), tally.first_seen, tally.last_seen)
            for scope, tallies in self.misses.items()
            for query, tally in tallies.items()
        )

    def miss_hour_rows(self) -> list[tuple[int, str, int, int]]:
        return sorted(
            (scope, query, hour, n)
            for scope, tallies in self.misses.items()
            for query, tally in tallies.items()
            for hour, n in tally.hours.items()
        )

    def lookup_total(self) -> int:
        return sum(counts.total() for counts in self.lookups.values())

    def miss_total(self) -> int:
        return sum(t.hours.total() for tallies in self.misses.values() for t in tallies.values())

    # -- reading (what a stats view adds on top of the database) ----------------------------

    def _scopes(self, scope: int | None) -> list[int]:
        if scope is None:
            return list(self.lookups.keys() | self.misses.keys())
        return [scope]

    def term_counts(self, scope: int | None, first_hour: int | None) -> Counter[str]:
        totals: Counter[str] = Counter()
        for s in self._scopes(scope):
            counts = self.lookups.get(s)
            if counts is None:
                continue
            for (entry_id, hour), n in counts.items():
                if first_hour is None or hour >= first_hour:
                    totals[entry_id] += n
        return totals

    def hour_counts(self, scope: int | None, first_hour: int | None) -> Counter[int]:
        totals: Counter[int] = Counter()
        for s in self._scopes(scope):
            for (_entry, hour), n in self.lookups.get(s, {}).items():
                if first_hour is None or hour >= first_hour:
                    totals[hour] += n
        return totals

    def entry_count(self, scope: int, entry_id: str) -> int:
        counts = self.lookups.get(scope)
        if not counts:
            return 0
        return sum(n for (entry, _hour), n in counts.items() if entry == entry_id)

    def miss_tallies(self, scope: int | None, first_hour: int | None) -> dict[str, MissTally]:
        """Pending misses within the period, merged across scopes when scope is None."""
        merged: dict[str, MissTally] = {}
        for s in self._scopes(scope):
            for query, tally in self.misses.get(s, {}).items():
                hours = Counter(
                    {h: n for h, n in tally.hours.items() if first_hour is None or h >= first_hour}
                )
                if not hours:
                    continue
                merge_tallies(merged, {query: MissTally(tally.first_seen, tally.last_seen, hours)})
        return merged
