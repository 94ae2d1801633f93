"""Each server's aliases and own terms, compiled for search (`LocalGlossary`), in one cache
keyed on each server's own version in the store.

The store bumps `alias_version` and `term_version` on every change from any process (`/alias
add` or `/term add` here, a second bot on the same database, `glossary-bot terms import`), and
the changed server's own version (`server_version`). One task reads those two counters once
per `check_interval` for all requests; when one moves, it reads the versions of the servers
cached (one query), and only a server whose own version moved is marked stale and read again
at once (several, one after another), while its old glossary keeps answering (a request waits
at most `stale_wait` for the new one): one server's change no longer reads every other server's
2,000 rows again. A server's
aliases and terms are read and compiled once per change, never per request: compiling 1,000
long aliases on every search stalled every server, and indexing takes a tenth of a second. What a
server not asked for in a while holds is dropped (`drop_idle`) and read again at its next request.

A server's terms are found by meaning once embedded: a compiled glossary holds the vectors
already known (`TermVectors`, shared by all servers, cached on disk), and the rest are embedded
in one thread of the bot's own, a small batch at a time, each server's meaning stage swapped in
as its batches arrive. One thread: an import of 2,000 terms uses one core for a few minutes
while the event loop keeps the other, and one server's batches take turns with another's.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import threading
import time
from collections import Counter, OrderedDict
from collections.abc import AsyncIterator, Callable, Iterable, Mapping, Sequence
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, TypeGuard

from pydantic import ValidationError

from bot.glossary import Glossary
from bot.glossary.lookalikes import entry_lookalikes
from bot.glossary.server_terms import ServerTerm, entry_taking_id
from bot.mismatches import Found, NameReadings, find_mismatches, shared_name
from bot.once import OncePerReason
from bot.search.index import SearchIndex
from bot.search.local import LocalGlossary, compile_local, with_vectors
from bot.search.semantic import default_cache_dir
from bot.search.semantic.term_vectors import EMBED_BATCH, TermVectors
from bot.search.server_aliases import ServerAliases
from bot.sizes import said_size
from bot.storage import DM_SCOPE, StorageError
from bot.term_storage import parse_readable, rename_taken

if TYPE_CHECKING:
    from bot.storage import Store, StoredTerm

log = logging.getLogger(__name__)

CHECK_INTERVAL = 1.0  # seconds between two reads of the versions: changes show within 2 s
# Seconds an answer that can wait (a deferred /define, a mention) waits for a server's first
# indexing once its rows are read: at the caps it takes about a second, more on a loaded
# machine, and an answer given meanwhile would lack the server's own terms.
INDEX_WAIT = 10.0
READ_DEADLINE = 5  # times the read timeout: a request's read not answered by then has failed
# Servers with terms of their own whose compiled glossary is kept: each holds an index of the
# bundled glossary with its terms in (1.3 MB, 2.2 MB with the meaning stage), and a bot kept one
# for every server ever asked (3.2 GB after 2,400 servers). The least recently asked beyond
# this is dropped, and read and indexed again when next asked (a tenth of a second off the loop).
MAX_INDEXED = 200
# And at most this many MiB of them, by an estimate of each (`weight`): a server at its caps
# holds about 23 MiB (scale50 S2), so 200 of them held 4.6 GB. The setting SERVER_CACHE_MB.
SERVER_CACHE_MB = 1024
# The estimate, in bytes, of a server with terms: what any holds (the bundled index with its
# terms in), per term, per name (title, acronym, other names: each is indexed several ways,
# its key, typo trigrams, look-alikes) and per character of one, per keyword, per
# character of its stored terms, per vector row of its meaning stage (384 floats, counted when
# read, before they are embedded). Fitted on bench/weight_bench.py (RSS of servers kept and
# asked, 11 shapes; least squares on estimate/measured, rounded): 0.9-1.1x of measured on
# every shape of that run, 2 not fitted on included, and 0.75-1.22x in two runs more (RSS
# moves from run to run, by some 15% at the caps). 15.9 MiB at the caps' 2,000 terms of 900
# characters and 1,000 aliases, 23.5 with vectors; 150 MiB a server whose 2 MiB are short
# names. A count of characters alone was 0.16-1.6x (under on names, many terms, vectors).
BASE_WEIGHT = 1_800_000
TERM_WEIGHT = 2_200
NAME_WEIGHT = 700
NAME_WEIGHT_PER_CHARACTER = 19
KEYWORD_WEIGHT = 230
WEIGHT_PER_CHARACTER = 1.8
VECTOR_ROW_WEIGHT = 2_000
# A server's aliases, with terms or without (one without shares the bundled index but holds
# its compiled aliases): per alias and per character of it (review56, in-process RSS of 20
# servers of 1,000 aliases each: 0.96 MiB of 100-character ones, 0.56 MiB of 12-character).
ALIAS_WEIGHT = 480
ALIAS_WEIGHT_PER_CHARACTER = 5
# And the look-alike index of them that a new name is checked against (`/alias add`, a
# suggestion, a missed search made an alias), built then and kept with them (left58): per
# alias and per character of it (left59, in-process RSS of 20 indexes of 1,000 aliases each:
# 329 bytes an alias of 12 characters, 476 of 100; half as much again as the aliases at the cap).
LOOKALIKE_WEIGHT = 300
LOOKALIKE_WEIGHT_PER_CHARACTER = 2
# Seconds a server not asked for keeps what it holds compiled (aliases, terms, their index and
# vectors: a bot in thousands of servers keeps those in use); one compiled against a glossary no
# longer served (a reload) is dropped sooner, as it keeps the old glossary's index alive. Its
# next request reads it again, as a first read.
IDLE_AFTER = 15 * 60.0
STALE_IDLE_AFTER = 60.0
# (the database's generation, alias version, term version): any server's change moves one
Versions = tuple[int, int, int]
# (the database's generation, the server's own version): a backup put in place under the bot
# (`Store.generation`) has older versions, or none (from before migration 9), and what was read
# from the file it replaced must not pass for newer than what is there now.
ServerVersion = tuple[int, int]
Bundled = tuple[Glossary, SearchIndex]


# Per server kept: whether each missed search is answered now (`MissAnswers`), for the alias
# box's suggestions; a server's misses are read 50 at a time, as typed.
MISS_ANSWERS_KEPT = 500


class MissAnswers:
    """Whether each missed search is answered by one server's glossary as it is now
    (`miss_answered`: a search each), kept for the alias box's next keystrokes: at most
    MISS_ANSWERS_KEPT, the least recently asked let go. Held with the server's compiled
    glossary (`ServerCache.miss_answers`), so any change of it (an alias or term written, by
    this bot or another, a reload, its terms embedded) starts again empty."""

    def __init__(self, kept: int = MISS_ANSWERS_KEPT) -> None:
        self._kept = kept
        self._answers: OrderedDict[str, bool] = OrderedDict()
        self._lock = threading.Lock()  # asked in a thread (the box's searches)

    def __len__(self) -> int:
        return len(self._answers)

    def get(self, query: str) -> bool | None:
        with self._lock:
            answered = self._answers.get(query)
            if answered is not None:
                self._answers.move_to_end(query)
            return answered

    def put(self, query: str, answered: bool) -> None:
        with self._lock:
            self._answers[query] = answered
            self._answers.move_to_end(query)
            while len(self._answers) > self._kept:
                self._answers.popitem(last=False)


@dataclass
class _Cached:
    version: ServerVersion  # the server's own version these were read at (or newer)
    local: LocalGlossary
    used: float  # when it was last asked for (`ServerCache.clock`)
    read_weight: int = 0  # bytes it holds as read, estimated (`weight`); 0: nothing of its own
    lookalikes_weight: int = 0  # its aliases' look-alike index's (`lookalike_weight`), once built
    # how search read its names at the last check of them (`find_mismatches`), for the next
    readings: NameReadings = field(default_factory=NameReadings)
    # the alias box's answers, for `local` as it is (emptied when it is swapped)
    answers: MissAnswers = field(default_factory=MissAnswers)

    @property
    def weight(self) -> int:
        """The bytes it holds, estimated: what was read, and the look-alike index of its aliases
        once a new name was checked against them (built then, kept with them)."""
        built = self.local.aliases.lookalikes_built
        return self.read_weight + (self.lookalikes_weight if built else 0)


@dataclass(frozen=True, slots=True)
class Mismatches:
    """What a server's data has at odds with the glossary: the entry ids its aliases name that
    the glossary lacks, the ids of its terms that a glossary entry of another concept has, and
    its aliases that a glossary title of another entry now is, and its terms that a glossary
    entry's name made that entry's wording although written as terms of their own, and its
    terms named in the other number of another name or read by search as one, stored before
    such names were refused."""

    orphaned: frozenset[str] = frozenset()
    taken: frozenset[str] = frozenset()
    titled: frozenset[str] = frozenset()
    worded: frozenset[str] = frozenset()
    numbered: frozenset[str] = frozenset()


class ServerCache:
    def __init__(
        self,
        store: Callable[[], Store | None],
        bundled: Callable[[], Bundled],
        *,
        read_timeout: float,
        check_interval: float = CHECK_INTERVAL,
        clock: Callable[[], float] = time.monotonic,
        max_mb: int = SERVER_CACHE_MB,
    ) -> None:
        self._store = store  # read each time: the store opens after the bot logs in
        self._bundled = bundled  # likewise: a glossary reload brings a new index
        self.read_timeout = read_timeout
        self.stale_wait = read_timeout / 4
        self.check_interval = check_interval
        self.clock = clock  # for `drop_idle` (tests turn it on)
        self._versions: Versions = (0, 0, 0)  # the newest seen
        self._servers: dict[int, _Cached] = {}
        # The newest version seen of each server cached or being read: one cached at an older
        # one is stale. Kept for those only (a check reads theirs).
        self._seen: dict[int, ServerVersion] = {}
        self._reading: Counter[int] = Counter()  # reads under way (`_load`), per server
        # Held servers another process changed, to read before their next ask (`_read_ahead`),
        # one at a time: the read under way, and those waiting their turn.
        self._ahead: asyncio.Future[_Cached] | None = None
        self._ahead_queued: OrderedDict[int, None] = OrderedDict()
        self.max_indexed = MAX_INDEXED
        self.max_weight = max_mb * 2**20
        self._over_said = False  # a server past SERVER_CACHE_MB on its own was logged (once)
        self._indexed: OrderedDict[int, None] = OrderedDict()  # least recently asked first
        # Each server's read under way, and the glossary's index it compiles against.
        self._loading: dict[int, tuple[SearchIndex, asyncio.Future[_Cached]]] = {}
        self._indexing: Counter[int] = Counter()  # loads that have read their rows, compiling
        # Per server changing now: its lock, and how many changes hold it or wait for it.
        self._changes: dict[int, tuple[asyncio.Lock, int]] = {}
        self._embedder = ThreadPoolExecutor(max_workers=1, thread_name_prefix="embed-terms")
        self._embedding: dict[int, asyncio.Task[None]] = {}
        self._term_vectors: TermVectors | None = None
        # A request's read that the database has not answered by then failed (a read that
        # waits past `read_timeout` and then answers was slow, not failing: said nowhere).
        self.read_deadline = READ_DEADLINE * read_timeout
        self._unread = OncePerReason()  # a streak of reads failed, whatever the server
        self._unindexed: set[int] = set()  # servers whose rows were read and failed to index
        # Per server, the ids of what was last told at odds with the glossary (see
        # `_tell_mismatches`): ids, not the glossary, which a server left idle would keep alive.
        self._mismatches_told: dict[int, Mismatches] = {}
        # Servers the bot was removed from (`left`) until it is in them again (`joined`): a read
        # under way then, or an import's `reload` after its write, is answered but not kept.
        self._gone: set[int] = set()
        # Times the database's counters were seen to go back (`check`): added to the store's
        # generation, so what was read before is never taken for current.
        self._rewinds = 0
        # The counters went back while the triggers that move them are missing: a restore
        # under the running bot is still loading (`check`).
        self._restoring = False
        # (schema version found, this bot's) once the database was seen behind this bot (a
        # backup from before an upgrade put in place): only a restart mends it.
        self.schema_behind: tuple[int, int] | None = None

    def close(self) -> None:
        """Stop embedding (what is under way ends with its batch)."""
        for task in self._embedding.values():
            task.cancel()
        self._embedder.shutdown(wait=False, cancel_futures=True)
        if self._term_vectors is not None and self._term_vectors.unsaved:
            # What was embedded since the last write, kept for the next start: in a thread of
            # its own (a write of the whole file), which the interpreter waits for at exit.
            threading.Thread(target=self._term_vectors.save, name="save-term-vectors").start()

    def _vectors(self) -> TermVectors | None:
        """The servers' term vectors, when the bundled index has a meaning stage."""
        semantic = self._bundled()[1].semantic
        if semantic is not None and self._term_vectors is None:
            self._term_vectors = TermVectors(semantic.encoder, default_cache_dir())
        return self._term_vectors if semantic is not None else None

    def knows(self, scope: int) -> bool:
        """Are this server's aliases at hand (if perhaps stale), so asking costs no wait?"""
        if scope == DM_SCOPE or self._store() is None:
            return True
        cached = self._servers.get(scope)
        return cached is not None and not self._reindexing(cached)

    def _reindexing(self, cached: _Cached) -> bool:
        """Compiled against the glossary before a reload, with terms of its own: what it has
        must be indexed again before it can answer (its aliases alone compile quickly)."""
        return cached.local.base is not self._bundled()[1] and bool(cached.local.terms)

    def _none(self) -> LocalGlossary:
        glossary, index = self._bundled()
        return LocalGlossary(glossary, index, index.server_aliases(None), (), index)

    async def warm(self, scopes: Iterable[int]) -> None:
        """Read these servers ahead of their first ask, the most recently active first (by
        their last lookup; the others in the order given), one by one, until as many with
        terms of their own are indexed as are kept: one more would drop one just indexed. The
        rest are read when asked."""
        store = self._store()
        last: dict[int, int] = {}
        if store is not None:
            try:
                last = await store.last_lookup_hours()
            except StorageError as exc:
                log.warning("warming servers in no particular order: %s", exc)
        for scope in sorted(scopes, key=lambda scope: last.get(scope, -1), reverse=True):
            if self.indexed_servers() >= self.max_indexed or self.kept_weight() >= self.max_weight:
                return
            await self.get(scope)

    async def get(self, scope: int) -> ServerAliases:
        """This server's aliases, compiled."""
        return (await self.local(scope)).aliases

    async def local(self, scope: int, *, patient: bool = False) -> LocalGlossary:
        """What this server searches: its glossary, index and aliases. Never raises: a slow or
        failing database answers with what was last read, or the bundled glossary alone.
        `patient`: the answer can wait (deferred, or a reply with no deadline), so a first read
        that has its rows waits for their indexing (INDEX_WAIT) rather than answer without."""
        store = self._store()
        if store is None or scope == DM_SCOPE:
            return self._none()
        cached = self._servers.get(scope)
        base = self._bundled()[1]
        if cached is not None:
            cached.used = self.clock()
            if scope in self._indexed:  # the most recently asked, whether fresh or read again
                self._indexed.move_to_end(scope)
        if self._fresh(cached, scope):
            return cached.local
        under_way = self._loading.get(scope)
        if under_way is not None and under_way[0] is base:
            loading = under_way[1]
        else:
            # One read per server at a time, kept even if this request stops waiting for it;
            # one begun before a glossary reload would answer with the glossary before.
            loading = self._start_load(store, scope, base)
        first = cached is None or self._reindexing(cached)
        wait = self.read_timeout if first else self.stale_wait
        try:
            return (await asyncio.wait_for(asyncio.shield(loading), wait)).local
        except Exception:
            # A server's terms after a reload are as unknown as at its first read.
            if first and scope in self._indexing:
                if patient:
                    with contextlib.suppress(Exception):
                        return (await asyncio.wait_for(asyncio.shield(loading), INDEX_WAIT)).local
                if not loading.done():
                    # Read, and not yet indexed: nothing for the operator to mend.
                    log.debug("server %s is still being indexed; answering without it", scope)
                    return self._none()
            if cached is None:
                # Not read in time: said where the read itself fails (`_load`), not here, where
                # a healthy database answering a busy bot late looks the same.
                return self._none()
            if cached.local.base is base:
                return cached.local  # what was last read, meanwhile
            if not cached.local.terms:  # the glossary was reloaded: aliases compile quickly
                glossary = self._bundled()[0]
                return compile_local(glossary, base, (), cached.local.aliases.source)
            return self._none()  # indexing the server's terms here would stall every server

    def _start_load(self, store: Store, scope: int, base: SearchIndex) -> asyncio.Future[_Cached]:
        # Shared by every request of this server (a /define joins a read a moderator's change
        # began): bounded by no change's WRITE_WAIT, only by `read_deadline`.
        with store.for_everyone():
            loading = asyncio.ensure_future(self._load(store, scope, deadline=self.read_deadline))
        self._loading[scope] = mine = (base, loading)

        def done(finished: asyncio.Future[_Cached]) -> None:
            if self._loading.get(scope) is mine:
                del self._loading[scope]
            if not finished.cancelled():
                # Taken: a read every request stopped waiting for fails unawaited, and `_load`
                # has said it in one line; not asyncio's "never retrieved" with a traceback.
                finished.exception()

        loading.add_done_callback(done)
        return loading

    @contextlib.asynccontextmanager
    async def changes(self, scope: int) -> AsyncIterator[None]:
        """Held while one change of this server is checked and written: the next change is
        checked against it (two moderators at once could each add one half of a clash). The
        lock is kept while a change of the server holds it or waits, then dropped: no object
        for every server ever changed."""
        lock, users = self._changes.get(scope, (asyncio.Lock(), 0))
        self._changes[scope] = (lock, users + 1)
        try:
            async with lock:
                yield
        finally:
            lock, users = self._changes[scope]
            if users == 1:
                del self._changes[scope]
            else:
                self._changes[scope] = (lock, users - 1)

    async def current(self, scope: int) -> LocalGlossary:
        """This server's glossary as the database has it now, for checking a change against
        (its version is read first: an alias removed elsewhere a moment ago is free, not
        "already this server's alias"). A read, if one is needed, waits as long as the
        database takes, like the write that follows; StorageError if the database fails."""
        store = self._store()
        if store is None or scope == DM_SCOPE:
            return self._none()
        generation = self._generation(store)  # before the read: a take-up meanwhile reads it again
        self._saw(scope, (generation, await store.server_version(scope)))
        cached = self._servers.get(scope)
        # A server that failed to index is cached as a stand-in (`_load`): not what it has now.
        if self._fresh(cached, scope) and scope not in self._unindexed:
            return cached.local
        return (await self._load(store, scope)).local

    def _generation(self, store: Store) -> int:
        return store.generation + self._rewinds

    def _fresh(self, cached: _Cached | None, scope: int) -> TypeGuard[_Cached]:
        """Read at the server's newest version seen, and compiled against the index serving
        now."""
        store = self._store()
        return (
            cached is not None
            and cached.version >= self._seen.get(scope, (0, 0))
            and cached.version[0] == (self._generation(store) if store is not None else 0)
            and cached.local.base is self._bundled()[1]
        )

    def _saw(self, scope: int, version: ServerVersion) -> None:
        if scope in self._servers or scope in self._reading:
            self._seen[scope] = max(self._seen.get(scope, (0, 0)), version)

    def left(self, scope: int) -> None:
        """The bot was removed from this server: let go of what it holds (its embedding stops at
        its batch), and keep nothing read of it from now on (a read or an import under way
        would keep it, and embed its terms, for a server the bot is no longer in)."""
        self._gone.add(scope)
        self.forget(scope)

    def joined(self, scope: int) -> None:
        """The bot is in this server (again): what is read of it is kept."""
        self._gone.discard(scope)

    def forget(self, scope: int) -> None:
        """Drop what is known of this server's aliases: the next request reads them afresh."""
        self._servers.pop(scope, None)
        self._indexed.pop(scope, None)
        if scope not in self._reading:  # a read under way must still learn it is stale
            self._seen.pop(scope, None)

    def _keep(self, scope: int, cached: _Cached) -> None:
        """Cache what was read of this server, dropping the least recently asked servers past
        `max_weight` (any with aliases or terms of its own) or, of those with an index of their
        own, past `max_indexed`; never this one (a request waits for it). A request answering
        from one dropped keeps it until it has answered."""
        if scope in self._gone:
            return
        self._servers[scope] = cached
        if not cached.weight:  # nothing of its own: costs next to nothing
            self._indexed.pop(scope, None)
            return
        if scope not in self._indexed:  # new here: asked now; one known keeps its place
            self._indexed[scope] = None  # (an ask moved it: a read ahead is no ask)
        if cached.weight > self.max_weight and not self._over_said:
            # Kept while asked, let go at the next server's read: read and indexed again at each
            # turn, silently (the setting's, not the server's: said once).
            self._over_said = True
            log.warning(
                "server %s's terms are estimated at %s, more than SERVER_CACHE_MB=%d on "
                "their own: such a server is kept only until another is read, then read and "
                "indexed again when next asked; raise SERVER_CACHE_MB to keep it",
                scope,
                said_size(cached.weight),
                self.max_weight // 2**20,
            )
        while len(self._indexed) > 1:
            # The least recently asked, never this one (perhaps asked less lately than others,
            # read ahead or for a change: what it read is the newest).
            least: int | None = None
            if self.kept_weight() > self.max_weight:
                least = next(s for s in self._indexed if s != scope)
            elif self.indexed_servers() > self.max_indexed:  # of those with an index of their own
                others = (s for s in self._indexed if s != scope and self._servers[s].local.terms)
                least = next(others, None)
            if least is None:
                break
            self.forget(least)

    def miss_answers(self, scope: int, local: LocalGlossary) -> MissAnswers:
        """The alias box's answers for this server's glossary `local` (as `local` returned):
        kept with it while it is the one cached, a new empty one else (a glossary the cache no
        longer holds keeps nothing)."""
        cached = self._servers.get(scope)
        if cached is None or cached.local is not local:
            return MissAnswers()
        return cached.answers

    def indexed_servers(self) -> int:
        """How many servers' compiled glossaries with an index of their own are kept."""
        return sum(1 for cached in self._servers.values() if cached.local.terms)

    def kept_weight(self) -> int:
        """The bytes the kept servers with aliases or terms of their own hold, estimated."""
        return sum(self._servers[scope].weight for scope in self._indexed)

    async def reload(self, scope: int) -> None:
        """Read this server's aliases and terms again now (after this bot changed them), waiting
        for the read: the next change of this server is checked against what it finds (the
        read begins with the server's version: no other server is read again for this)."""
        store = self._store()
        if store is None:
            return
        try:
            # A read of its own: one already under way may have begun before the change.
            await self._load(store, scope)
        except Exception:
            log.debug("could not read the aliases and terms of %s again", scope, exc_info=True)
            self.forget(scope)

    def drop_idle(self) -> None:
        """Drop what each server not asked for in IDLE_AFTER holds (STALE_IDLE_AFTER if it was
        compiled against a glossary no longer served), unless it is being read."""
        now, serving = self.clock(), self._bundled()[1]
        for scope, cached in list(self._servers.items()):
            idle_after = IDLE_AFTER if cached.local.base is serving else STALE_IDLE_AFTER
            busy = scope in self._loading or scope in self._indexing
            if now - cached.used > idle_after and not busy:
                self.forget(scope)  # its embedding, if under way, stops at its batch
        for scope in [s for s, task in self._embedding.items() if task.done()]:
            del self._embedding[scope]

    async def watch(self) -> None:
        """Read the versions once per interval, and drop what idle servers hold, for as long as
        the bot runs."""
        while True:
            await asyncio.sleep(self.check_interval)
            self.drop_idle()
            try:
                await self.check()
            except Exception:
                log.debug("could not read the versions", exc_info=True)
                # A backup from before an upgrade restored with counters that did not go back
                # (taken moments before) fails its reads here without a rewind: said too.
                if (store := self._store()) is not None:
                    await self.gone_back(store)

    async def check(self) -> None:
        """One check: the two counters, and when one moved, the versions of the servers cached
        or being read (a server's read that began before a change and ends after it is then
        stale, not kept as current). Only a server whose own version moved is read again."""
        store = self._store()
        if store is None:
            return
        versions = await asyncio.wait_for(_read_versions(store), self.read_timeout)
        if self.schema_behind is not None:
            # Seen behind, and the database answers: read it again, for a current dump put
            # back without a restart mends it, and an outage later must not be said as that.
            await self.gone_back(store)
        if self._restoring and await asyncio.wait_for(store.changes_tracked(), self.read_timeout):
            # The restore has made its triggers: it has loaded every row. What was read while
            # it loaded them (a server's versions before its terms) is stale, and no change
            # would say so: every server is read again at its next request.
            self._restoring = False
            self._rewinds += 1
            log.info("the restore under the running bot has ended: servers are read again")
        if versions == self._versions:
            return
        before = self._versions
        if versions[0] == before[0] and (versions[1] < before[1] or versions[2] < before[2]):
            # The counters only grow: a dump restored under the running bot (pg_restore) took
            # them back, and each server's version with them. Every server is stale.
            self._rewinds += 1
            if await self.gone_back(store) is None:
                log.warning(
                    "the database's versions went back (a backup restored under the running "
                    "bot?): every server's aliases and terms are read again at its next request"
                )
                # Still loading (pg_restore makes the triggers after every table's rows): a
                # server read meanwhile may lack rows yet to come, which no version will move.
                with contextlib.suppress(StorageError, TimeoutError):
                    tracked = store.changes_tracked()
                    self._restoring = not await asyncio.wait_for(tracked, self.read_timeout)
            # Taken in now: every server is stale by the generation already, and a check that
            # fails reading their versions (a backup from before migration 9 has none) must not
            # count the same going back again, a warning a second.
            self._versions = versions
        generation = versions[0] + self._rewinds
        scopes = sorted(set(self._servers) | set(self._reading))
        if scopes:
            seen = await asyncio.wait_for(store.server_versions(scopes), self.read_timeout)
            for scope, version in seen.items():
                self._saw(scope, (generation, version))
                self._read_ahead(store, scope, (generation, version))
        # Taken in once the servers' versions are: a check that failed reads them again.
        self._versions = versions

    def _read_ahead(self, store: Store, scope: int, version: ServerVersion) -> None:
        """Begin reading a held server that another process changed, rather than at its next
        ask: that ask waits `stale_wait` at most, less than indexing takes on a loaded machine,
        and would be answered from before the change (a term just imported: "No entry").
        Only for its own change: after a restore (every server stale) each is read when asked;
        nor while it is read (this bot's own change reads it again: `reload`). One server at a
        time (`_next_ahead`): an import naming 200 held servers began 200 reads at once, their
        rows in memory together and their compiles filling the default executor."""
        cached = self._servers.get(scope)
        if cached is None or cached.version[0] != version[0] or cached.version[1] >= version[1]:
            return
        self._ahead_queued[scope] = None
        self._next_ahead(store)

    def _next_ahead(self, store: Store) -> None:
        """Begin the next read ahead, if none is under way: of the first server queued that is
        still held and stale and not being read (one asked meanwhile was read at its ask)."""
        while self._ahead is None and self._ahead_queued:
            scope, _ = self._ahead_queued.popitem(last=False)
            cached = self._servers.get(scope)
            if cached is None or self._fresh(cached, scope):
                continue
            if scope in self._reading or scope in self._loading:
                continue
            self._ahead = loading = self._start_load(store, scope, self._bundled()[1])

            def done(_: asyncio.Future[_Cached]) -> None:
                self._ahead = None
                if (now := self._store()) is not None:
                    self._next_ahead(now)

            loading.add_done_callback(done)

    async def gone_back(self, store: Store) -> tuple[int, int] | None:
        """(the schema version found, this bot's) if the database went back to an older schema
        under the running bot, said once in the one line that says what to do; None if not, or
        if that cannot be read now. Asked where reads or writes fail: a few a second at most."""
        try:
            behind = await asyncio.wait_for(store.schema_behind(), self.read_timeout)
        except Exception:  # asked where something failed already: never a second fault
            log.debug("could not read the schema's version", exc_info=True)
            return self.schema_behind  # as last seen: the database down says nothing of it
        if behind is not None and self.schema_behind is None:
            # A backup from before an upgrade (SQLite's `.restore` in place, a dump loaded
            # under the bot): what later migrations made is gone, and every read of it fails
            # until a start migrates it again.
            log.error(
                "the database %s went back to schema version %d under the running bot (a "
                "backup from before an upgrade restored?); this bot needs %d: restart the "
                "bot, whose start upgrades it (or says why it cannot). Until then servers' "
                "aliases and terms cannot be read nor changed; /define answers with what "
                "was last read, or the bundled glossary",
                store.location,
                *behind,
            )
        self.schema_behind = behind
        return behind

    async def _load(self, store: Store, scope: int, *, deadline: float | None = None) -> _Cached:
        """Read and index this server's aliases and terms. `deadline`: a request's read, whose
        failure (or no answer by then) is said once a streak, whatever the server."""
        self._reading[scope] += 1
        try:
            return await self._read_and_index(store, scope, deadline)
        finally:
            self._reading[scope] -= 1
            if not self._reading[scope]:
                del self._reading[scope]
                if scope not in self._servers:
                    self._seen.pop(scope, None)

    async def _read_and_index(self, store: Store, scope: int, deadline: float | None) -> _Cached:
        glossary, index = self._bundled()
        try:
            async with asyncio.timeout(deadline):
                version, aliases, stored = await self._read(store, scope, glossary)
        except Exception as exc:
            if self._store() is not store:
                # A stop took the store away and closed it under this read (a bot stopped as
                # it connects): no fault of the database's (SQLite or PostgreSQL alike).
                log.debug("reading the aliases and terms of server %s ended at the stop", scope)
            elif deadline is not None and self._unread.starts():
                log.warning(
                    "could not read the aliases and terms of server %s (%s; nor, perhaps, of "
                    "others): answering without them until the database answers",
                    scope,
                    f"no answer in {deadline:g} s" if isinstance(exc, TimeoutError) else exc,
                )
            raise
        if self._unread.ended():
            log.info("read the aliases and terms of server %s again: the database answers", scope)
        cached = self._servers.get(scope)
        previous = cached.local if cached is not None else None
        readings = cached.readings if cached is not None else NameReadings()

        vectors = self._vectors()

        def compile_it() -> tuple[LocalGlossary, tuple[int, int], Found | None]:
            terms, unreadable = parse_readable((scope, row) for row in stored)
            if unreadable:
                raise UnreadableTerms(unreadable)
            local = compile_local(glossary, index, terms, aliases, previous, vectors)
            # The look-alike index `/suggest` and `/alias add` check a new name against: built
            # here with the rest (0.67 s on the loop for a server whose 2 MiB are names;
            # bench/lookalike_bench.py); kept for this index, found at once when unchanged.
            entry_lookalikes(local.index, local.index.entries)
            # What is at odds with the glossary: here too (on the loop before scale50), and
            # only when something it reads changed (a read again after a backup put in place or
            # the counters going back may find the same rows). Not 0.14 s at the caps: for the
            # most names they allow (2,000 terms, 2 MiB of 4-letter names: 332,000) 2.7 s with
            # names read as written, 6.6 s reading each as search does (1.2 / 3.1 s at 162,000);
            # with the readings kept from the last check, an edit costs about the first
            # (bench/readings_bench.py, a loaded machine).
            unchanged = (
                previous is not None
                and previous.base is index
                and previous.terms == local.terms
                and previous.aliases.source == local.aliases.source
            )
            # Its estimate too: 2-10 ms for the heaviest server (160,000 names), not on the loop.
            held = weight(local, aliases, stored), lookalike_weight(local.aliases.source)
            return local, held, None if unchanged else find_mismatches(local, glossary, readings)

        # Reading the terms, compiling every alias and indexing the server's glossary: off the
        # event loop, so other servers keep being answered meanwhile. The database has
        # answered: what is left is work that will end (`local(patient=True)` waits for it).
        self._indexing[scope] += 1
        try:
            local, held, found = await asyncio.to_thread(compile_it)
        except Exception as exc:
            if scope not in self._unindexed:  # once a streak
                self._unindexed.add(scope)
                # A term that does not parse is named in the line; anything else, a traceback.
                unreadable = isinstance(exc, UnreadableTerms)
                log.warning(
                    "could not index the aliases and terms of server %s (read from the "
                    "database)%s: answering with what was last indexed, or the bundled glossary "
                    "alone, until they change",
                    scope,
                    f": {exc}" if unreadable else "",
                    exc_info=not unreadable,
                )
            # Until they change (or the glossary is reloaded), what was last indexed answers:
            # not an indexing of every request's that fails the same way.
            kept = previous if previous is not None and previous.base is index else self._none()
            # The stand-in's, not the rows'.
            stand_in = weight(kept, kept.aliases.source, stored)
            index_held = lookalike_weight(kept.aliases.source)
            self._keep(scope, _Cached(version, kept, self.clock(), stand_in, index_held, readings))
            raise IndexingFailed(scope) from exc
        finally:
            self._indexing[scope] -= 1
            if not self._indexing[scope]:
                del self._indexing[scope]
        if scope in self._unindexed:
            self._unindexed.discard(scope)
            log.info("indexed the aliases and terms of server %s again", scope)
        # Read again, it was last asked when it was (an ask sets that before its read): a read
        # ahead is no use, or a server a script changes every few minutes is never idle.
        used = cached.used if cached is not None else self.clock()
        fresh = _Cached(version, local, used, *held, readings)
        now, serving = self._servers.get(scope), self._bundled()[1]
        if index is not serving and now is not None and now.local.base is serving:
            # Begun before a glossary reload, ended after a read that began after it: that
            # read's is newer (caching this would make the server stale, to index again).
            return fresh
        self._keep(scope, fresh)
        if found is not None:
            self._tell_mismatches(scope, found)
        if not local.complete:
            self._embed_soon(scope)
        return fresh

    async def _read(
        self, store: Store, scope: int, glossary: Glossary
    ) -> tuple[ServerVersion, dict[str, str], list[StoredTerm]]:
        """The server's version, then its rows: rows as new as the version or newer (a change
        between the two reads is read again at the next check, never missed)."""
        version = (self._generation(store), await store.server_version(scope))
        aliases, stored = await store.aliases(scope), await store.terms(scope)
        if await self._rename_taken(store, scope, stored, glossary):
            version = (self._generation(store), await store.server_version(scope))
            aliases, stored = await store.aliases(scope), await store.terms(scope)
        return version, aliases, stored

    async def _rename_taken(
        self, store: Store, scope: int, stored: list[StoredTerm], glossary: Glossary
    ) -> bool:
        """Give each of the server's terms whose id a bundled entry of another concept now has
        a new id (one write each, with its aliases, related ids and lookups), so that the id
        opens the maintainers' entry again; whether any was renamed. A write that fails leaves
        the clash, which `_tell_mismatches` tells the operator."""
        renamed = False
        for term_id in _taken_ids(stored, glossary):
            try:
                term = await rename_taken(store, scope, term_id, glossary)
            except StorageError:  # told by `_tell_mismatches`, if the server indexes
                log.debug("could not rename server %s's term %r", scope, term_id, exc_info=True)
                return renamed
            renamed = True  # or renamed by another process meanwhile: read it again
            if term is not None:
                log.warning(
                    "server %s's term “%s” had the id %r, which the glossary's “%s” now has: "
                    "renamed %r, with its aliases, related ids and lookups",
                    scope,
                    term.title,
                    term_id,
                    glossary[term_id].title,
                    term.id,
                )
        return renamed

    def _tell_mismatches(self, scope: int, found: Found) -> None:
        """Once per server and mismatch, what a change of the glossary's data left at odds with
        this server's: aliases of entries it no longer has (removed or renamed), which open
        nothing now, and terms whose id an entry of another concept now has and that could not
        be renamed (`_rename_taken`), which that id then opens in this server (buttons, lookup
        counts) instead of the entry; aliases that an entry's title now is, which open that
        entry; and terms of their own that an entry's new name made its wording, one card for
        two concepts; and terms stored before a name in the other number of another name was
        refused, whose next edit is refused until renamed (`bot.mismatches`, which `check --db`
        reports too). Only the server's moderators can change theirs; the operator who changed
        the data should know."""
        gone, titled, taken, worded, numbered = (
            frozenset(found.gone.values()),
            found.titled,
            found.taken,
            found.worded,
            found.numbered,
        )
        told = Mismatches(
            gone,
            frozenset(t.id for t in taken),
            frozenset(titled),
            frozenset(t.id for t in worded),
            frozenset(t.id for t in numbered),
        )
        if self._mismatches_told.get(scope, Mismatches()) == told:
            return
        if told == Mismatches():
            del self._mismatches_told[scope]
            return
        self._mismatches_told[scope] = told
        if gone:
            log.warning(
                "server %s has %s alias%s of entries no longer in the glossary (%s): they open "
                "nothing until its moderators remove them (/alias list marks them)",
                scope,
                f"{len(gone):,}",
                "" if len(gone) == 1 else "es",
                ", ".join(sorted(gone)[:5]),
            )
        if titled:
            log.warning(
                "server %s has %s alias%s that glossary titles now take (%s): each opens that "
                "entry now, until its moderators remove it (/alias list marks them)",
                scope,
                f"{len(titled):,}",
                "" if len(titled) == 1 else "es",
                ", ".join(
                    f"“{alias}” opens “{taker.title}”, not “{own}”"
                    for alias, (taker, own) in sorted(titled.items())[:5]
                ),
            )
        for term, entry in worded.items():
            log.warning(
                "server %s's term “%s” (id %r) is shown as the glossary's “%s”, whose name “%s” "
                "it has: in that server the entry's card leads with the term's text, and the "
                "entry's aliases and lookups are the term's; if they are different concepts, "
                "rename the term or give the entry other names",
                scope,
                term.title,
                term.id,
                entry.title,
                shared_name(term, entry),
            )
        if numbered:
            one = len(numbered) == 1
            log.warning(
                "server %s has %s term%s stored before such names were refused, which search "
                "reads as another name (in its other number, or leaving out what is around it) "
                "(%s): %s shown as stored, but /term "
                "edit refuses to save %s until %s renamed (check --db lists them)",
                scope,
                f"{len(numbered):,}",
                "" if one else "s",
                "; ".join(
                    f"“{term.title}” as {read_as.said()}"
                    for term, read_as in sorted(numbered.items(), key=lambda i: i[0].id)[:5]
                ),
                "it is" if one else "they are",
                "it" if one else "them",
                "it is" if one else "they are",
            )
        for term, entry in taken.items():
            log.warning(
                "server %s's term “%s” has the id %r, which the glossary's “%s” now has, "
                "and could not be renamed (the database refused the write): in that server the "
                "id opens the term (related buttons, lookup counts), not the entry; give the "
                "entry another id",
                scope,
                term.title,
                term.id,
                entry.title,
            )

    def _embed_soon(self, scope: int) -> asyncio.Task[None]:
        task = self._embedding.get(scope)
        if task is None or task.done():
            self._embedding[scope] = task = asyncio.ensure_future(self._embed(scope))
        return task

    async def embedded(self, scope: int) -> LocalGlossary:
        """This server's glossary once every one of its terms is in its meaning stage (or
        embedding failed): for tests and the bench, which wait on it rather than sleep."""
        while True:
            local = await self.local(scope)
            if local.complete:
                task = self._embedding.get(scope)
                if task is not None and not task.done():
                    await asyncio.shield(task)  # its last write of the cache file
                return local
            task = self._embed_soon(scope)
            await asyncio.shield(task)
            if self._servers.get(scope) is None or not self._fresh(self._servers[scope], scope):
                continue  # changed meanwhile: read it again
            if not self._servers[scope].local.complete:
                return self._servers[scope].local  # embedding failed: found by words only

    async def _embed(self, scope: int) -> None:
        """Embed this server's terms that have no vector yet, a batch at a time, swapping its
        meaning stage in after each. It follows the server's newest glossary: a term edited
        meanwhile is embedded as it reads now, its old text's vector serving nobody."""
        loop = asyncio.get_running_loop()
        vectors = self._vectors()
        started, total = time.monotonic(), 0
        while vectors is not None:
            cached = self._servers.get(scope)
            if cached is None or cached.local.complete:
                break
            local = cached.local
            if not total:
                log.info("embedding the terms of server %s", scope)
            # The keys of the servers held (references: the set is made in the thread, and
            # only past the cache's limit), whose vectors the cache lets go of last.
            in_use = [c.local.row_keys for c in self._servers.values()]
            try:
                updated, embedded = await loop.run_in_executor(
                    self._embedder, _embed_batch, local, vectors, in_use
                )
            except Exception:
                log.warning(
                    "could not embed the terms of server %s: found by names and words only",
                    scope,
                    exc_info=True,
                )
                return
            total += embedded
            current = self._servers.get(scope)
            if current is not None and current.local is local:
                current.local = updated
                if updated is not local:  # its meaning stage may answer a miss now
                    current.answers = MissAnswers()
            if not embedded and updated is local:
                break  # nothing to do here (the cache could not keep them): no busy loop
        if vectors is not None and total:
            # What the last batches embedded, into the cache file (they save at most every
            # SAVE_EVERY seconds): a restart embeds none of it again.
            with contextlib.suppress(Exception):
                await loop.run_in_executor(self._embedder, vectors.save)
        if total:
            seconds = time.monotonic() - started
            log.info(
                "embedded %s texts of server %s's terms in %.1f s", f"{total:,}", scope, seconds
            )


def weight(local: LocalGlossary, aliases: dict[str, str], stored: list[StoredTerm]) -> int:
    """The bytes a server's compiled glossary holds, estimated from what it was read from (a
    sum of counts and lengths, not a measurement of the objects): its aliases', and with terms
    of its own, its index's and its meaning stage's; 0 with neither (it shares the bundled
    index)."""
    held = sum(
        ALIAS_WEIGHT + ALIAS_WEIGHT_PER_CHARACTER * (len(key) + len(entry_id))
        for key, entry_id in aliases.items()
    )
    if not local.terms:
        return held
    characters = sum(len(row.id) + len(row.body) for row in stored)
    # Per term, not per name (2 MiB of names are some 160,000).
    names = [term.names for term in local.terms]
    keywords = sum(len(term.keywords) for term in local.terms)
    # The rows it holds once its texts are embedded (`with_vectors`: one a text).
    rows = len(local.texts) if local.base.semantic is not None else 0
    return held + round(
        BASE_WEIGHT
        + TERM_WEIGHT * len(local.terms)
        + NAME_WEIGHT * sum(map(len, names))
        + NAME_WEIGHT_PER_CHARACTER * sum(sum(map(len, each)) for each in names)
        + KEYWORD_WEIGHT * keywords
        + WEIGHT_PER_CHARACTER * characters
        + VECTOR_ROW_WEIGHT * rows
    )


def lookalike_weight(aliases: Mapping[str, str]) -> int:
    """The bytes the look-alike index of a server's aliases (`ServerAliases.lookalikes`) holds
    once built, estimated as `weight` does."""
    return sum(LOOKALIKE_WEIGHT + LOOKALIKE_WEIGHT_PER_CHARACTER * len(alias) for alias in aliases)


def _embed_batch(
    local: LocalGlossary, vectors: TermVectors, in_use: Sequence[Sequence[bytes]] = ()
) -> tuple[LocalGlossary, int]:
    """In the embedding thread: the next few of the server's texts without a vector (shortest
    first: a batch pads to its longest), and the server's glossary with every known one.
    `in_use`: the keys of the servers held, which the cache lets go of last."""
    # Those its stage lacks, not those the cache lacks: the cache may have let go of texts the
    # stage holds, and embedding them again would add nothing to it.
    missing = sorted(vectors.missing(local.waiting(vectors)), key=len)
    embedded = vectors.embed(missing[:EMBED_BATCH], in_use)
    return with_vectors(local, vectors), embedded


class IndexingFailed(Exception):
    """A server's rows were read but could not be compiled for search (logged once by `_load`)."""


class UnreadableTerms(Exception):
    """Stored terms of a server that do not parse (a hand edit, a damaged copy): the server is
    not indexed until they are mended or removed, and the log names each."""

    def __init__(self, unreadable: list[tuple[int, str, str]]) -> None:
        super().__init__(
            "; ".join(
                f"its stored term {term_id!r} cannot be read ({why})"
                for _, term_id, why in unreadable
            )
        )


def _taken_ids(stored: list[StoredTerm], glossary: Glossary) -> list[str]:
    """The ids of the stored terms that a bundled entry of another concept has (only those
    whose id is an entry's are parsed; one that does not parse is left to the indexing)."""
    found = []
    for row in stored:
        if glossary.get(row.id) is None:
            continue
        with contextlib.suppress(ValidationError):
            if entry_taking_id(ServerTerm.model_validate_json(row.body), glossary) is not None:
                found.append(row.id)
    return found


async def _read_versions(store: Store) -> Versions:
    """The database's generation (read first), alias and term versions: any change, by any
    process, raises one."""
    generation = store.generation
    return (generation, await store.alias_version(), await store.term_version())
