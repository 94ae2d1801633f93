"""One SQLite connection, used by one coroutine at a time, reopened after it went bad.

The store keeps two: a writer (counts, aliases) and a reader (stats, alias lists). In WAL mode the
reader never waits for the writer, so a stats view or an alias lookup stays quick even while a
flush waits for a database another process has locked.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import resource
import sqlite3
import stat
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import TypeVar

import aiosqlite

from bot.once import OncePerReason

from ..backend import ANSWER_BY, shielded
from ..errors import StorageUnavailable, StoreClosed, not_in_time
from .errors import REOPEN_AFTER, SQLITE_ERRORS, as_storage_error, primary_code

T = TypeVar("T")
Body = Callable[[aiosqlite.Connection], Awaitable[T]]

log = logging.getLogger(__name__)

# Another process holding the lock for a moment: waited for, retried, not an operator's problem.
_TRANSIENT = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED})


# The room the health check takes for a full disk freed, once a write failed for want of it:
# sixteen pages, several count flushes' worth (one is a page or two), so a disk left a page
# or two is still full (else health would go green between the flush's failing tries).
_ROOM = 64 * 1024


def _free_bytes(path: str) -> int:
    """Free bytes for the bot's user on the disk holding the database file `path`."""
    disk = os.statvfs(Path(path).resolve().parent)
    return disk.f_bavail * disk.f_frsize


def _below_size_limit(path: str) -> tuple[int, int] | None:
    """This process's file-size limit (`ulimit -f`, a container's) and the bytes left below it
    by the database file `path` or its write-ahead log, the larger; None when unlimited. SQLite
    says "database or disk is full" for the write cut short there, "disk I/O error" for the
    next, at the limit: neither names it, and the disk has room."""
    soft, _ = resource.getrlimit(resource.RLIMIT_FSIZE)
    if soft == resource.RLIM_INFINITY:
        return None
    sizes = [0]
    for name in (path, f"{path}-wal"):
        with contextlib.suppress(OSError):
            sizes.append(Path(name).stat().st_size)
    return soft, soft - max(sizes)


def _at_size_limit(path: str, code: int | None) -> str | None:
    """Why a write that failed for want of room (full, or an I/O error) failed, when the file
    it grew is at this process's file-size limit; None otherwise."""
    if code not in (sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR):
        return None
    limited = _below_size_limit(path)
    if limited is None or limited[1] >= _ROOM:
        return None
    return (
        f"the database file or its -wal reached this process's file-size limit "
        f"({limited[0]:,} bytes: `ulimit -f`, or the container's); the disk may have room: "
        "raise it and restart the bot (a process keeps the limit it started with)"
    )


async def connect(path: str, *, busy_timeout: float, query_only: bool) -> aiosqlite.Connection:
    """Open a connection with the settings every connection needs (they are per connection)."""
    await asyncio.to_thread(_align_sidecar_modes, path)
    # isolation_level=None: no implicit transactions; Channel.run and the migrations open
    # each one explicitly.
    # A reader opens the file read-only: in create mode a read where the database was removed
    # would make an empty file there (taken up later as a database put back).
    if query_only:
        opening = aiosqlite.connect(read_only_uri(path), isolation_level=None, uri=True)
    else:
        opening = aiosqlite.connect(path, isolation_level=None)
    try:
        conn = await opening
    except SQLITE_ERRORS as exc:
        # aiosqlite stops its worker thread with a call it does not wait for: waited for here,
        # or a command that ends on this error closes its loop first, and the thread's answer
        # to it prints "Event loop is closed" with two tracebacks (review48's test, under load).
        await asyncio.to_thread(opening._thread.join)
        raise as_storage_error(exc, path) from exc
    try:
        await conn.execute(f"PRAGMA busy_timeout = {max(0, int(busy_timeout * 1000))}")
        await conn.execute("PRAGMA foreign_keys = ON")
        # In WAL mode NORMAL is durable against a crash of the bot; only power loss can drop
        # the last commits, and it saves an fsync on every flush.
        await conn.execute("PRAGMA synchronous = NORMAL")
        if query_only:
            await conn.execute("PRAGMA query_only = ON")
    except SQLITE_ERRORS as exc:
        await conn.close()
        raise as_storage_error(exc, path) from exc
    except BaseException:
        await conn.close()
        raise
    return conn


def read_only_uri(path: str) -> str:
    """`path` as a SQLite URI that opens it read-only and never makes it."""
    return f"{Path(path).resolve().as_uri()}?mode=ro"


def _align_sidecar_modes(path: str) -> None:
    """Make -wal and -shm writable again when the database file is.

    SQLite creates them with the database file's mode. Created while the file was read-only,
    they stay read-only after the file is made writable again, and every later connection could
    only read until someone fixed them by hand.
    """
    database = Path(path)
    try:
        db_mode = stat.S_IMODE(database.stat().st_mode)
    except OSError:
        return
    if not db_mode & 0o222:
        return
    for suffix in ("-wal", "-shm"):
        sidecar = database.with_name(database.name + suffix)
        try:
            if not sidecar.stat().st_mode & 0o222:
                sidecar.chmod(db_mode)
                log.info("made %s writable again, like the database file", sidecar)
        except OSError:
            continue


class Channel:
    def __init__(
        self, path: str, *, busy_timeout: float, query_only: bool, say_write_failures: bool = True
    ) -> None:
        self._path = path
        self._busy_timeout = busy_timeout
        self._query_only = query_only
        self._say_write_failures = say_write_failures
        self._conn: aiosqlite.Connection | None = None
        self._stale = False
        self._closed = False
        self._lock = asyncio.Lock()
        self._failing = OncePerReason()  # why writes fail
        # Why writes failed when "reopened" was last said: a file that stays read-only is
        # reopened at every write (each heartbeat's), said once until writes work again.
        self._reopened_while: str | None = None
        # The failing write lacked room (a full disk): a write that needs none, the health
        # check's, passes and proves nothing of it (`_run`).
        self._lacks_room = False
        # While stopping: when, on the loop's clock, a wait for another process's lock must end.
        self.give_up_at: float | None = None

    @classmethod
    async def open(
        cls,
        path: str,
        *,
        busy_timeout: float,
        query_only: bool,
        conn: aiosqlite.Connection | None,
        say_write_failures: bool = True,
    ) -> Channel:
        channel = cls(
            path,
            busy_timeout=busy_timeout,
            query_only=query_only,
            say_write_failures=say_write_failures,
        )
        channel._conn = conn or await connect(
            path, busy_timeout=busy_timeout, query_only=query_only
        )
        return channel

    async def run(
        self,
        body: Body[T],
        *,
        write: bool,
        on_commit: Callable[[T], None] | None = None,
        probe: bool = False,
    ) -> T:
        """Run `body` in one transaction; driver errors come out as `StorageError`s.

        `on_commit` runs after COMMIT while the connection is still held, so no other
        transaction on this channel slips in between. A `probe` (a write that changes no row)
        that passes while writes fail for want of room fails for that reason too.
        """
        return await shielded(self._run(body, write=write, on_commit=on_commit, probe=probe))

    async def _run(
        self,
        body: Body[T],
        *,
        write: bool,
        on_commit: Callable[[T], None] | None,
        probe: bool = False,
    ) -> T:
        async with self._turn():
            try:
                conn = await self._connection()
                bound = ANSWER_BY.get() if write else None
                if self.give_up_at is not None:
                    await self._wait_no_longer_than(conn, self.give_up_at)
                elif bound is not None:  # a moderator's change: told by WRITE_WAIT at most
                    await self._wait_no_longer_than(conn, bound[0], at_least=0.0)
                # IMMEDIATE takes the write lock up front: no deadlock-prone lock upgrade later.
                try:
                    await conn.execute("BEGIN IMMEDIATE" if write else "BEGIN")
                except SQLITE_ERRORS as exc:
                    if bound is not None and primary_code(exc) in _TRANSIENT:
                        raise not_in_time(self._path, bound[1]) from exc
                    raise
                finally:
                    if bound is not None and self.give_up_at is None:
                        await conn.execute(f"PRAGMA busy_timeout = {self._busy_ms()}")
                try:
                    result = await body(conn)
                    await conn.execute("COMMIT")
                except BaseException:
                    await self._rollback(conn)
                    raise
            except SQLITE_ERRORS as exc:
                code = primary_code(exc)
                if code in REOPEN_AFTER:
                    self._stale = True
                error = as_storage_error(exc, self._path)
                limited = _at_size_limit(self._path, code) if write else None
                if limited is not None:
                    error = StorageUnavailable(limited)
                if write and code not in _TRANSIENT:
                    self._lacks_room = code == sqlite3.SQLITE_FULL or limited is not None
                    self._write_failed(str(error))
                raise error from exc
            if probe and self._lacks_room and self._failing.reason and not await self._room(conn):
                # It needed no room: the disk is as full as the last write found it (else the
                # health check passed and the log said "takes writes again" between the count
                # flush's tries, twice a second while the disk stayed full). Room found ends it:
                # a command that failed for room is not tried again, so no write might end it.
                raise StorageUnavailable(self._failing.reason)
            if write and self._failing.ended():
                self._lacks_room = False
                self._reopened_while = None
                log.info("the database %s takes writes again", self._path)
            if on_commit is not None:
                on_commit(result)
            return result

    async def _room(self, conn: aiosqlite.Connection) -> bool:
        """Whether a write of the count flush's size finds room now: free space on the disk and
        below the database's page limit (`max_page_count`)."""
        try:
            free = await asyncio.to_thread(_free_bytes, self._path)
        except OSError:
            return False
        pages = []
        for pragma in ("page_size", "page_count", "max_page_count"):
            async with conn.execute(f"PRAGMA {pragma}") as cursor:
                row = await cursor.fetchone()
            pages.append(int(row[0]) if row else 0)
        page_size, page_count, max_pages = pages
        below_limit = (max_pages - page_count) * page_size
        below_size_limit = _below_size_limit(self._path)
        left = free if below_size_limit is None else min(free, below_size_limit[1])
        return min(left, below_limit) >= _ROOM

    def _write_failed(self, reason: str) -> None:
        """Say once, until writes work again, why they fail: the moderators are told only that
        nothing was changed, and a full disk or a file-size limit is not seen by the health
        check's write, which changes no row (so `_run` fails that probe while it lasts). A
        command says the error itself, in its one line: not said here too."""
        if self._failing.is_new(reason) and self._say_write_failures:
            log.error("cannot write the database %s: %s", self._path, reason)

    async def _connection(self) -> aiosqlite.Connection:
        if self._closed:
            raise StoreClosed()
        if self._conn is not None and not self._stale:
            return self._conn
        # A connection that met a read-only or vanished file stays that way even once the file
        # is writable again; a fresh one sees the file as it is now.
        # The new one opened before the old one is closed: closed first, the old one could be
        # the last connection of the process to the file (the other channel's not made yet),
        # and SQLite's last close deletes the -wal and -shm, which the store reads as its
        # files swapped under it (`SqliteBackend._ensure_not_swapped`).
        stale, self._conn = self._conn, None
        try:
            self._conn = await connect(
                self._path, busy_timeout=self._busy_timeout, query_only=self._query_only
            )
        finally:
            if stale is not None:
                await self._close_quietly(stale)
        self._stale = False
        if stale is not None:
            # Only a connection that met the error is news: one the backend let go of (a file
            # put at the path, or one it cannot use tried each write) is said by the backend.
            failing = self._failing.reason
            again = failing is not None and failing == self._reopened_while
            log.log(
                logging.DEBUG if again else logging.INFO,
                "reopened the database connection to %s",
                self._path,
            )
            self._reopened_while = failing
        return self._conn

    @contextlib.asynccontextmanager
    async def held(self) -> AsyncIterator[None]:
        """No transaction of this channel runs in the block; `fold_log_in` and `reconnect`
        run in one."""
        async with self._lock:
            yield

    async def fold_log_in(self) -> bool:
        """Copy all of the -wal into the file and empty it (a TRUNCATE checkpoint), on this
        channel's connection; whether all of it went in (a reader of another process in the
        log keeps it from it)."""
        try:
            conn = await self._connection()
            async with conn.execute("PRAGMA wal_checkpoint(TRUNCATE)") as cursor:
                row = await cursor.fetchone()
        except SQLITE_ERRORS:
            log.debug("folding the -wal of %s in failed", self._path, exc_info=True)
            return False
        return row is not None and row[0] == 0

    async def reconnect(self) -> None:
        """A new connection in place of this one, read from before the old one is closed: it
        then holds SQLite's shared lock on the file, so the old one's close is not the
        process's last, which would fold in and delete the -wal the new one made."""
        new = await connect(
            self._path, busy_timeout=self._busy_timeout, query_only=self._query_only
        )
        try:
            async with new.execute("SELECT count(*) FROM sqlite_schema") as cursor:
                await cursor.fetchone()
        except SQLITE_ERRORS as exc:
            await self._close_quietly(new)
            raise as_storage_error(exc, self._path) from exc
        except BaseException:
            await self._close_quietly(new)
            raise
        old, self._conn, self._stale = self._conn, new, False
        if old is not None:
            await self._close_quietly(old)

    async def _wait_no_longer_than(
        self, conn: aiosqlite.Connection, deadline: float, *, at_least: float = 0.0
    ) -> None:
        """SQLite's wait for a lock cannot be interrupted once begun (sqlite3_interrupt does not
        end it): a stop shortens the waits that begin after it instead. One that began before
        lasts at most the busy timeout (5 s), inside a stop's 7 s (STOP_SECONDS)."""
        left = deadline - asyncio.get_running_loop().time()
        wait = max(at_least, min(self._busy_timeout, left))  # 0: take a free lock, wait for none
        await conn.execute(f"PRAGMA busy_timeout = {int(wait * 1000)}")

    def _busy_ms(self) -> int:
        return max(0, int(self._busy_timeout * 1000))

    @contextlib.asynccontextmanager
    async def _turn(self) -> AsyncIterator[None]:
        """This channel's one transaction at a time; within a moderator's change of the writer
        (`ANSWER_BY`), waited for until its bound (behind a flush waiting for another
        process's lock: told nothing was written, not queued behind it)."""
        bound = ANSWER_BY.get()
        if bound is None or self._query_only:
            await self._lock.acquire()
        else:
            try:
                async with asyncio.timeout_at(bound[0]):
                    await self._lock.acquire()
            except TimeoutError as exc:
                raise not_in_time(self._path, bound[1]) from exc
        try:
            yield
        finally:
            self._lock.release()

    @staticmethod
    async def _rollback(conn: aiosqlite.Connection) -> None:
        # SQLite rolls back by itself after some errors (a full disk); then there is nothing to undo.
        if conn.in_transaction:
            try:
                await conn.execute("ROLLBACK")
            except sqlite3.Error:
                log.warning("rollback failed", exc_info=True)

    @staticmethod
    async def _close_quietly(conn: aiosqlite.Connection) -> None:
        try:
            await conn.close()
        except (sqlite3.Error, ValueError):
            log.debug("closing a stale connection failed", exc_info=True)

    async def replace(
        self, conn: aiosqlite.Connection | None, *, empty_wal: bool = False
    ) -> str | None:
        """Use `conn` from now on (None: connect afresh on next use); closes the old one.

        `empty_wal` first moves everything in the old file's -wal into it and truncates the -wal
        (once the path names another file, SQLite would no longer remove it on close); why that
        failed is returned, for the caller's one line about the file.
        """
        unemptied = None
        async with self._lock:  # waits for the transaction in progress, if any
            if self._conn is not None:
                if empty_wal:
                    try:
                        await self._conn.execute("PRAGMA wal_checkpoint(TRUNCATE)")
                    except sqlite3.Error as exc:
                        log.debug("emptying the -wal of %s failed", self._path, exc_info=True)
                        unemptied = str(exc)
                await self._close_quietly(self._conn)
            self._conn = None
            if self._closed and conn is not None:
                # Closed meanwhile (the bot stopping): a connection kept now would never be
                # closed, and its worker thread would keep the process from exiting.
                await self._close_quietly(conn)
                return unemptied
            self._conn = conn
            self._stale = False
        return unemptied

    async def close(self) -> None:
        async with self._lock:  # waits for the transaction in progress, if any
            self._closed = True
            if self._conn is not None:
                await self._close_quietly(self._conn)
                self._conn = None
