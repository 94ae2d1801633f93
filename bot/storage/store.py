"""The store: what the bot remembers, behind a small async interface.

Command handlers call these methods and never see SQL. Counting is in memory (`record_lookup`,
`record_miss`) and written by a background task; everything else is a short transaction run by
the backend (`bot.storage.backend`: SQLite or PostgreSQL) with the SQL of `bot.storage.queries`.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import time
import uuid
from collections import Counter
from collections.abc import (
    AsyncIterator,
    Awaitable,
    Callable,
    Iterable,
    Iterator,
    Mapping,
    Sequence,
)
from dataclasses import dataclass
from datetime import datetime
from functools import partial
from typing import Protocol, TypeVar, cast

from bot.sizes import said_count

from .backend import ANSWER_BY, Backend, Body, Migrate, Tx, open_backend
from .buffer import CountBuffer, MissTally, merge_tallies
from .errors import (
    DatabaseLost,
    StorageError,
    StorageUnavailable,
    SuggestionDecided,
    TargetFailed,
    TargetNotEmpty,
    said_of,
)
from .models import (
    ALIAS_CAP,
    MAX_OPEN_SUGGESTIONS,
    OPERATOR_ACTOR,
    SUGGEST_COOLDOWN,
    SUGGESTION_STATES,
    AddAliasResult,
    AddAliasStatus,
    AliasCheck,
    AliasImport,
    AliasRecord,
    AliasRemoval,
    AuditAction,
    AuditRecord,
    Miss,
    Stats,
    StoredChange,
    StoredRename,
    StoredTerm,
    Suggestion,
    SuggestStatus,
    TermAuditRecord,
)
from .periods import HOUR, Clock, from_unix, hour_of, since_hour, to_unix, utc_now
from .queries import aliases as alias_queries
from .queries import copy as copy_queries
from .queries import counts as count_queries
from .queries import drafts as draft_queries
from .queries import prune as prune_queries
from .queries import server_versions as version_queries
from .queries import suggestions as suggestion_queries
from .queries import terms as term_queries

log = logging.getLogger(__name__)

T = TypeVar("T")
P = TypeVar("P")
S = TypeVar("S")
K = TypeVar("K", bound=Iterable[str])
Sleep = Callable[[float], Awaitable[None]]

# A stop retries a failed write of buffered counts after these pauses, within its deadline.
CLOSE_RETRY_PAUSES = (0.1, 0.3, 0.8)
# A close given no deadline ends within this many seconds, whatever the database does.
CLOSE_SECONDS = 5.0

# A query longer than this is no alias candidate (aliases are at most 100 characters) and only
# costs space; it is stored cut short.
MAX_QUERY_LENGTH = 200
# Distinct keys counted in memory while the database cannot be written, past which new ones
# are not counted (each key is a scope, an entry or query, and an hour).
MAX_PENDING_LOOKUPS = 200_000
MAX_PENDING_MISSES = 50_000
# Flushes failed in a row past which the database counts as not writable (health, metrics)
# even though a probe write goes through: a table the role may no longer write. Not the first:
# a deadlock between processes is retried at the next flush.
UNWRITTEN_FLUSHES = 3


class StoreObserver(Protocol):
    """Told of each lookup counted and each flush (the bot's metrics, when they are on)."""

    def lookup_counted(self, lookups: int = 1) -> None: ...

    def flushed(self, seconds: float, lookups: int, ok: bool) -> None: ...


class Store:
    """Lookup counts, misses, per-server aliases, server terms, members' suggestions and their
    audit logs, in one database (SQLite or PostgreSQL, behind one Backend)."""

    # Set once for the process by whoever exports metrics; None: nobody listens.
    observer: StoreObserver | None = None

    def __init__(
        self,
        backend: Backend,
        *,
        clock: Clock,
        sleep: Sleep,
        max_pending_lookups: int,
        max_pending_misses: int,
    ) -> None:
        # Use `Store.open`: it opens the backend (migrating the schema) and starts the flusher.
        self._backend = backend
        # Marks which of this store's batches are written, apart from other processes' ones.
        self._writer_id = uuid.uuid4().hex
        self._wrote = False
        self.writes_committed = 0  # by `_write`: aliases, terms, suggestions, imports
        self._clock = clock
        # The hot path wants Unix seconds; the system clock gives them without a datetime.
        self._seconds: Callable[[], int] = (
            _system_seconds if clock is utc_now else lambda: to_unix(clock())
        )
        self._sleep = sleep
        self._caps = CountCaps(max_pending_lookups, max_pending_misses)
        self._pending = CountBuffer(1)
        self._inflight: CountBuffer | None = None
        self._flushing: asyncio.Future[bool] | None = None  # the last flush, until it ends
        self._flusher: asyncio.Task[None] | None = None
        self._deadline: float | None = None  # a stop's, once one is under way
        self._closed = False
        self._failed_flushes = 0  # in a row: the first is logged, and their count when one works
        self._flush_failure: Exception | None = None  # the last of them
        self._writable = True  # the last write reached the database (`_write`)
        self._probing: asyncio.Future[str | None] | None = None  # `why_not_writable`'s, under way
        # Called when that turns, either way: the heartbeat says the database lost or back at
        # once (`BotState.store`), not at its next beat.
        self.on_writable_turned: Callable[[], None] | None = None
        # "lookups", "missed queries": the buffer is full, new keys are dropped
        self._dropping: set[str] = set()
        # Seconds a moderator's change (`answering`) waits for the database in all before it
        # is cut off and told nothing was changed (WRITE_WAIT); None: as long as it takes.
        self.write_wait: float | None = None

    @contextlib.contextmanager
    def answering(self) -> Iterator[None]:
        """A moderator's change, who waits for the answer: every read and write of the store
        in the block (in this task, and in the tasks it starts) stops waiting for the database
        `write_wait` seconds from now, and fails with `NotInTime` (its connection ended, so a
        write cut off before its COMMIT is rolled back, never left to commit later). The
        count flush and the health probe, started elsewhere, are not bounded by it. Within a
        block of its own (a command bounded as a whole: its reads, its write, the reads after)
        the earlier bound holds: the moderator is answered within one WRITE_WAIT."""
        if self.write_wait is None:
            yield
            return
        at = asyncio.get_running_loop().time() + self.write_wait
        outer = ANSWER_BY.get()
        if outer is not None and outer[0] <= at:
            yield
            return
        token = ANSWER_BY.set((at, self.write_wait))
        try:
            yield
        finally:
            ANSWER_BY.reset(token)

    @staticmethod
    @contextlib.contextmanager
    def for_everyone() -> Iterator[None]:
        """Work begun in the block for others too (a server's glossary read that /define waits
        for as well), bounded by none of their bounds: a moderator's change that starts it and
        is cut off at WRITE_WAIT (`answering`) stops waiting for it, and it goes on for them."""
        token = ANSWER_BY.set(None)
        try:
            yield
        finally:
            ANSWER_BY.reset(token)

    # -- opening and closing ------------------------------------------------------------------

    @classmethod
    async def open(
        cls,
        location: str | os.PathLike[str],
        *,
        flush_interval: float | None = 1.0,
        clock: Clock = utc_now,
        busy_timeout: float = 5.0,
        max_pending_lookups: int = MAX_PENDING_LOOKUPS,
        max_pending_misses: int = MAX_PENDING_MISSES,
        migrate: Migrate = Migrate.UPGRADE,
        sleep: Sleep = asyncio.sleep,
        say_write_failures: bool = True,
    ) -> Store:
        """Open (creating and migrating as needed) the database at `location`: a
        `postgresql://` URL, or else the path of a SQLite file.

        Raises `SchemaTooNew` for a database from a newer bot and `NotAGlossaryDatabase` for a
        file that is not ours; neither is modified. `flush_interval=None` starts no background
        flusher (the command line, tests): counts are then written by `flush()` and `close()`.
        `Migrate.NEVER` refuses an out-of-date schema instead of upgrading it (read-only
        tools); `Migrate.CREATE_ONLY` creates one where there is none but refuses to upgrade an older
        one (the command line's writes: an older bot may still serve it). `clock` must return
        aware datetimes; `sleep` is a seam for tests of the flusher. `say_write_failures=False`
        (the command line, which says its error in one line): a failed write is not logged too.
        """
        if flush_interval is not None and flush_interval <= 0:
            raise ValueError("flush_interval must be positive (or None for no background flush)")
        backend = await open_backend(
            location,
            busy_timeout=busy_timeout,
            migrate=migrate,
            say_write_failures=say_write_failures,
        )
        store = cls(
            backend,
            clock=clock,
            sleep=sleep,
            max_pending_lookups=max_pending_lookups,
            max_pending_misses=max_pending_misses,
        )
        if flush_interval is not None:
            store._flusher = asyncio.create_task(store._flush_loop(flush_interval))
        return store

    def give_up_at(self, deadline: float) -> None:
        """A stop is under way: no write waits for the database past `deadline` (a time on the
        event loop's clock), whichever step it is part of. Set as the stop begins, so that the
        background flush and the answers still under way keep to it too."""
        self._deadline = deadline
        self._backend.give_up_at(deadline)

    async def close(self, *, deadline: float | None = None) -> None:
        """Write what is buffered, then close, all by `deadline` (by default the one given to
        `give_up_at`, or `CLOSE_SECONDS` from now). Safe to call twice."""
        if self._closed:
            return
        loop = asyncio.get_running_loop()
        deadline = deadline or self._deadline or loop.time() + CLOSE_SECONDS
        self.give_up_at(deadline)
        if self._flusher is not None:
            # Cancelling only interrupts the wait between flushes: a flush in progress is
            # shielded and finishes, and the final flush below waits for it.
            self._flusher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._flusher
        await self._flush_for_close(deadline)
        self._closed = True
        if self._probing is not None and not self._probing.done():
            self._probing.cancel()  # a probe the health check gave up on (`why_not_writable`)
        if not self._pending.is_empty():
            log.error(
                "closing with %s and %s that could not be written",
                said_count(self._pending.lookup_total(), "lookup", "lookups"),
                said_count(self._pending.miss_keys, "missed query", "missed queries"),
            )
        if self._wrote and loop.time() < deadline:
            # Only tidying (marks of writers gone for long are dropped by the next writer too).
            with contextlib.suppress(StorageError):
                await self._backend.write(
                    partial(count_queries.forget_writer, writer=self._writer_id, at=self._seconds())
                )
        await self._backend.close()

    async def _flush_for_close(self, deadline: float) -> None:
        """Write what is buffered, retrying a failed write (a lock held for a moment, a
        connection dropped) after short, growing pauses, until `deadline`: a stop must end
        within a container's grace (10 s)."""
        loop = asyncio.get_running_loop()
        pauses = iter(CLOSE_RETRY_PAUSES)
        written = 0
        # Counts recorded while a flush runs are written by the next round (three at most).
        # A flush under way holds its batch out of the buffer: waited for (by `flush`), or its
        # counts would come back only after they were reported, not as lost.
        while written < 3 and (self._flush_under_way() or not self._pending.is_empty()):
            if await self.flush():
                written += 1
                continue
            pause = next(pauses, None)
            if pause is None or loop.time() + pause > deadline:
                return
            await self._sleep(pause)

    @property
    def location(self) -> str:
        """The SQLite file's path, or the PostgreSQL URL without its password."""
        return self._backend.location

    @property
    def generation(self) -> int:
        """Moves when another database is taken up at the location (a backup put in place under
        the running bot): versions read before are not comparable with those read after."""
        return self._backend.generation

    # -- counting (the hot path: no I/O, no await) --------------------------------------------

    def record_lookup(self, scope: int, entry_id: str) -> None:
        """Count an answered lookup of `entry_id` in `scope` (guild id, 0 for DMs)."""
        if self._closed:
            return
        kept = self._caps.lookup(self._pending, scope, entry_id, self._seconds())
        if not kept or "lookups" in self._dropping:
            self._note_kept("lookups", kept, self._caps.lookups)
        if kept and self.observer is not None:  # one dropped is never written: not "waiting"
            self.observer.lookup_counted()

    def record_miss(self, scope: int, normalized_query: str) -> None:
        """Count a search that found no entry."""
        if self._closed or not normalized_query:
            return
        kept = self._caps.miss(self._pending, scope, normalized_query, self._seconds())
        if not kept or "missed queries" in self._dropping:
            self._note_kept("missed queries", kept, self._caps.misses)

    def take_counts(self, ahead: CountsAhead) -> None:
        """Take the counts made before this store opened (`CountsAhead`): written with the next
        flush, as if counted here."""
        self._pending.absorb(ahead.buffer)
        if self.observer is not None:  # in the metrics from now on, as the store's own are
            self.observer.lookup_counted(ahead.buffer.lookup_total())
        ahead.buffer = CountBuffer(ahead.buffer.seq)  # taken: counted nowhere else

    def _note_kept(self, kind: str, kept: bool, cap: int) -> None:
        # Only while writes fail for long can this many distinct keys pile up in memory.
        if kept:
            self._dropping.discard(kind)
            log.info("counting new %s in memory again", kind)
        elif kind not in self._dropping:
            self._dropping.add(kind)
            log.warning(
                "%s distinct %s are waiting in memory to be written; new ones are not counted "
                "until the database can be written",
                f"{cap:,}",
                kind,
            )

    async def flush(self) -> bool:
        """Write buffered counts now. False if the write failed: the counts stay buffered.

        A flush still under way is waited for first: one whose caller left (the background
        flush, cancelled by `close`, waiting for a lock until the stop's deadline) holds its
        batch, neither written nor back in the buffer, and `close` would report it as neither
        lost nor written."""
        under_way = self._flushing
        if under_way is not None and not under_way.done():
            await asyncio.shield(under_way)  # `_flush` returns False, never raises
        if self._pending.is_empty():
            return True
        # Shielded as a whole: a cancelled caller must not leave a batch neither written nor
        # given back to the buffer.
        self._flushing = flushing = asyncio.ensure_future(self._flush())
        try:
            return await asyncio.shield(flushing)
        finally:
            if flushing.done() and self._flushing is flushing:
                self._flushing = None

    def _flush_under_way(self) -> bool:
        return self._flushing is not None and not self._flushing.done()

    async def _flush(self) -> bool:
        ANSWER_BY.set(None)  # a task of its own: not cut off by a change that started it
        taken: list[CountBuffer] = []

        async def write(tx: Tx) -> None:
            # Swapped inside the write transaction: counts recorded from here on go to a fresh
            # buffer, while readers still see this batch as `_inflight` until it is committed.
            if self._pending.is_empty():  # another flush took it while this one waited
                return
            batch, self._pending = self._pending, CountBuffer(self._pending.seq + 1)
            self._inflight = batch
            taken.append(batch)
            await count_queries.write_batch(tx, batch, writer=self._writer_id, at=self._seconds())

        started = time.perf_counter()
        try:
            await self._write(write)
        except Exception as exc:
            if taken:
                self._pending.absorb(taken[0])
            self._note_flush_failure(exc)
            self._observe_flush(started, 0, ok=False)
            return False
        finally:
            self._inflight = None
        self._wrote = True
        self._note_flush_success()
        self._observe_flush(started, taken[0].lookup_total() if taken else 0, ok=True)
        return True

    def _observe_flush(self, started: float, lookups: int, *, ok: bool) -> None:
        if self.observer is not None:
            self.observer.flushed(time.perf_counter() - started, lookups, ok)

    async def _flush_loop(self, interval: float) -> None:
        loop = asyncio.get_running_loop()
        while True:
            started = loop.time()
            await self.flush()
            # "At least every `interval`": a slow flush shortens the next wait.
            await self._sleep(max(0.0, interval - (loop.time() - started)))

    def _note_flush_failure(self, exc: Exception) -> None:
        self._failed_flushes += 1
        self._flush_failure = exc
        if self._failed_flushes == UNWRITTEN_FLUSHES:
            self._health_turned()
        if self._failed_flushes > 1:
            return
        if isinstance(exc, DatabaseLost):
            return  # the backend's one line about the file said it
        reason = said_of(exc, self.location) if isinstance(exc, StorageError) else repr(exc)
        log.warning(
            "could not write lookup counts to %s: %s; %s kept in memory and the write is retried",
            self.location,
            reason,
            said_count(self._pending.lookup_total(), "lookup is", "lookups are"),
            exc_info=not isinstance(exc, StorageError),
        )

    def _note_flush_success(self) -> None:
        if self._failed_flushes:
            log.info(
                "lookup counts written again after %s failed attempts", f"{self._failed_flushes:,}"
            )
            turned = self._failed_flushes >= UNWRITTEN_FLUSHES
            self._failed_flushes = 0
            self._flush_failure = None
            if turned:
                self._health_turned()

    def _buffers(self) -> list[CountBuffer]:
        """Counts not yet known to be in the database, oldest first."""
        return [b for b in (self._inflight, self._pending) if b is not None]

    # -- reading counts (database plus buffers) ---------------------------------------------

    async def total_lookups(self, scope: int, since: datetime | None = None) -> int:
        """Answered lookups in `scope` since `since` (None: all time), buffered ones included."""
        return await self._total_lookups(scope, since)

    async def _total_lookups(self, scope: int | None, since: datetime | None) -> int:
        stored, parts = await self._with_buffers(
            since,
            lambda buffer, first_hour: buffer.term_counts(scope, first_hour).total(),
            count_queries.total_lookups,
            scope=scope,
        )
        return stored + sum(parts)

    async def lookups_by_hour(
        self, scope: int | None, since: datetime | None = None
    ) -> dict[datetime, int]:
        """Lookups per hour (the hour's start, UTC) since `since`, for charts; scope None sums
        every server. Hours without lookups are left out."""
        stored, parts = await self._with_buffers(
            since,
            lambda buffer, first_hour: buffer.hour_counts(scope, first_hour),
            count_queries.hourly_lookups,
            scope=scope,
        )
        totals = Counter(stored)
        for part in parts:
            totals.update(part)
        return {from_unix(hour * HOUR): n for hour, n in sorted(totals.items())}

    async def last_lookup_hours(self) -> dict[int, int]:
        """Each server's last hour (hours since the epoch) with a stored lookup: which were
        active most recently. Counts still buffered are left out (minutes old at most)."""
        return await self._read(count_queries.last_lookup_hours)

    async def lookup_count(self, scope: int, entry_id: str) -> int:
        """All-time lookups of one entry in one scope (for a card footer)."""
        stored, parts = await self._with_buffers(
            None,
            lambda buffer, _: buffer.entry_count(scope, entry_id),
            count_queries.entry_lookups,
            scope=scope,
            entry_id=entry_id,
        )
        return stored + sum(parts)

    async def top_terms(
        self, scope: int, since: datetime | None = None, limit: int = 10
    ) -> list[tuple[str, int]]:
        """The most looked-up entry ids with their counts, most first."""
        return await self._top_terms(scope, since, limit)

    async def _top_terms(
        self, scope: int | None, since: datetime | None, limit: int
    ) -> list[tuple[str, int]]:
        stored, parts = await self._top(
            scope, since, limit, CountBuffer.term_counts, count_queries.term_counts
        )
        totals = Counter(stored)
        for counts in parts:
            totals.update(counts)
        ranked = sorted(totals.items(), key=lambda item: (-item[1], item[0]))
        return ranked[:limit]

    async def top_misses(
        self,
        scope: int,
        since: datetime | None = None,
        limit: int = 10,
        *,
        containing: str | None = None,
    ) -> list[Miss]:
        """The most frequent searches that found nothing, most first; with `containing`, the
        most frequent of those with that text in them."""
        return await self._top_misses(scope, since, limit, containing)

    async def _top_misses(
        self, scope: int | None, since: datetime | None, limit: int, containing: str | None = None
    ) -> list[Miss]:
        stored, parts = await self._top(
            scope,
            since,
            limit,
            CountBuffer.miss_tallies,
            count_queries.miss_counts,
            containing=containing,
        )
        # The period was applied in SQL: a stored count needs no real hour.
        merged = {
            query: MissTally(found.first_seen, found.last_seen, Counter({0: found.count}))
            for query, found in stored.items()
        }
        for tallies in parts:
            merge_tallies(merged, tallies)
        misses = [
            Miss(query, t.hours.total(), from_unix(t.first_seen), from_unix(t.last_seen))
            for query, t in merged.items()
            if t.hours.total() > 0 and (containing is None or containing in query)
        ]
        misses.sort(key=lambda miss: (-miss.count, miss.query))
        return misses[:limit]

    async def _top(
        self,
        scope: int | None,
        since: datetime | None,
        limit: int,
        from_buffer: Callable[[CountBuffer, int | None, int | None], K],
        query: Callable[..., Awaitable[tuple[int, S]]],
        **filters: object,
    ) -> tuple[S, list[K]]:
        """A top list's stored rows (the top `limit` plus every key buffered) and buffers."""
        _check_limit(limit)
        return await self._with_buffers(
            since,
            lambda buffer, first_hour: from_buffer(buffer, scope, first_hour),
            query,
            with_buffered_keys=True,
            scope=scope,
            limit=limit,
            **filters,
        )

    async def _with_buffers(
        self,
        since: datetime | None,
        from_buffer: Callable[[CountBuffer, int | None], P],
        query: Callable[..., Awaitable[tuple[int, S]]],
        *,
        with_buffered_keys: bool = False,
        **arguments: object,
    ) -> tuple[S, list[P]]:
        """What the database holds plus the buffered parts it does not include yet.

        `query` returns this writer's flush mark with its rows (`bot.storage.queries.counts`);
        `with_buffered_keys` also asks it for the stored counts of every key buffered.
        Buffers are read before the database: a batch committed in between is then counted
        from the database only, since its sequence number is no longer newer than the mark.
        """
        first_hour = since_hour(since)
        # A period ends now: counts stored under hours ahead (the clock was wrong) are left out.
        last_hour = None if first_hour is None else hour_of(self._seconds())
        parts = [(buffer.seq, from_buffer(buffer, first_hour)) for buffer in self._buffers()]
        if with_buffered_keys:
            arguments["also"] = {key for _, part in parts for key in cast(Iterable[str], part)}
        seq, stored = await self._read(
            partial(
                query,
                writer=self._writer_id,
                first_hour=first_hour,
                last_hour=last_hour,
                **arguments,
            )
        )
        return stored, [part for part_seq, part in parts if part_seq > seq]

    async def stats(
        self, scope: int | None, since: datetime | None = None, limit: int = 10
    ) -> Stats:
        """Everything a stats view shows; scope None sums every server (command line)."""
        return Stats(
            scope=scope,
            since=since,
            total_lookups=await self._total_lookups(scope, since),
            top_terms=await self._top_terms(scope, since, limit),
            top_misses=await self._top_misses(scope, since, limit),
            alias_count=await self._read(partial(alias_queries.alias_count, scope=scope)),
            term_count=await self._read(partial(term_queries.term_count, scope=scope)),
            suggestions={
                status: await self._read(
                    partial(suggestion_queries.suggestion_count, scope=scope, status=status)
                )
                for status in SUGGESTION_STATES
            },
        )

    async def servers(self) -> list[count_queries.ServerHeld]:
        """Every server the database holds anything of (its lookups, missed searches, aliases,
        terms or suggestions), by id, with what it holds: `glossary-bot stats --servers`."""
        return await self._read(count_queries.servers)

    # -- aliases ------------------------------------------------------------------------------

    async def aliases(self, scope: int) -> dict[str, str]:
        """This server's aliases: normalised key -> entry id. Read afresh each time: the bot's
        one cache of them (`ServerCache`) reads only when `alias_version` has moved."""
        return await self._read(partial(alias_queries.alias_map, scope=scope))

    async def alias_version(self) -> int:
        """A counter that any alias change, from any process, increases (one small read)."""
        return await self._read(alias_queries.alias_version)

    async def list_aliases(self, scope: int, entry_id: str | None = None) -> list[AliasRecord]:
        """This server's aliases in full, sorted by key; only those of `entry_id` if given."""
        return await self._read(partial(alias_queries.list_aliases, scope=scope, entry_id=entry_id))

    async def add_alias(
        self,
        scope: int,
        key: str,
        text: str,
        entry_id: str,
        actor_id: int,
        *,
        miss_query: str | None = None,
        check: AliasCheck | None = None,
        own_term: bool = False,
        terms_version: int | None = None,
    ) -> AddAliasResult:
        """Map `key` (already normalised and validated) to `entry_id` in `scope`.

        The miss recorded under `key` (and under `miss_query`, when a moderator turns a listed
        miss into this alias) is cleared in the same transaction. `check` runs inside the write,
        on the server's aliases as stored then (status REFUSED with its reason). `own_term`:
        `entry_id` is one of the server's own terms, which another moderator may remove while
        this alias is checked: TERM_GONE if it is no longer stored at the write (a removal takes
        its term's aliases in its own write, so one written after it would be left behind).
        `terms_version`: the server's `terms_version` read before the caller's glossary, which
        `check` checks against: TERMS_CHANGED if it moved by the write (another process wrote
        a term, perhaps of this alias's name, that `check` cannot see).
        Raises `StorageUnavailable` when the database cannot be written.
        """
        [result] = await self._add_aliases(
            [(AliasImport(scope, key, text, entry_id), miss_query)],
            actor_id,
            AuditAction.ALIAS_ADD,
            check,
            own_terms=frozenset({(scope, entry_id)} if own_term else ()),
            terms_seen={} if terms_version is None else {scope: terms_version},
        )
        return result

    async def import_aliases(
        self,
        items: Iterable[AliasImport],
        actor_id: int = OPERATOR_ACTOR,
        *,
        check: AliasCheck | None = None,
        own_terms: Iterable[tuple[int, str]] = (),
        terms_seen: Mapping[int, int] | None = None,
    ) -> list[AddAliasResult]:
        """Add aliases from an operator's file, each as its own audited change, in order, all in
        one transaction (one commit, not one per alias); `check` as for `add_alias`, `own_terms`
        ((server, entry id) pairs naming a server's own term) as its `own_term`, and
        `terms_seen` (server -> its `terms_version` read before its terms) as its
        `terms_version`."""
        return await self._add_aliases(
            [(item, None) for item in items],
            actor_id,
            AuditAction.ALIAS_IMPORT,
            check,
            own_terms=frozenset(own_terms),
            terms_seen=terms_seen,
        )

    async def _add_aliases(
        self,
        wanted: list[tuple[AliasImport, str | None]],
        actor_id: int,
        action: AuditAction,
        check: AliasCheck | None,
        *,
        own_terms: frozenset[tuple[int, str]] = frozenset(),
        terms_seen: Mapping[int, int] | None = None,
    ) -> list[AddAliasResult]:
        """Add (alias, miss it answers) pairs; the misses of each alias added are cleared.
        `terms_seen`: servers' term versions their checks were made at (`add_alias`,
        `import_aliases`)."""
        if any(not item.key or not item.entry_id for item, _ in wanted):
            raise ValueError("an alias needs a non-empty key and entry id")
        at = self._now_second()
        plans = [
            (
                AliasRecord(item.scope, item.key, item.text, item.entry_id, actor_id, at),
                sorted({item.key, miss[:MAX_QUERY_LENGTH]} if miss else {item.key}),
            )
            for item, miss in wanted
        ]

        async def add_all(tx: Tx) -> list[AddAliasResult]:
            # Each alias decided in memory against the servers' aliases read once, then written
            # a few statements for the lot: a statement an alias cost ~5 ms of round trips.
            # No other writer may add a clashing spelling between this read and the commit, nor
            # remove a term (term writes take this lock too, after the terms' own).
            await alias_queries.lock_aliases(tx)
            scopes = sorted({item.scope for item, _ in wanted})
            held = {
                scope: {
                    r.key: r
                    for r in await alias_queries.list_aliases(tx, scope=scope, entry_id=None)
                }
                for scope in scopes
            }
            stored = {scope: {k: r.entry_id for k, r in held[scope].items()} for scope in scopes}
            terms = {
                scope: await term_queries.term_ids(tx, scope)
                for scope in sorted({scope for scope, _ in own_terms if scope in held})
            }
            moved = {
                scope
                for scope, seen in (terms_seen or {}).items()
                if await version_queries.terms_version(tx, scope=scope) != seen
            }
            results: list[AddAliasResult] = []
            adding: list[int] = []  # positions in `wanted` to insert
            for (item, _), (record, _) in zip(wanted, plans, strict=True):
                if (item.scope, item.entry_id) in own_terms and item.entry_id not in terms[
                    item.scope
                ]:
                    results.append(AddAliasResult(AddAliasStatus.TERM_GONE, None))
                    continue
                if item.scope in moved:
                    results.append(AddAliasResult(AddAliasStatus.TERMS_CHANGED, None))
                    continue
                if check is not None:
                    reason = check(item, stored[item.scope])
                    if reason is not None:
                        results.append(AddAliasResult(AddAliasStatus.REFUSED, None, reason=reason))
                        continue
                existing = held[item.scope].get(item.key)
                if existing is not None:
                    results.append(alias_queries.already_there(existing, item.entry_id))
                    continue
                if len(held[item.scope]) >= ALIAS_CAP:
                    results.append(AddAliasResult(AddAliasStatus.CAP_REACHED, None))
                    continue
                held[item.scope][item.key] = record
                stored[item.scope][item.key] = item.entry_id
                adding.append(len(results))
                results.append(AddAliasResult(AddAliasStatus.ADDED, record))
            if not adding:
                return results
            inserted = await alias_queries.insert_aliases(tx, [plans[i][0] for i in adding])
            added = []
            for i in adding:
                record, clears = plans[i]
                if (record.scope, record.key) in inserted:
                    added.append(i)
                    continue
                # Taken since the read by a writer that does not lock: the key's final word.
                existing = await alias_queries.get_alias(tx, record.scope, record.key)
                if existing is None:
                    raise RuntimeError("an alias insert conflicted with no alias")
                results[i] = alias_queries.already_there(existing, record.entry_id)
            cleared: set[tuple[int, str]] = set()
            for scope in scopes:
                queries = sorted(
                    {q for i in added if plans[i][0].scope == scope for q in plans[i][1]}
                )
                cleared |= {
                    (scope, q) for q in await alias_queries.clear_misses(tx, scope, queries)
                }
            for i in added:
                record, clears = plans[i]
                hit = any((record.scope, q) in cleared for q in clears)
                results[i] = AddAliasResult(AddAliasStatus.ADDED, record, cleared_miss=hit)
            await alias_queries.audit_added(tx, [plans[i][0] for i in added], actor_id, action)
            return results

        def forget_pending(results: list[AddAliasResult]) -> None:
            # Buffered misses of these queries would otherwise bring the cleared rows back.
            for (record, clears), result in zip(plans, results, strict=True):
                if result.status is AddAliasStatus.ADDED:
                    for query in clears:
                        self._pending.forget_miss(record.scope, query)

        return await self._write(add_all, on_commit=forget_pending)

    @property
    def shared(self) -> bool:
        """Other processes may use this database too (PostgreSQL): one bot over several."""
        return self._backend.shared

    def identify_slot(self, bucket: int) -> contextlib.AbstractAsyncContextManager[None]:
        """Hold IDENTIFY bucket `bucket` for the whole bot while the block runs: every process
        sharing this database waits for it (`shared` databases only). Raises `StorageError` when
        the database cannot be reached."""
        return self._backend.identify_slot(bucket)

    def claim_shards(
        self,
        shard_ids: Sequence[int] | None,
        *,
        holder: str,
        wait: float,
        shard_count: int | None = None,
        application_id: int | None = None,
    ) -> contextlib.AbstractAsyncContextManager[None]:
        """Run `shard_ids` (None: the whole bot) alone among the processes sharing this
        database while the block runs: `ShardsTaken` if another runs some of them (see
        `Backend.claim_shards`)."""
        return self._backend.claim_shards(
            shard_ids,
            holder=holder,
            wait=wait,
            shard_count=shard_count,
            application_id=application_id,
            turned=self._health_turned,
        )

    def claims_lost(self) -> str | None:
        """Why this process's shard claims are not held now though it runs (the health check;
        see `Backend.claims_lost`)."""
        return self._backend.claims_lost()

    async def can_write(self) -> bool:
        """True if a write reaches the database now (the metrics' gauge); never raises."""
        return await self.why_not_writable() is None

    async def why_not_writable(self) -> str | None:
        """Why a write does not reach the database now, None when one does (the health check);
        never raises. The words are the error the backend raised, where the reason is decided
        (a file swapped under the bot, a schema dropped, a full disk), less the database's
        name, which the caller's line gives. One probe at a time: asked again while one waits
        for the database (one that hangs, each write up to its command timeout), the answer is
        that probe's, not one more write queued behind it. Cancelling a caller leaves the probe
        to end on its own."""
        if self._probing is None or self._probing.done():
            self._probing = asyncio.ensure_future(self._why_not_writable())
        return await asyncio.shield(self._probing)

    async def _why_not_writable(self) -> str | None:
        ANSWER_BY.set(None)  # a task of its own: shared by every ask, bounded by none of them
        try:
            await self._write(count_queries.touch, probe=True)
        except StorageError as exc:
            return said_of(exc, self.location)
        if self._failed_flushes >= UNWRITTEN_FLUSHES and not self._pending.is_empty():
            # The probe went through: the flushes' failure may be older than it (the database
            # back after an outage). The counts are written now rather than said unwritten the
            # second the flush loop writes them; a failure now is the one said.
            await self.flush()
        failure = self._flush_failure
        waiting = not self._pending.is_empty()
        if self._failed_flushes >= UNWRITTEN_FLUSHES and failure is not None and waiting:
            reason = said_of(failure, self.location)
            return f"lookup counts cannot be written ({reason}); they wait in memory"
        return None

    async def remove_alias(self, scope: int, key: str, actor_id: int) -> AliasRecord | None:
        """Remove an alias; returns what was removed, None if there was no such alias."""
        return await self._write(
            partial(
                alias_queries.remove_alias,
                scope=scope,
                key=key,
                actor_id=actor_id,
                at=self._seconds(),
                write_id=new_write_id(),
            ),
        )

    async def alias_removal(self, scope: int, key: str) -> AliasRemoval | None:
        """The alias `key`'s last removal, if it is not back since: `/alias remove` says why
        there is no such alias (removed with its term, or alone)."""

        async def read(tx: Tx) -> AliasRemoval | None:
            last = await alias_queries.last_removal(tx, scope=scope, key=key)
            if last is None:
                return None
            found, write_id = last
            term = None
            if found.before is not None:
                term = await term_queries.removed_with(
                    tx,
                    scope=scope,
                    term_id=found.before,
                    write_id=write_id,
                    at=to_unix(found.at),
                    actor_id=found.actor_id,
                )
            return AliasRemoval(found.at, term)

        return await self._read(read)

    async def audit_log(self, scope: int, limit: int = 50) -> list[AuditRecord]:
        """This server's alias changes, newest first."""
        return await self._read(partial(alias_queries.audit_log, scope=scope, limit=limit))

    # -- each server's own terms -----------------------------------------------------------

    async def terms(self, scope: int) -> list[StoredTerm]:
        """This server's own glossary terms, by id."""
        return await self._read(partial(term_queries.terms, scope=scope))

    async def term_scopes(self) -> list[int]:
        """The servers with terms or aliases of their own (`glossary-bot check --db`)."""
        return await self._read(term_queries.term_scopes)

    async def terms_of_ids(self, ids: Sequence[str]) -> list[tuple[int, StoredTerm]]:
        """Every server's own terms with one of these ids, each with its server (`glossary-bot
        stats` of all servers names their lookups by title)."""
        return await self._read(partial(term_queries.terms_of_ids, ids=ids))

    async def term_version(self) -> int:
        """A counter that any change to any server's terms, from any process, increases."""
        return await self._read(term_queries.term_version)

    async def server_version(self, scope: int) -> int:
        """A number that any change to this server's aliases or terms, from any process,
        increases, and no other server's change moves."""
        return await self._read(partial(version_queries.server_version, scope=scope))

    async def schema_behind(self) -> tuple[int, int] | None:
        """(the schema version found, this bot's) if the database's schema went back under the
        running bot (a backup from before an upgrade put in place: reads of what later
        migrations made fail until a restart migrates it again); None if not. Version 0 is no
        schema yet, not an older one: a restore still loading its rows (pg_restore fills the
        version's table after the counters'), whose end a restart must not cut short."""
        found, latest = await self._backend.schema_versions()
        return (found, latest) if 0 < found < latest else None

    async def changes_tracked(self) -> bool:
        """Do the versions move with every change now (`Backend.changes_tracked`)? Not while a
        restore under the running bot loads the rows, before it makes the triggers."""
        return await self._backend.changes_tracked()

    async def terms_version(self, scope: int) -> int:
        """A number that any change to this server's terms, from any process, increases, and
        neither its aliases' changes nor another server's move (`add_alias`'s `terms_version`)."""
        return await self._read(partial(version_queries.terms_version, scope=scope))

    async def server_versions(self, scopes: Sequence[int]) -> dict[int, int]:
        """`server_version` of each of these servers, in one read (a few per 500 servers)."""
        return await self._read(partial(version_queries.server_versions, scopes=scopes))

    async def change_terms(
        self,
        scope: int,
        plan: Callable[[list[StoredTerm], dict[str, str]], tuple[StoredChange | None, T]],
        actor_id: int,
        *,
        action: str | None = None,
    ) -> T:
        """Change this server's terms in one transaction: `plan` gets them and the server's
        aliases (key -> entry id) as they are and returns the change to write (None: nothing)
        and what to answer. Term and checked alias writes are serialised, so `plan` sees every
        earlier write: check caps and conflicts (a name an alias answers to) there. A change
        that `accepts` a suggestion decides it in the same write, undone with
        `SuggestionDecided` when it is no longer open; one with a `draft` keeps that form's
        draft (marked saved) in the same write."""
        at, write_id = self._seconds(), new_write_id()

        async def write(tx: Tx) -> T:
            await term_queries.lock_terms(tx)
            await alias_queries.lock_aliases(tx)
            before = await term_queries.terms(tx, scope)
            change, answer = plan(before, await alias_queries.alias_map(tx, scope))
            if change is not None:
                await term_queries.apply_change(
                    tx,
                    scope=scope,
                    before=before,
                    change=change,
                    actor_id=actor_id,
                    at=at,
                    write_id=write_id,
                    action=action,
                )
                for key in change.drop_aliases:
                    await alias_queries.remove_alias(
                        tx, scope=scope, key=key, actor_id=actor_id, at=at, write_id=write_id
                    )
                if change.draft is not None:  # the form saved: with its term, or not at all
                    await draft_queries.save_draft(
                        tx,
                        nonce=change.draft.nonce,
                        scope=scope,
                        owner_id=change.draft.owner_id,
                        body=change.draft.body,
                        at=at,
                    )
                if change.accepts is not None:
                    accepted = await suggestion_queries.decide(
                        tx,
                        scope=scope,
                        suggestion_id=change.accepts,
                        accepted=True,
                        actor_id=actor_id,
                        at=at,
                        term_id=change.put[0].id,
                    )
                    if accepted is None:
                        raise SuggestionDecided(change.accepts)  # the term is not written
            return answer

        return await self._write(write)

    async def rename_term(
        self,
        scope: int,
        plan: Callable[[list[StoredTerm]], StoredRename | None],
        actor_id: int = OPERATOR_ACTOR,
    ) -> StoredRename | None:
        """Give one of this server's terms another id in one write: `plan` gets its terms as
        they are (checked again here: another process may have renamed it first) and returns
        the rename, or None for nothing. The server's aliases of the old id open the new one,
        and its lookups of the old id are counted under the new (the term version moves: every
        process reads the server again)."""
        at = self._seconds()

        async def write(tx: Tx) -> StoredRename | None:
            await term_queries.lock_terms(tx)
            await alias_queries.lock_aliases(tx)
            before = await term_queries.terms(tx, scope)
            rename = plan(before)
            old = next((t for t in before if rename and t.id == rename.old_id), None)
            if rename is None or old is None:
                return None
            new_id = rename.renamed.id
            await term_queries.rename(
                tx, scope=scope, before=old, rename=rename, actor_id=actor_id, at=at
            )
            await alias_queries.repoint_aliases(tx, scope=scope, old_id=old.id, new_id=new_id)
            await count_queries.merge_lookups(tx, scope=scope, old_id=old.id, new_id=new_id)
            return rename

        return await self._write(write)

    async def ever_a_term(self, scope: int, term_id: str) -> bool:
        """Whether `term_id` was ever this server's term (its term log holds it): the id of a
        card gone from the glossary is this server's, or the glossary's."""
        return await self._read(partial(term_queries.ever_a_term, scope=scope, term_id=term_id))

    async def term_audit_log(
        self, scope: int, limit: int = 50, *, older_than: int | None = None
    ) -> list[TermAuditRecord]:
        """This server's term changes and decisions on suggestions, newest first, each with the
        term (or suggestion) before and after; only those older than entry `older_than` if given."""
        _check_limit(limit)
        return await self._read(
            partial(term_queries.term_audit_log, scope=scope, limit=limit, older_than=older_than)
        )

    # -- members' suggestions -----------------------------------------------------------------

    async def add_suggestion(
        self,
        scope: int,
        user_id: int,
        title: str,
        definition: str,
        *,
        max_open: int = MAX_OPEN_SUGGESTIONS,
        cooldown: int = SUGGEST_COOLDOWN,
    ) -> SuggestStatus:
        """Queue a member's suggestion, unless they just made one or the queue is full."""
        return await self._write(
            partial(
                suggestion_queries.add_suggestion,
                scope=scope,
                user_id=user_id,
                title=title,
                definition=definition,
                at=self._seconds(),
                max_open=max_open,
                cooldown=cooldown,
            )
        )

    async def suggest_refusal(
        self,
        scope: int,
        user_id: int,
        *,
        max_open: int = MAX_OPEN_SUGGESTIONS,
        cooldown: int = SUGGEST_COOLDOWN,
    ) -> SuggestStatus | None:
        """Why `add_suggestion` would refuse this member now, or None: read before they write
        one (the write checks again)."""
        return await self._read(
            partial(
                suggestion_queries.suggest_refusal,
                scope=scope,
                user_id=user_id,
                at=self._seconds(),
                max_open=max_open,
                cooldown=cooldown,
            )
        )

    async def open_suggestions(self, scope: int, limit: int = 25) -> list[Suggestion]:
        """This server's open suggestions, oldest first."""
        return await self._read(
            partial(suggestion_queries.open_suggestions, scope=scope, limit=limit)
        )

    async def suggestion(self, scope: int, suggestion_id: int) -> Suggestion | None:
        return await self._read(
            partial(suggestion_queries.get_suggestion, scope=scope, suggestion_id=suggestion_id)
        )

    async def decide_suggestion(
        self,
        scope: int,
        suggestion_id: int,
        *,
        accepted: bool,
        actor_id: int,
        term_id: str | None = None,
    ) -> Suggestion | None:
        """Close an open suggestion as accepted (as the term `term_id`) or rejected, in the term
        audit log; None if it was not open."""
        return await self._write(
            partial(
                suggestion_queries.decide,
                scope=scope,
                suggestion_id=suggestion_id,
                accepted=accepted,
                actor_id=actor_id,
                at=self._seconds(),
                term_id=term_id,
            )
        )

    # -- the term forms moderators have open ----------------------------------------------------

    async def save_term_draft(self, nonce: str, scope: int, owner_id: int, body: str) -> None:
        """Keep what a term form was opened with (JSON), for its submit even after a restart."""
        await self._write(
            partial(
                draft_queries.save_draft,
                nonce=nonce,
                scope=scope,
                owner_id=owner_id,
                body=body,
                at=self._seconds(),
            )
        )

    async def term_draft(self, nonce: str, scope: int, owner_id: int) -> str | None:
        """A form's draft, only for the server and moderator it was opened for."""
        return await self._read(
            partial(draft_queries.draft, nonce=nonce, scope=scope, owner_id=owner_id)
        )

    # -- operators ------------------------------------------------------------------------------

    async def export_aliases(self, scope: int | None = None) -> list[dict[str, object]]:
        """Aliases as JSON-ready dicts (one server, or all); `import_aliases` reads them back."""
        records = await self._read(partial(alias_queries.list_aliases, scope=scope, entry_id=None))
        return [record.to_json() for record in records]

    async def backup(self, dest: str | os.PathLike[str]) -> None:
        """Copy the database to `dest`; safe while the bot runs. Buffered counts go first.

        SQLite: an online backup, written beside `dest` and renamed into place, so `dest` is
        never a half-written file. PostgreSQL: raises `StorageError` with the pg_dump command.
        """
        await self.flush()
        await self._backend.backup(dest)

    async def copy_into(
        self,
        target: Store,
        *,
        force: bool = False,
        told: Callable[[str, int, int], None] = lambda *_: None,
        page: int = copy_queries.PAGE,
    ) -> CopyReport:
        """Copy everything stored here into `target` (another backend, say), and verify it.

        The rows go over `page` at a time (memory stays bounded, whatever the size), read from
        one snapshot of this database and written in one transaction on the target, which is
        checked before it commits: a copy that fails, or does not add up, leaves the target as
        it was. Refuses a target that already holds data unless `force`: then counts are added
        to its counts, aliases and terms it lacks are added, and the logs and suggestions are
        appended to its own. `told(what, rows done, rows in all)` hears of each page, then of
        the check. Cancelled (Ctrl-C), the copy stops at its next page and writes nothing.
        """
        await self.flush()
        # The transactions run shielded from the caller's cancellation (`shielded`): a copy
        # of minutes looks at this between pages, and rolls back.
        stopping = False

        async def read(source_tx: Tx) -> CopyReport:
            source = await copy_queries.tally(source_tx)
            rows = sum(source[table.name] for table in copy_queries.TABLES)

            async def write(tx: Tx) -> CopyReport:
                before = await copy_queries.tally(tx)
                if not force and any(before[table] for table in COPIED_TABLES):
                    raise TargetNotEmpty(
                        f"{target.location} already holds data ({_describe(before)}); "
                        "copying on top of it needs --force"
                    )
                done = 0
                for table in copy_queries.TABLES:
                    told(f"copying {table.name}", done, rows)
                    async for chunk in _read_by_source(copy_queries.pages(source_tx, table, page)):
                        if stopping:
                            raise CopyStopped()
                        await copy_queries.add(tx, table, chunk)
                        done += len(chunk)
                        told(f"copying {table.name}", done, rows)
                told("checking", done, rows)
                after = await copy_queries.tally(tx)
                expected = {name: before[name] + source[name] for name in ADDITIVE}
                if not force:
                    expected = source
                wrong = {name: after[name] for name in expected if after[name] != expected[name]}
                if wrong:  # raised inside the transaction: nothing is written
                    raise StorageError(
                        "the copy does not add up: expected "
                        f"{_tally(expected)}, found {_tally(after)}; nothing was written"
                    )
                return CopyReport(source, before, after)

            try:
                return await target._write(write)
            except SourceFailed as failed:  # the source's error, told as its own (by its path)
                raise failed.error from None
            except TargetNotEmpty:
                raise
            except StorageError as exc:  # the write into the target failed, and rolled back
                raise TargetFailed(str(exc)) from exc

        try:
            return await self._read(read)  # one snapshot, held while the target is written
        except asyncio.CancelledError:
            stopping = True
            raise

    async def old_rows(self, before: datetime) -> dict[str, int]:
        """How many rows of each table `prune(before)` would remove now."""
        hour = hour_of(to_unix(before))
        return {
            table.table: await self._read(
                partial(prune_queries.count_old, table=table, before_hour=hour)
            )
            for table in prune_queries.PRUNED
        }

    async def prune(
        self,
        before: datetime,
        *,
        told: Callable[[str, int], None] = lambda *_: None,
        batch: int = prune_queries.BATCH,
    ) -> dict[str, int]:
        """Remove the lookup counts and missed searches' hours from before the hour holding
        `before`, and the missed searches last seen before it; how many rows of each table.
        Each batch of `batch` rows is a transaction of its own (a bot may run meanwhile):
        stopped part-way, what was removed stays removed. `told(table, removed so far)`
        hears of each batch as it commits, also of the one a cancelled caller no longer waits
        for. Aliases, terms, suggestions and the audit logs are not touched."""
        await self.flush()
        hour = hour_of(to_unix(before))
        removed: dict[str, int] = {}
        for table in prune_queries.PRUNED:
            removed[table.table] = 0
            told(table.table, 0)

            def committed(n: int, name: str = table.table) -> None:
                removed[name] += n
                told(name, removed[name])

            for scope in await self._read(partial(prune_queries.scopes, table=table)):
                while True:
                    n = await self._write(
                        partial(
                            prune_queries.remove_old,
                            table=table,
                            scope=scope,
                            before_hour=hour,
                            batch=batch,
                        ),
                        on_commit=committed,
                    )
                    if n < batch:
                        break
        return removed

    # -- helpers ----------------------------------------------------------------------------

    async def _read(self, body: Body[T]) -> T:
        return await self._backend.read(body)

    async def _write(
        self, body: Body[T], *, on_commit: Callable[[T], None] | None = None, probe: bool = False
    ) -> T:
        """Every write but the last one of `close`: refused (`StorageUnavailable`) while the
        database at the configured place is not the one in use (a SQLite file deleted or
        replaced underneath; see `Backend.ensure_in_place`)."""

        def committed(result: T) -> None:
            # Counted at the commit itself: a caller cancelled meanwhile (Ctrl-C in the command
            # line) never sees the result of a write that still finishes (transactions are shielded).
            self.writes_committed += 1
            self._turned(writable=True)
            if on_commit is not None:
                on_commit(result)

        try:
            await self._backend.ensure_in_place()
            return await self._backend.write(body, on_commit=committed, probe=probe)
        except StorageUnavailable:  # the database's fault, not the write's (a refusal, say)
            self._turned(writable=False)
            raise

    def _turned(self, *, writable: bool) -> None:
        """A write's outcome: `on_writable_turned` told when it differs from the last one's."""
        if writable != self._writable:
            self._writable = writable
            self._health_turned()

    def _health_turned(self) -> None:
        """What `why_not_writable` says has changed: the heartbeat says so at once."""
        if self.on_writable_turned is not None:
            self.on_writable_turned()

    def _now_second(self) -> datetime:
        return from_unix(self._seconds())


@dataclass(frozen=True, slots=True)
class CountCaps:
    """How many distinct keys of each kind a buffer holds in memory (past them a new key is not
    counted), and the one way a count is recorded under them: the store's and `CountsAhead`'s."""

    lookups: int = MAX_PENDING_LOOKUPS
    misses: int = MAX_PENDING_MISSES

    def lookup(self, buffer: CountBuffer, scope: int, entry_id: str, now: int) -> bool:
        """Count a lookup; False when its key is new and the buffer is at the cap."""
        return buffer.add_lookup(scope, entry_id, now, max_keys=self.lookups)

    def miss(self, buffer: CountBuffer, scope: int, normalized_query: str, now: int) -> bool:
        """Count a missed search, its query cut to `MAX_QUERY_LENGTH`; False when it is new
        and the buffer is at the cap. An empty query is no search: counted nowhere (True)."""
        query = normalized_query[:MAX_QUERY_LENGTH]
        return not query or buffer.add_miss(scope, query, now, max_keys=self.misses)


class CountsAhead:
    """Lookups and missed searches counted while the database is not open yet (the bot answers
    from its glossary while PostgreSQL comes up): handed to the store once it opens
    (`Store.take_counts`), or said lost if it never does. Bounded as the store's buffer is."""

    def __init__(
        self, max_lookups: int = MAX_PENDING_LOOKUPS, max_misses: int = MAX_PENDING_MISSES
    ) -> None:
        self.buffer = CountBuffer(1)
        self._caps = CountCaps(max_lookups, max_misses)
        self.dropped = 0  # lookups and misses of a new key past the bounds: not counted

    def record_lookup(self, scope: int, entry_id: str) -> None:
        # In the metrics once the store takes them (`take_counts`): a wait given up drops
        # them, and `glossary_lookups_buffered_total` would show them waiting for ever.
        if not self._caps.lookup(self.buffer, scope, entry_id, _system_seconds()):
            self.dropped += 1

    def record_miss(self, scope: int, normalized_query: str) -> None:
        if not self._caps.miss(self.buffer, scope, normalized_query, _system_seconds()):
            self.dropped += 1

    def said(self) -> str:
        """ "3 lookups and 1 missed search" counted so far, and how many were not (a flood
        past the bounds)."""
        past = (
            f" ({self.dropped:,} more past the cap of keys kept in memory, not counted)"
            if self.dropped
            else ""
        )
        return (
            f"{said_count(self.buffer.lookup_total(), 'lookup', 'lookups')} and "
            f"{said_count(self.buffer.miss_total(), 'missed search', 'missed searches')}{past}"
        )


# Tables whose rows `copy_into` carries over; the tallies that simply add up when forced.
COPIED_TABLES = (
    "lookups",
    "misses",
    "aliases",
    "audit_log",
    "terms",
    "suggestions",
    "term_drafts",
)
ADDITIVE = ("lookup_total", "miss_total", "audit_log", "term_audit_log", "suggestions")


class CopyStopped(Exception):
    """Raised inside a copy's transaction, which rolls it back: its caller was cancelled."""


class SourceFailed(Exception):
    """The source's read failed inside the target's transaction, which rolls it back: carried
    out past the target, whose error it is not (the target's would name the target)."""

    def __init__(self, error: Exception) -> None:
        super().__init__(str(error))
        self.error = error


async def _read_by_source(pages: AsyncIterator[T]) -> AsyncIterator[T]:
    """The source's pages, a failure to read them told as `SourceFailed`."""
    try:
        async for chunk in pages:
            yield chunk
    except Exception as exc:
        raise SourceFailed(exc) from exc


@dataclass(frozen=True, slots=True)
class CopyReport:
    source: dict[str, int]
    target_before: dict[str, int]
    target_after: dict[str, int]


# What a database holds, in words, from `copy_queries.tally` (its row counts and count totals).
_HELD = {
    "lookup_total": ("lookup", "lookups"),
    "miss_total": ("missed query", "missed queries"),
    "aliases": ("alias", "aliases"),
    "audit_log": ("alias audit entry", "alias audit entries"),
    "terms": ("server term", "server terms"),
    "term_audit_log": ("term audit entry", "term audit entries"),
    "suggestions": ("suggestion", "suggestions"),
    "term_drafts": ("form draft", "form drafts"),
}


def _describe(tally: dict[str, int]) -> str:
    """What is there, in words: "1 alias, 1 alias audit entry" (not table names, nor zeros);
    tables by name only when none of those has rows, still without zeros."""
    held = [(tally.get(name, 0), nouns) for name, nouns in _HELD.items()]
    return ", ".join(said_count(n, one, many) for n, (one, many) in held if n) or _tally(
        {name: n for name, n in tally.items() if n}
    )


def _tally(tally: dict[str, int]) -> str:
    """Every table's count, by name: for a check that did not add up."""
    return ", ".join(f"{n:,} {name.replace('_', ' ')}" for name, n in tally.items())


def _system_seconds() -> int:
    return int(time.time())


def _check_limit(limit: int) -> None:
    if limit < 1:
        raise ValueError(f"limit must be at least 1, not {limit}")


def new_write_id() -> str:
    """What the log rows of one write share (a term's removal and the aliases it takes)."""
    return uuid.uuid4().hex
