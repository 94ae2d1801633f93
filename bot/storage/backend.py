"""The one interface between the store and a database: `Backend` runs transactions, `Tx` is
what a transaction can do.

Two backends implement it: `bot.storage.sqlite` (a file, the default) and `bot.storage.postgres`
(`DATABASE_URL=postgresql://...`, for several processes). The SQL itself is written once, for
both, in `bot.storage.queries` (portable SQL with `?` placeholders, one module per family of
tables); each backend's numbered migrations (`bot.storage.migrations`) create the tables.
A new family of tables is one queries module plus one migration per backend.
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import enum
import logging
import os
from abc import ABC, abstractmethod
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Sequence
from contextlib import AbstractAsyncContextManager
from typing import Any, Protocol, TypeVar

from bot.dburl import scheme, without_password

from .errors import StorageError

T = TypeVar("T")
Row = Sequence[Any]

log = logging.getLogger(__name__)

POSTGRES_SCHEMES = ("postgresql", "postgres")

# A moderator's change under way (`Store.answering`): when, on the event loop's clock, its reads
# and writes stop waiting for the database, and how many seconds that bound is (for its
# message). None: no bound (the count flush, the command line, the health probe).
ANSWER_BY: contextvars.ContextVar[tuple[float, float] | None] = contextvars.ContextVar(
    "answer_by", default=None
)


class Migrate(enum.Enum):
    """How an out-of-date schema is met when a store opens."""

    UPGRADE = "upgrade"  # created or brought up to date: the bot
    NEVER = "never"  # neither: refused (the command line's reads)
    # Created where there is none yet, an older one refused: the command line's writes (an
    # older bot may still serve that database, and would refuse it as newer at its next start).
    CREATE_ONLY = "create only"


def out_of_date(location: str, version: int, latest: int) -> StorageError:
    """A schema at `version` that may not be brought up to date here (`may_migrate`). Version 0
    is no schema at all: no bot has run there, and "start the bot once to upgrade it" read as
    an upgrade of data that is not there (`check --db` of the wrong database)."""
    if version == 0:
        return StorageError(
            f"{location} holds no Glossary Bot data: no bot has run on it (is it the right "
            "database?)"
        )
    return StorageError(
        f"{location} has schema version {version}, older than this bot's {latest}; start the "
        "bot once to upgrade it"
    )


def may_migrate(migrate: Migrate, version: int) -> bool:
    """Whether a schema at `version` (0: none yet) may be brought up to date."""
    return migrate is Migrate.UPGRADE or (migrate is Migrate.CREATE_ONLY and version == 0)


class Tx(Protocol):
    """One open transaction. SQL uses `?` placeholders; values are always parameters."""

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]: ...

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None: ...

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        """Run one statement; the number of rows it changed."""
        ...

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None: ...


Body = Callable[[Tx], Awaitable[T]]


class Backend(ABC):
    """A database the store reads and writes, one transaction per call."""

    #: Where the data is, for messages: a file path, or a URL without its password.
    location: str
    #: How many times another database was taken up at `location` (a SQLite file replaced or
    #: made again underneath): what was read before may be newer than what is there now.
    generation: int = 0

    @abstractmethod
    async def read(self, body: Body[T]) -> T:
        """Run `body` in a read-only transaction that sees one consistent snapshot."""

    @abstractmethod
    async def write(
        self, body: Body[T], *, on_commit: Callable[[T], None] | None = None, probe: bool = False
    ) -> T:
        """Run `body` in a write transaction; `on_commit` runs right after COMMIT. A `probe`
        (the health check's write of an unchanged row) also fails where the last write failed
        for want of room, since it needed none.

        Runs to its end even if the caller is cancelled (see `shielded`). Raises
        `StorageUnavailable` when the database cannot be written now.
        """

    @abstractmethod
    async def ensure_in_place(self) -> None:
        """Raise `StorageUnavailable` unless the database at `location` is the one in use
        (switching to a database put back there). A server database never moves."""

    @abstractmethod
    async def backup(self, dest: str | os.PathLike[str]) -> None:
        """Copy the whole database to `dest`, or raise `StorageError` saying how to."""

    @abstractmethod
    def give_up_at(self, deadline: float) -> None:
        """A stop is under way: no write waits for the database (a lock another process holds)
        past `deadline`, a time on the event loop's clock. A write cut off there fails with
        `StorageUnavailable` and has written nothing."""

    @abstractmethod
    async def schema_versions(self) -> tuple[int, int]:
        """The database's schema version as it is now, and this bot's (the latest migration)."""

    async def changes_tracked(self) -> bool:
        """Are the triggers in place that move the versions on every change? A restore under
        the running bot (`pg_restore` loads every table's rows, then makes the triggers) has
        not made them yet. SQLite's restore is one transaction: there they always are."""
        return True

    @abstractmethod
    async def close(self) -> None:
        """Close the connections; once `give_up_at` was called, by its deadline."""

    #: Several processes may use this database at once (and be one bot): see `identify_slot`.
    shared = False

    def identify_slot(self, bucket: int) -> AbstractAsyncContextManager[None]:
        """While the block runs, this process alone may IDENTIFY in `bucket`.

        Only a `shared` database coordinates processes; a file has one process to coordinate.
        """
        raise NotImplementedError(f"{self.location} is used by one process: nothing to share")

    def claim_shards(
        self,
        shard_ids: Sequence[int] | None,
        *,
        holder: str,
        wait: float,
        shard_count: int | None = None,
        application_id: int | None = None,
        turned: Callable[[], None] | None = None,
    ) -> AbstractAsyncContextManager[None]:
        """While the block runs, no other process on this database runs any of `shard_ids`
        (None: every shard, the whole bot), nor runs another `shard_count`, nor runs
        `application_id` (the bot) on another schema of the same server database. Raises
        `ShardsTaken` naming who runs them, after waiting up to `wait` seconds for them to be
        let go (a process still stopping).
        `holder` names this process to the others; `turned` is told when `claims_lost` changes.
        A file has one process: nothing to claim."""
        return contextlib.nullcontext()

    def claims_lost(self) -> str | None:
        """Why the claims `claim_shards` holds are not held now (their session ended under
        the running process), None while they are or where there is nothing to claim."""
        return None


async def open_backend(
    location: str | os.PathLike[str],
    *,
    busy_timeout: float,
    migrate: Migrate,
    say_write_failures: bool = True,
) -> Backend:
    """The backend for `location`: a `postgresql://` URL, else a SQLite file path.

    Migrates the schema first (or refuses an out-of-date one: `Migrate`); a schema
    newer than this code is refused untouched (`SchemaTooNew`). `say_write_failures=False`: a
    failed write is not logged by SQLite's backend (PostgreSQL's logs none), only raised.
    """
    if is_database_url(location):
        from .postgres.backend import PostgresBackend  # asyncpg is loaded only when it is used

        return await PostgresBackend.open(
            str(location), connect_timeout=busy_timeout, migrate=migrate
        )
    from .sqlite.backend import SqliteBackend

    return await SqliteBackend.open(
        os.fspath(location),
        busy_timeout=busy_timeout,
        migrate=migrate,
        say_write_failures=say_write_failures,
    )


def is_database_url(location: str | os.PathLike[str]) -> bool:
    return isinstance(location, str) and scheme(location) in POSTGRES_SCHEMES


def shown_location(location: str | os.PathLike[str]) -> str:
    """A database location as the store's errors name it: a URL without its password, a path."""
    return without_password(location) if isinstance(location, str) else str(location)


async def shielded(coro: Coroutine[Any, Any, T]) -> T:
    """Run a transaction to its end even if the caller is cancelled.

    Cancelling half-way would leave BEGIN open on a shared connection, and every later statement
    would run inside that stale transaction.
    """
    task = asyncio.ensure_future(coro)
    try:
        return await asyncio.shield(task)
    except asyncio.CancelledError:
        task.add_done_callback(_consume_result)
        raise


def _consume_result(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.debug("a transaction finished after its caller left", exc_info=task.exception())
