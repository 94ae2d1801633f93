"""What the running bot knows: the glossary and its index, the store, each server's aliases.

Reads from the database sit behind short timeouts and fall back to nothing: a slow or failing
database degrades counts and aliases, never a `/define` answer.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import shlex
import time
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from bot import collector, metrics
from bot.discord_app.alias_cache import CHECK_INTERVAL, SERVER_CACHE_MB, ServerCache
from bot.discord_app.cooldowns import CommandLimit, UserLimit
from bot.discord_app.items import carried
from bot.discord_app.member_searches import MemberSearches
from bot.discord_app.term_drafts import Drafts
from bot.glossary import Glossary, GlossaryError, Problem, load_glossary_warned
from bot.glossary.server_terms import (
    BUNDLED_HOME,
    MAX_ID_LENGTH,
    MAX_TERMS,
    MAX_TEXT_BYTES,
    SERVER_SOURCE,
)
from bot.glossary.slug import SLUG_PATTERN
from bot.own_thread import on_own_thread
from bot.search.index import SearchIndex
from bot.search.semantic.vectors import entry_texts
from bot.storage import DM_SCOPE, CountsAhead

if TYPE_CHECKING:
    from bot.storage import Store

# The glossary with what is built from it, swapped in together on a reload.
Indexed = tuple[Glossary, SearchIndex]

log = logging.getLogger(__name__)

READ_TIMEOUT = 1.0  # seconds a database read may take before we answer without it
POPULAR_TTL = 60.0
# A card's "looked up N times here" is read from the database once per entry and server, then
# counted on in memory (and read again after COUNT_TTL): a read per card was the bottleneck
# under load, every card waiting on one connection.
COUNT_TTL = 300.0
MAX_COUNTS = 50_000
# A reload whose new entry texts would take this long (seconds of a free core) to embed says so
# as it begins: estimated at 0.25 ms a character, up to the 600 or so read of each (measured on
# the bundled texts, one BLAS thread, 2026-12-05).
SAY_EMBEDDING = 10.0
SECONDS_PER_CHARACTER = 0.00025
CHARACTERS_READ = 600


# Files a line of glossary warnings names, at most; `check` lists them all.
WARNED_FILES_SHOWN = 3


def load_served(paths: Sequence[Path] | None) -> Glossary:
    """The glossary to serve, at start and at each reload (raises GlossaryError as
    `load_glossary` does), its warnings counted in one WARNING line: `check` lists them, but an
    operator who never runs it reads the log."""
    glossary, warnings = load_glossary_warned(paths)
    if warnings:
        log.warning(warnings_line(warnings, paths))
    return glossary


def warnings_line(warnings: Sequence[Problem], paths: Sequence[Path] | None) -> str:
    """How many warnings the glossary has, in which files, and the `check` that lists them:
    of the paths served, all of them, since some warnings need them together (an entry with no
    kind is one only where kinds are read)."""
    files = list(dict.fromkeys(p.file for p in warnings))
    shown = ", ".join(files[:WARNED_FILES_SHOWN])
    more = len(files) - WARNED_FILES_SHOWN
    if more > 0:
        shown += f" and {more:,} more file{'s' if more > 1 else ''}"
    many = len(warnings) > 1
    return (
        f"glossary: {len(warnings):,} warning{'s' if many else ''}, in {shown}, which "
        f"{'do' if many else 'does'} not stop the bot serving it: `{check_command(paths)}` "
        f"lists {'them' if many else 'it'}"
    )


def check_command(paths: Sequence[Path] | None) -> str:
    """The `check` of the paths served, all of them (some problems need them together, such as
    a related id in another file): a plain `check` reads the bundled data alone."""
    return shlex.join(["glossary-bot", "check", *(str(p) for p in paths or ())])


@dataclass(frozen=True)
class DatabaseWait:
    """The database the bot waits for while it answers from its glossary (a PostgreSQL not up
    yet at start): its setting as said (no password), since when (Unix time), for how long."""

    setting: str
    since: float
    seconds: float


def _term_id(entry_id: str) -> bool:
    """Whether `entry_id` could be a server term's: a slug of at most `MAX_ID_LENGTH`, carried
    whole (a menu's value is whatever an interaction sends: "\x00" is no id to read for)."""
    return len(entry_id) <= MAX_ID_LENGTH and SLUG_PATTERN.fullmatch(entry_id) is not None


class BotState:
    def __init__(
        self,
        glossary: Glossary,
        store: Store | None,
        glossary_paths: Sequence[Path] | None = None,
        cooldown: tuple[int, float] = (5, 10.0),
        *,
        read_timeout: float = READ_TIMEOUT,
        alias_check_interval: float = CHECK_INTERVAL,
        term_caps: tuple[int, int] = (MAX_TERMS, MAX_TEXT_BYTES),
        server_cache_mb: int = SERVER_CACHE_MB,
    ) -> None:
        self.glossary, self.index = self._indexed(glossary)
        # Every bundled id served since the start, as buttons carry them: a button to one a
        # reload removed says "the glossary", to any other id "this server's glossary".
        self.bundled_ids = {carried(e.id) for e in self.glossary}
        # One reload at a time: two side by side (a HUP during a long one) ended in any order,
        # and the last to end was served, though it had read files changed since.
        self._reloading = asyncio.Lock()
        # Reloads asked, and how many of them the last reload started covers (it read the files
        # after they were asked) with what it said: those waiting meanwhile are answered by it.
        self._reloads_asked = 0
        self._reloads_covered = 0
        self._reload_said = ""
        self._asked_meanwhile = 0  # asked while a reload was under way, since the last said so
        # Set where what the heartbeat says may have changed (the database opened, waited for,
        # given up, lost or back; Discord connected or lost, its API failing or answering): the
        # heartbeat looks again at once (`health.keep_heartbeat`), not at its next beat.
        self.health_changed = asyncio.Event()
        self._store: Store | None = None
        self.store = store
        self.glossary_paths = glossary_paths
        self.cooldown = cooldown  # per user: this many uses per this many seconds
        self.lookups = UserLimit(*cooldown)  # shared by /define, mentions and Explain terms
        # Replies under a card that name the bot only by their ping, searched but mostly chatter:
        # a limit of their own keeps their searches bounded without using up members' lookups.
        self.replies = UserLimit(*cooldown)
        # Each moderator command's uses and refusals (`CommandLimit`), made at its first use.
        self.command_limits: dict[CommandLimit, tuple[UserLimit, UserLimit]] = {}
        self.member_searches = MemberSearches()  # mentions', replies', Explain's: off the loop
        # /define's, a worker of its own
        self.term_searches = MemberSearches(name="define-search", what="`/define` searches")
        self.read_timeout = read_timeout
        self.servers = ServerCache(
            lambda: self.store,
            lambda: (self.glossary, self.index),
            read_timeout=read_timeout,
            check_interval=alias_check_interval,
            max_mb=server_cache_mb,
        )
        self.term_caps = term_caps  # per server: terms, bytes of their text
        self.term_drafts = Drafts(  # modals open
            lambda: self.store,
            read_timeout=read_timeout,
            waiting=lambda: self.database_wait is not None,
        )
        # While the database is waited for (`await_database`): the wait, and what is counted
        # meanwhile, handed to the store when it opens.
        self.database_wait: DatabaseWait | None = None
        self.counts_ahead: CountsAhead | None = None
        self._popular: dict[int, tuple[float, list[str]]] = {}
        self._counts: dict[tuple[int, str], tuple[float, int]] = {}  # -> (read at, count)
        self._count_reads: dict[tuple[int, str], asyncio.Future[int]] = {}

    @property
    def store(self) -> Store | None:
        return self._store

    @store.setter
    def store(self, store: Store | None) -> None:
        self._store = store
        if store is not None:  # its writes failing or working again: the heartbeat says it
            store.on_writable_turned = self.health_changed.set
        self.health_changed.set()

    # -- glossary ---------------------------------------------------------------------------

    def reload(self) -> str:
        """Load the glossary again; a file that fails validation keeps the current one serving."""
        return self._swap(*self._prepare())

    async def reload_off_loop(self) -> str:
        """`reload`, with the loading and indexing in a thread so answers keep flowing: a
        daemon of its own, since a file of thousands of new entries embeds each (minutes),
        and `asyncio.run` would hold the stop until asyncio's default executor's was done.
        One asked while another is under way follows it, reading the files as they are then;
        several asked meanwhile (a HUP after each edit) are that one reload, not one each: the
        first is said at once, and the reload, as it starts, says how many it is for (a
        script's 100 HUPs logged 100 lines)."""
        self._reloads_asked += 1
        asked = self._reloads_asked
        if self._reloading.locked():
            self._asked_meanwhile += 1
            if self._asked_meanwhile == 1:  # the HUP heard at once; the rest of a burst quiet
                log.info("glossary reload asked while one is under way: it follows it")
        async with self._reloading:
            if self._reloads_covered >= asked:  # one started since read the files after this HUP
                return self._reload_said
            if self._asked_meanwhile > 1:
                log.info(
                    "glossary reload: %s asked while the last one was under way, one reload "
                    "for them all, reading the files as they are now",
                    f"{self._asked_meanwhile:,}",
                )
            self._asked_meanwhile = 0
            covered, self._reloads_covered = self._reloads_covered, self._reloads_asked
            try:
                self._reload_said = self._swap(*await on_own_thread(self._prepare))
            except BaseException:
                self._reloads_covered = covered  # it said nothing: those waiting load anew
                raise
            return self._reload_said

    @staticmethod
    def _indexed(glossary: Glossary) -> Indexed:
        """The glossary with what is built from it: its search index."""
        return glossary, SearchIndex.build(glossary)

    def _prepare(self) -> tuple[Indexed | GlossaryError, float | None]:
        """The glossary loaded and indexed (or why not), and how long its index took where the
        reload said it would embed many texts (None where it did not)."""
        try:
            glossary = load_served(self.glossary_paths)
        except GlossaryError as exc:
            return exc, None
        # Embedding thousands of new texts takes minutes, and nothing else is logged until the
        # reload ends: said at its start, so a maintainer knows the HUP was heard.
        new = new_texts(glossary, self.glossary)
        estimate = SECONDS_PER_CHARACTER * sum(min(len(t), CHARACTERS_READ) for t in new)
        if estimate < SAY_EMBEDDING:
            return self._indexed(glossary), None
        log.info(
            "reloading: embedding %s entry texts new since the last load (fewer if the "
            "embedding cache holds some), about %s of a free core; the glossary already "
            "serving answers meanwhile",
            f"{len(new):,}",
            said_duration(estimate),
        )
        started = time.monotonic()
        indexed = self._indexed(glossary)
        return indexed, time.monotonic() - started

    def _swap(self, prepared: Indexed | GlossaryError, took: float | None) -> str:
        metrics.reloaded(ok=not isinstance(prepared, GlossaryError))
        if isinstance(prepared, GlossaryError):
            log.error(
                "glossary reload refused, still serving %s entries: %s",
                f"{len(self.glossary):,}",
                prepared,
            )
            # The bot serves on (and `health` says healthy: marked unhealthy, a container's
            # watchdog would restart it into this refusal), but a restart loads these files.
            faulty = dict.fromkeys(p.file for p in prepared.problems if p.severity == "error")
            log.warning(
                "a restart would not start on these files either (it loads them as the reload "
                "did): fix %s before the bot restarts; `%s` lists the problems",
                ", ".join(faulty),
                check_command(self.glossary_paths),
            )
            return f"reload refused: {prepared}"
        self.glossary, self.index = prepared
        self.bundled_ids |= {carried(e.id) for e in self.glossary}
        collector.take_back()  # the old glossary's entries are in cycles: let them go
        if took is None:
            log.info("glossary reloaded: %s entries", f"{len(self.glossary):,}")
        else:  # the end of what "reloading: embedding …" began
            semantic = self.index.semantic
            log.info(
                "glossary reloaded: %s entries (%s texts embedded in %s)",
                f"{len(self.glossary):,}",
                f"{semantic.embedded if semantic is not None else 0:,}",
                said_duration(took),
            )
        return f"reloaded {len(self.glossary):,} entries"

    # -- the database, opened while the bot answers -------------------------------------------

    def await_database(self, wait: DatabaseWait) -> None:
        """The bot answers without its database while it waits for it: lookups and misses are
        counted in memory meanwhile."""
        self.database_wait = wait
        self.counts_ahead = CountsAhead()
        self.health_changed.set()

    def database_opened(self, store: Store) -> str:
        """The database the bot waited for answers: it serves from now on, with what was
        counted meanwhile ("3 lookups and 1 missed search", said so) to be written."""
        said = self.counts_ahead.said() if self.counts_ahead is not None else ""
        if self.counts_ahead is not None:
            store.take_counts(self.counts_ahead)
        self.database_wait, self.counts_ahead = None, None
        self.store = store  # the heartbeat told (the wait ended with it)
        self._popular.clear()  # read from no database: empty
        return said

    def database_given_up(self) -> str:
        """No longer waited for: what was counted meanwhile is dropped (its count said)."""
        said = self.counts_ahead.said() if self.counts_ahead is not None else ""
        self.database_wait, self.counts_ahead = None, None
        self.health_changed.set()
        return said

    # -- counting ---------------------------------------------------------------------------

    def record_lookup(self, scope: int, entry_id: str) -> None:
        if self.store is not None:
            self.store.record_lookup(scope, entry_id)
            known = self._counts.get((scope, entry_id))
            if known is not None:
                self._counts[scope, entry_id] = (known[0], known[1] + 1)
        elif self.counts_ahead is not None:
            self.counts_ahead.record_lookup(scope, entry_id)

    def record_miss(self, scope: int, normalized_query: str) -> None:
        # Cut to an alias's length, and still normalised (no space left dangling at the cut):
        # an alias made from the miss has the same key, and clears it.
        query = normalized_query[:100].rstrip()
        if self.store is not None and query:
            self.store.record_miss(scope, query)
        elif self.counts_ahead is not None and query:
            self.counts_ahead.record_miss(scope, query)

    async def popular(self, scope: int) -> list[str]:
        """The most looked-up entry ids here, for an empty autocomplete box (cached a minute)."""
        now = time.monotonic()
        cached = self._popular.get(scope)
        if cached and now - cached[0] < POPULAR_TTL:
            return cached[1]
        ids: list[str] = []
        if self.store is not None:
            try:
                top = await asyncio.wait_for(
                    self.store.top_terms(scope, None, 25), self.read_timeout
                )
                ids = [entry_id for entry_id, _ in top]  # unknown ids are skipped by the index
            except Exception:
                log.warning("could not read popular terms of %s", scope, exc_info=True)
        self._popular[scope] = (now, ids)
        return ids

    async def gone_from(self, scope: int, entry_id: str) -> str:
        """Where the card `entry_id` (a button's, a menu's) is gone from: "this server's
        glossary" where this server's term log holds it (`Store.ever_a_term`: it remembers
        across restarts, as this run's `bundled_ids` do not), else "the glossary". An id bundled
        in this run is the glossary's without a read; one the log cannot say of in time is
        this server's unless this run bundled it."""
        server = SERVER_SOURCE.name
        if entry_id in self.bundled_ids or scope == DM_SCOPE or not _term_id(entry_id):
            return BUNDLED_HOME
        if self.store is None:
            return BUNDLED_HOME  # no database: no server terms
        try:
            ever = await asyncio.wait_for(
                self.store.ever_a_term(scope, entry_id), self.read_timeout / 4
            )
        except Exception:
            log.warning("could not read the term log of %s", scope, exc_info=True)
            return server
        return server if ever else BUNDLED_HOME

    async def lookup_count(self, scope: int, entry_id: str) -> int | None:
        """All-time lookups of an entry here, or None if the database does not say in time."""
        if self.store is None:
            return None
        key = (scope, entry_id)
        now = time.monotonic()
        known = self._counts.get(key)
        if known is not None and now - known[0] < COUNT_TTL:
            return known[1]
        # One read per entry and server at a time, kept even if this card stops waiting for
        # it: a read that comes in late still fills the count for the next card.
        reading = self._count_reads.get(key)
        if reading is None:
            with self.store.for_everyone():  # every card's: bounded by no change's WRITE_WAIT
                reading = asyncio.ensure_future(self.store.lookup_count(scope, entry_id))
            self._count_reads[key] = reading
            reading.add_done_callback(functools.partial(self._counted, key, now))
        try:
            return await asyncio.wait_for(asyncio.shield(reading), self.read_timeout / 4)
        except Exception:
            return None

    def _counted(self, key: tuple[int, str], started: float, reading: asyncio.Future[int]) -> None:
        self._count_reads.pop(key, None)
        if reading.cancelled() or reading.exception() is not None:
            return
        if len(self._counts) >= MAX_COUNTS:
            self._counts.clear()
        self._counts[key] = (started, reading.result())


def new_texts(glossary: Glossary, serving: Glossary) -> list[str]:
    """The entry texts of `glossary` that its entries had not in `serving`: what a reload to it
    embeds, unless the embedding cache on disk holds them (a glossary served before). An entry
    unchanged is passed over whole (most are, and 100k entries' texts are 50 MB to build)."""
    new: dict[str, None] = {}
    for entry in glossary:
        old = serving.get(entry.id)
        if old == entry:
            continue
        had = set(entry_texts(old)) if old is not None else set()
        new.update(dict.fromkeys(t for t in entry_texts(entry) if t not in had))
    return list(new)


def said_duration(seconds: float) -> str:
    """ "40 s", "7 min 30 s": a duration for a log line."""
    minutes, rest = divmod(round(seconds), 60)
    return f"{minutes} min {rest} s" if minutes else f"{rest} s"
