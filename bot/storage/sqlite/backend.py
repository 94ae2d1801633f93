"""SQLite: one file, the default. Two connections (a writer, and a reader that never waits for it
in WAL mode), and a watch on the file itself: deleted, moved or replaced underneath, it is
noticed before anything is written to a file nobody will see again; its logs deleted or the file
written over in place (the same file at the path), writes stop until the bot is restarted."""

from __future__ import annotations

import asyncio
import contextlib
import fcntl
import logging
import os
import sqlite3
import struct
import threading
import zlib
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any, TypeVar

import aiosqlite

from bot.once import OncePerReason
from bot.own_thread import on_own_thread
from bot.reach import deleted_folder

from ..backend import Backend, Body, Migrate, Row, Tx, may_migrate, out_of_date
from ..errors import DatabaseLost, StorageError, StorageUnavailable
from .backup import backup_database
from .channel import Channel, connect
from .errors import FOLDER_DELETED, not_a_file
from .migrate import apply_migrations, check_version, latest_version
from .run_lock import one_bot_per_file, relock_itself

T = TypeVar("T")
FileIdentity = tuple[int, int]  # (device, inode)
# The files SQLite keeps beside the database while connections are open: the log and its index.
LOGS = ("-wal", "-shm")
SQLITE_MAGIC = b"SQLite format 3\x00"
# In WAL mode SQLite writes the file only in checkpoints, and each changes these fields of the
# wal-index (-shm, native byte order): the log's salts (new once it restarts), nBackfill and
# nBackfillAttempted (how far it is, and is being, copied into the file).
CHECKPOINT_FIELDS = ((32, 40), (96, 100), (128, 132))
# The byte of the -shm a checkpointing process holds locked (SQLite's unix VFS: WAL_CKPT_LOCK
# past UNIX_SHM_BASE), and `struct flock` (Linux).
CHECKPOINTER_BYTE = 121
FLOCK = "@hhqqi4x"
# A lock test that sees this process's own locks too (Linux); elsewhere none: nothing is judged.
LOCK_TEST: int | None = getattr(fcntl, "F_OFD_GETLK", None)
FileLook = tuple[tuple[int, int], bytes, bytes]  # (time in ns, size), checkpoint fields, digest

log = logging.getLogger(__name__)


class SqliteTx:
    """`Tx` over an aiosqlite connection inside `Channel.run`'s transaction."""

    def __init__(self, conn: aiosqlite.Connection) -> None:
        self._conn = conn

    async def fetch(self, sql: str, params: Sequence[Any] = ()) -> list[Row]:
        async with self._conn.execute(sql, params) as cursor:
            return list(await cursor.fetchall())

    async def fetchrow(self, sql: str, params: Sequence[Any] = ()) -> Row | None:
        async with self._conn.execute(sql, params) as cursor:
            row: Row | None = await cursor.fetchone()
            return row

    async def execute(self, sql: str, params: Sequence[Any] = ()) -> int:
        async with self._conn.execute(sql, params) as cursor:
            return int(cursor.rowcount)

    async def executemany(self, sql: str, rows: Iterable[Sequence[Any]]) -> None:
        await self._conn.executemany(sql, rows)


class SqliteBackend(Backend):
    def __init__(
        self,
        path: str,
        writer: Channel,
        reader: Channel,
        identity: FileIdentity | None,
        *,
        busy_timeout: float,
    ) -> None:
        # Use `SqliteBackend.open`: it migrates the schema.
        self.location = path
        self.writer = writer
        self.reader = reader
        self._identity = identity  # the file the connections have open
        # The logs the connections have open, and whether the file started as a database: the
        # same file at the path with these changed underneath was swapped in place.
        self._logs: dict[str, FileIdentity | None] = {}
        # The file, open for reading its header. Never closed while a connection has the file
        # open: closing any descriptor of a file drops every POSIX lock this process holds on
        # it, SQLite's too (another process would then take the file as unused and delete its
        # -wal at its close, under the bot).
        self._file: int | None = None
        self._shm: int | None = None  # the -shm, open alike (SQLite's locks are on it too)
        # The file as last vouched for, with no checkpoint under way: a change since with no
        # checkpoint in the wal-index was not SQLite's (`_vouch_for_file`).
        self._vouched: FileLook | None = None
        # Looks under way (on threads) read through `_file` and `_shm`: let go of meanwhile,
        # they are closed once the last look ends (a number reused meanwhile would read another
        # file; waiting for a look on a disk that hangs would hold up the bot's stop).
        # `_files_noted` counts the files noted, so a look at a file let go of is not kept.
        self._fds_guard = threading.Lock()
        self._looks = 0
        self._to_close: list[int] = []
        self._files_noted = 0
        self._was_database = False
        self._note_files()
        self._swapped: str | None = None  # how, once seen: until the bot is restarted
        self._busy_timeout = busy_timeout
        self._lost = OncePerReason()  # the path no longer names that file: said once a loss
        # Writes that notice the file replaced at once take it up once: the first reattaches,
        # the others find it done.
        self._reattaching = asyncio.Lock()
        # A reattach let go of both connections and found no usable database at the path:
        # reads then wait for one too (`read`).
        self._unattached = False
        self._looking = asyncio.Lock()
        self._locked_files: list[int] = []  # the run lock's, closed after the connections
        self._holder: str | None = None  # who runs on the file (`claim_shards`)

    @classmethod
    async def open(
        cls, path: str, *, busy_timeout: float, migrate: Migrate, say_write_failures: bool = True
    ) -> SqliteBackend:
        conn, identity = await _prepare(path, busy_timeout=busy_timeout, migrate=migrate)
        writer = await Channel.open(
            path,
            busy_timeout=busy_timeout,
            query_only=False,
            conn=conn,
            say_write_failures=say_write_failures,
        )
        try:
            reader = await Channel.open(path, busy_timeout=busy_timeout, query_only=True, conn=None)
        except BaseException:
            await writer.close()
            raise
        return cls(path, writer, reader, identity, busy_timeout=busy_timeout)

    async def read(self, body: Body[T]) -> T:
        if self._unattached:
            # The reader would open whatever is at the path now: a newer bot's database read as
            # this one's, or, where none is, a read failing "cannot be opened" (it opens
            # read-only, so it makes no empty file there to be taken up as a database put back).
            await self.ensure_in_place()
        return await self.reader.run(lambda conn: body(SqliteTx(conn)), write=False)

    async def write(
        self, body: Body[T], *, on_commit: Callable[[T], None] | None = None, probe: bool = False
    ) -> T:
        result = await self.writer.run(
            lambda conn: body(SqliteTx(conn)), write=True, on_commit=on_commit, probe=probe
        )
        # The file as this write left it (its checkpoint, the log restarted), vouched for now:
        # a copy over it later is then the only change the next write finds.
        await self._vouch_for_file()
        return result

    def claim_shards(
        self,
        shard_ids: Sequence[int] | None,
        *,
        holder: str,
        wait: float,
        shard_count: int | None = None,
        application_id: int | None = None,
        turned: Callable[[], None] | None = None,
    ) -> contextlib.AbstractAsyncContextManager[None]:
        """A file has one bot: the whole of it, whatever its shards (held by a file lock,
        never lost while the process runs: `turned` is never told)."""
        self._holder = holder  # named again in a lock file made again (`relock_itself`)
        return one_bot_per_file(
            self.location, holder=holder, wait=wait, close_later=self._locked_files
        )

    async def backup(self, dest: str | os.PathLike[str]) -> None:
        await backup_database(self.location, dest)

    def give_up_at(self, deadline: float) -> None:
        self.writer.give_up_at = deadline  # the reader never waits for the writing lock (WAL)

    async def schema_versions(self) -> tuple[int, int]:
        async def version(tx: Tx) -> int:
            row = await tx.fetchrow("SELECT user_version FROM pragma_user_version")
            return int(row[0]) if row else 0

        return await self.read(version), latest_version()

    async def close(self) -> None:
        # The reader first: it opens the file read-only, so the last close (which folds the -wal
        # in and deletes it and the -shm) must be the writer's.
        await self.reader.close()
        await self.writer.close()
        self._let_go_of_file()
        while self._locked_files:  # only now: closing one lets go of SQLite's locks (run_lock)
            os.close(self._locked_files.pop())

    # -- the file underneath --------------------------------------------------------------------

    async def ensure_in_place(self) -> None:
        """Deleting the folder, or moving or replacing the file, leaves our connections on a file
        nobody will see again. Then nothing is written until a database is back at the path:
        the file put there (a restored backup), or a new one with the schema when only the
        folder is.
        """
        # Unattached, the bot holds no file: whatever is at the path is taken up as put there,
        # even the file it let go of (moved aside and back) or one with that file's inode number
        # (freed at the let-go, reused by the next file made), whose logs are not those noted.
        if not self._unattached and _identity_of(self.location) == self._identity:
            if self._log_deleted_alone():
                await self._take_up_new_log()
            self._ensure_not_swapped()
            await self._vouch_for_file()
            self._ensure_not_swapped()  # said and raised here, once seen
            return
        async with self._reattaching:
            if not self._unattached and _identity_of(self.location) == self._identity:
                return  # another write took it up
            folder = Path(self.location).parent
            if deleted_folder(folder):  # no reattach can make a file there: say so, once
                why = FOLDER_DELETED.format(folder=folder)
                if self._lost.starts():
                    log.error(
                        "the database file DATABASE_PATH=%s is gone: %s; until then nothing "
                        "is written: lookup counts wait in memory and moderator changes are "
                        "refused",
                        self.location,
                        why,
                    )
                raise DatabaseLost(f"the database file at {self.location} is gone: {why}")
            if not folder.is_dir():
                self._say_lost()
                raise DatabaseLost(
                    f"the database file at {self.location} is gone (so is its folder)"
                )
            try:
                await self._reattach()
                self._unattached = False
            except DatabaseLost as exc:
                self._unattached = True
                # One line says what is at the path and that writes wait: the counts' flush and
                # the moderators' refusals do not say it again.
                if self._lost.starts():
                    log.error(
                        "the database file DATABASE_PATH=%s was replaced by one that cannot be "
                        "used (%s); nothing is written until a usable database is there: lookup "
                        "counts wait in memory and moderator changes are refused",
                        self.location,
                        exc.reason,
                    )
                raise

    def _note_files(self) -> None:
        """What is at the path now, as the connections (just opened) use it."""
        self._logs = {suffix: _identity_of(self.location + suffix) for suffix in LOGS}
        try:
            self._file = os.open(self.location, os.O_RDONLY)
        except OSError:
            self._file = None
        self._open_shm()
        self._vouched = None
        self._files_noted += 1
        self._was_database = self._starts_as_database()

    def _open_shm(self) -> None:
        """The -shm the connections use, once there (made at their first read); its identity
        as the fd has it."""
        if self._shm is not None:
            return
        try:
            self._shm = os.open(self.location + "-shm", os.O_RDONLY)
        except OSError:
            self._logs["-shm"] = None
            return
        found = os.fstat(self._shm)
        self._logs["-shm"] = (found.st_dev, found.st_ino)

    def _starts_as_database(self) -> bool:
        try:
            return self._file is not None and os.pread(self._file, 16, 0) == SQLITE_MAGIC
        except OSError:
            return False

    def _let_go_of_file(self) -> None:
        """Once no connection has the file open (see `_file`)."""
        fds = [fd for fd in (self._file, self._shm) if fd is not None]
        self._file = self._shm = None
        with self._fds_guard:
            if self._looks:
                self._to_close += fds
                return
        for fd in fds:
            os.close(fd)

    def _ensure_not_swapped(self) -> None:
        """The file is still at the path, but its logs were deleted or replaced (SQLite keeps
        writing into the deleted ones, lost at a crash, and another process opening the file
        makes new ones) or its bytes were written over (a `cp` onto it, a truncate): nothing
        written now could be trusted. The connections stay open: the bot's stop writes what
        the log it holds has into the file (nothing written before is lost)."""
        if self._swapped is None:
            for suffix, was in list(self._logs.items()):
                now = _identity_of(self.location + suffix)
                if was is None:  # not made yet when the connections opened
                    self._logs[suffix] = now
                    if suffix == "-shm" and now is not None:
                        self._open_shm()
                elif now != was:
                    self._swapped = f"its {suffix} was deleted or replaced"
                    break
            else:
                if self._was_database and not self._starts_as_database():
                    self._swapped = "it was written over in place (truncated, or not by SQLite)"
            if self._swapped is None:
                return
        if self._lost.starts():
            log.error(
                "the database file DATABASE_PATH=%s changed under the running bot: %s. Nothing "
                "is written until you restart the bot (its stop writes what it holds into the "
                "file): lookup counts wait in memory and moderator changes are refused. Never "
                "delete the -wal or -shm of a running bot or copy a file over it; to put a "
                "backup in place, stop the bot and use `glossary-bot restore`",
                self.location,
                self._swapped,
            )
        raise DatabaseLost(
            f"the database file at {self.location} changed under the running bot "
            f"({self._swapped}): nothing is written until the bot is restarted"
        )

    def _log_deleted_alone(self) -> bool:
        """The -wal deleted (nothing at its name now), all else as the connections left it."""
        return (
            self._swapped is None
            and self._logs.get("-wal") is not None
            and not os.path.lexists(self.location + "-wal")
            and self._shm is not None
            and _identity_of(self.location + "-shm") == self._logs.get("-shm")
            and self._starts_as_database()
        )

    async def _take_up_new_log(self) -> None:
        """A -wal deleted alone under the connections (they write on into it, lost at a crash):
        what it holds is folded into the file and new connections make a new one, nothing
        lost, no restart. Only when the file is, byte for byte, as last vouched for: a backup
        copied over it before the -wal was deleted (ops47) would get the old log written over
        it. Anything else (a look that cannot be had, the log not all folded in) is left to
        the guard, which stops the writes until a restart."""
        # Both channels held from the look to the new connections: nothing of this process
        # writes meanwhile, and a copy over the file has only the moment between look and fold.
        async with self._reattaching, self.writer.held(), self.reader.held():
            if not self._log_deleted_alone():  # taken up by another write meanwhile
                return
            vouched, file, shm = self._vouched, self._file, self._shm
            if vouched is None or file is None or shm is None:
                return
            async with self._looking:
                look = await on_own_thread(self._look, file, shm)
            if look is None or look[1:] != vouched[1:] or self._swapped is not None:
                return
            if not await self.writer.fold_log_in():
                return
            await self.writer.reconnect()
            await self.reader.reconnect()
            # The same file and -shm, kept open (closing them would drop the new connections'
            # locks); the -wal is the one the new connections made.
            self._logs["-wal"] = _identity_of(self.location + "-wal")
            self._vouched = None
            self._files_noted += 1
            log.warning(
                "the -wal of the database file DATABASE_PATH=%s was deleted under the running "
                "bot: what it held is now in the file, and the bot writes to a new one (nothing "
                "was lost). Never delete the -wal or -shm of a running bot",
                self.location,
            )

    async def _vouch_for_file(self) -> None:
        """A backup copied over the file with its -wal left (`cp backup.db glossary.db`) keeps
        the file, its logs and a database's header: the bot's log would be written over the
        copy. Seen (`_swapped` set, said by the next write) as the file's time or size changed
        while the wal-index says no checkpoint ran since it was last vouched for, and its bytes
        changed (a `touch` changes the time alone). Judged only while no connection (this
        process's too) holds the checkpointer's lock; one under way leaves it to a later
        write. A copy made as a checkpoint ran, or the log restarted, or while the last
        checkpoint stands failed part-way, is not seen."""
        if self._unchanged():
            return  # no checkpoint, nothing written to the file: the common case
        async with self._looking:  # one look at a time; another may have just vouched for it
            if self._unchanged():
                return
            noted, file, shm = self._files_noted, self._file, self._shm
            if file is None or shm is None:
                return
            look = await on_own_thread(self._look, file, shm)
        if look is None or self._swapped is not None or noted != self._files_noted:
            return
        before, self._vouched = self._vouched, look
        if (
            before is not None
            and look[1] == before[1]
            and look[2] != before[2]
            and not _checkpoint_unfinished(look[1])
        ):
            self._swapped = (
                "it was written over in place (a copy over it, its -wal left beside it?)"
            )

    def _unchanged(self) -> bool:
        """Whether the file's time and size and the checkpoint fields are as last vouched for
        (True when there is nothing to judge by)."""
        if (
            LOCK_TEST is None
            or self._swapped is not None
            or self._file is None
            or self._shm is None
        ):
            return True
        try:
            found = os.fstat(self._file)
            fields = _checkpoint_fields(self._shm)
        except OSError:
            return True
        seen = ((found.st_mtime_ns, found.st_size), fields)
        return self._vouched is not None and seen == self._vouched[:2]

    def _look(self, file: int, shm: int) -> FileLook | None:
        """On a thread: `_look_at`, the descriptors kept open until it ends."""
        with self._fds_guard:
            if self._file != file:  # let go of already (its number may be another's now)
                return None
            self._looks += 1
        try:
            return _look_at(file, shm)
        finally:
            with self._fds_guard:
                self._looks -= 1
                closing, self._to_close = (self._to_close, []) if not self._looks else ([], [])
            for fd in closing:
                os.close(fd)

    def _say_lost(self) -> None:
        if self._lost.starts():
            log.error(
                "the database file DATABASE_PATH=%s is gone or was replaced (its folder "
                "deleted, or the file moved); nothing is written until a database is at %s "
                "again: lookup counts wait in memory and moderator changes are refused",
                self.location,
                self.location,
            )

    async def _reattach(self) -> None:
        # Finish the old file first: what its -wal (still under the path's name) holds goes
        # into it and the -wal is emptied; left as it is, SQLite would replay it into whatever
        # file is at the path now.
        await self.reader.replace(None)
        unemptied = await self.writer.replace(None, empty_wal=True)
        self._let_go_of_file()
        deleted = _identity_of(self.location) is None  # else another file was put there
        # A 0-byte file put there (a failed download moved into place) is a new database too.
        emptied = not deleted and _empty_file(self.location)
        try:
            conn, identity = await _prepare(
                self.location, busy_timeout=self._busy_timeout, migrate=Migrate.UPGRADE
            )
        except StorageError as exc:
            reason = str(exc)
            if unemptied is not None:
                reason += f"; the old file's -wal could not be emptied: {unemptied}"
            raise DatabaseLost(reason) from exc
        if unemptied is not None:
            log.warning("could not empty the -wal of %s: %s", self.location, unemptied)
        await self.writer.replace(conn)
        self._identity = identity
        self.generation += 1
        self._swapped = None  # another file: its logs are new
        self._note_files()
        if self._locked_files:  # the run lock moves to the file now at the path
            relock_itself(self.location, self._locked_files, self._holder)
        # One line for what happened; nothing the bot had not yet written is lost either way.
        if self._lost.ended():  # the loss was said: this ends it
            # A folder put back empty gets a new database: "again" alone reads as the old one.
            made = (
                " (a new, empty database: what the old file held is not in it)"
                if deleted or emptied
                else ""
            )
            log.warning("writing to the database at %s again%s", self.location, made)
        elif deleted or emptied:
            log.error(
                "the database file DATABASE_PATH=%s %s: the bot made a new, empty database "
                "there and writes to it; what the old file held (aliases, terms, counts) is not "
                "in it",
                self.location,
                "was replaced by an empty file" if emptied else "is gone (deleted or moved away)",
            )
        else:
            log.warning(
                "the database file DATABASE_PATH=%s was replaced by another database (a restored "
                "backup?): the bot writes to that one from now on; what was only in the file it "
                "replaced is not in it",
                self.location,
            )


def _empty_file(path: str) -> bool:
    try:
        return Path(path).stat().st_size == 0
    except OSError:
        return False


def _look_at(file: int, shm: int) -> FileLook | None:
    """The file's time and size, the wal-index's checkpoint fields and the file's digest, read
    while no connection checkpoints (its lock free before and after, the fields the same: a
    checkpoint sets them before it lets go) and nothing wrote it; None if not so."""
    try:
        if _checkpointing(shm):
            return None
        fields = _checkpoint_fields(shm)
        found = os.fstat(file)
        # CRC-32, not a cryptographic hash: a copy over the file is no attack, and the whole
        # file is read at the first write and each checkpoint (630 MiB: 0.4 s of CPU against
        # blake2b's 1.5 s); one in 2^32 copies of the same size and fields would pass unseen.
        digest = at = 0
        while chunk := os.pread(file, 1 << 20, at):
            digest = zlib.crc32(chunk, digest)
            at += len(chunk)
        after = os.fstat(file)
        if _checkpointing(shm) or _checkpoint_fields(shm) != fields:
            return None
    except OSError:
        return None
    written = (found.st_mtime_ns, found.st_size)
    if (after.st_mtime_ns, after.st_size) != written:  # written meanwhile
        return None
    return written, fields, digest.to_bytes(4, "big")


def _checkpoint_fields(shm: int) -> bytes:
    return b"".join(os.pread(shm, end - start, start) for start, end in CHECKPOINT_FIELDS)


def _checkpoint_unfinished(fields: bytes) -> bool:
    """Whether the last checkpoint failed part-way (a full disk, a file size limit): it marks
    its attempt (nBackfillAttempted) before it writes and its end (nBackfill) after. Another
    one at the same frames writes more of the file with the fields the same: not judged."""
    return fields[8:12] != fields[12:16]


def _checkpointing(shm: int) -> bool:
    """Whether a connection holds the checkpointer's lock: another process's, or this one's (an
    open file description's lock test sees those too; it sets none)."""
    if LOCK_TEST is None:  # cannot tell: as if always
        return True
    asked = struct.pack(FLOCK, fcntl.F_WRLCK, os.SEEK_SET, CHECKPOINTER_BYTE, 1, 0)
    held = struct.unpack(FLOCK, fcntl.fcntl(shm, LOCK_TEST, asked))[0]
    return bool(held != fcntl.F_UNLCK)


async def _prepare(
    path: str, *, busy_timeout: float, migrate: Migrate
) -> tuple[aiosqlite.Connection, FileIdentity | None]:
    """A writing connection to an up-to-date schema, and the identity of the file it has open."""
    what = not_a_file(Path(path))
    if what:  # before SQLite is let at it: it would make a journal beside a device
        raise StorageUnavailable(f"the database file cannot be opened: it {what}")
    conn = await connect(path, busy_timeout=busy_timeout, query_only=False)
    try:
        version = await check_version(conn, path)
        if version < latest_version() and not may_migrate(migrate, version):
            raise out_of_date(path, version, latest_version())
        applied = await apply_migrations(conn, path)
        if applied:
            log.info("database %s migrated to schema version %d", path, applied[-1])
        # The command line's reads leave a file in the mode it is in: switched, a backup's
        # header changed under `check --db` (its checksum too). The bot's file is WAL already.
        if migrate is not Migrate.NEVER:
            await _enable_wal(conn, path)
    except BaseException:
        await conn.close()
        raise
    return conn, _identity_of(path)


async def _enable_wal(conn: aiosqlite.Connection, path: str) -> None:
    try:
        async with conn.execute("PRAGMA journal_mode = WAL") as cur:
            row = await cur.fetchone()
    except sqlite3.OperationalError as exc:
        # A read-only file can still be served; writes will report it.
        log.warning("could not switch %s to WAL mode: %s", path, exc)
        return
    if row is None or str(row[0]).lower() != "wal":
        log.warning("%s is in %s journal mode, not WAL", path, row[0] if row else "unknown")
        return
    # A connection opens the -wal at its first read after the switch. The writer closes last
    # (`close`): if it never opened the log, the read-only reader's close is the last to have
    # it, and that one cannot take the write lock to fold it in, so -wal and -shm stayed.
    with contextlib.suppress(sqlite3.Error):  # failing, only the sidecars stay at the stop
        async with conn.execute("SELECT count(*) FROM sqlite_schema") as cur:
            await cur.fetchone()


def _identity_of(path: str) -> FileIdentity | None:
    """(device, inode) of the file at `path` now; None when there is none."""
    try:
        found = Path(path).stat()
    except OSError:
        return None
    return found.st_dev, found.st_ino
