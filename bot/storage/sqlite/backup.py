"""Copies of the database with SQLite's online backup API: consistent while the bot writes."""

from __future__ import annotations

import asyncio
import contextlib
import os
import sqlite3
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

from ..errors import StorageError
from .errors import SQLITE_ERRORS, as_storage_error, primary_code
from .run_lock import lock_path

# The files SQLite keeps beside a database, by the suffix it adds to the database's name.
COMPANIONS = ("-wal", "-shm", "-journal")


ITSELF = "the database itself"


def own_file(dest: Path, database: Path) -> str | None:
    """What of the database's `dest` is, by any spelling of either path (a symlink to it is
    written through: `write_whole`), as a line says it: ITSELF, or "the database's own file"
    for a companion SQLite keeps beside it or the bot's lock file; None for another file. Its
    companions are in use while a bot runs: a file renamed over one would replace the
    write-ahead log under it (the next connection reads a database as the log) or its lock."""
    database, target = database.resolve(), dest.resolve()
    if target == database:
        return ITSELF
    companions = {f"{database}{suffix}" for suffix in COMPANIONS}
    if str(target) in companions | {lock_path(str(database))}:
        return "the database's own file"
    return None


async def backup_database(source: str | os.PathLike[str], dest: str | os.PathLike[str]) -> None:
    """Copy the database at `source` to `dest`, whatever its schema version.

    The copy is written beside `dest` and renamed into place, so `dest` is never half-written.
    """
    try:
        await asyncio.to_thread(_backup_file, Path(source), Path(dest))
    except SQLITE_ERRORS as exc:
        # The database is opened read-only: a write that fails is the copy's.
        if primary_code(exc) == sqlite3.SQLITE_FULL:
            raise StorageError(f"cannot write the backup to {dest}: its disk is full") from exc
        if getattr(exc, "sqlite_errorname", None) == "SQLITE_IOERR_WRITE":
            raise StorageError(f"cannot write the backup to {dest}: {exc}") from exc
        raise as_storage_error(exc, str(source)) from exc


def quick_check(conn: sqlite3.Connection, named: Path) -> None:
    """StorageError naming `named` when SQLite's quick_check on `conn` finds damage, said in one
    line (SQLite says where on lines of their own)."""
    (result,) = conn.execute("PRAGMA quick_check").fetchone()
    if result != "ok":
        raise StorageError(f"{named} fails SQLite's integrity check: {' '.join(result.split())}")


def check_integrity(database: Path, *, deep: bool = False) -> None:
    """StorageError naming `database` when SQLite's quick_check finds it damaged: a command that
    reads only some tables (`check --db`) would otherwise pass a file the others refuse.
    `deep`: `deep_check` instead (1.4-1.6 s on a 104 MB file, where quick_check took 0.15-0.3 s
    in the same run: PLAN.md, left43)."""
    try:
        with reading(database) as source:
            (deep_check if deep else quick_check)(source, database)
    except SQLITE_ERRORS as exc:
        raise as_storage_error(exc, str(database)) from exc


def deep_check(conn: sqlite3.Connection, named: Path) -> None:
    """SQLite's integrity_check (quick_check's, and every index against its table), then every
    stored text read as UTF-8: damage inside a text passes both checks, and fails whatever reads
    it later (`stats`, a lookup's count)."""
    (result,) = conn.execute("PRAGMA integrity_check").fetchone()
    if result != "ok":
        raise StorageError(f"{named} fails SQLite's integrity check: {' '.join(result.split())}")
    tables = conn.execute(
        "SELECT name FROM sqlite_schema WHERE type = 'table' AND name NOT LIKE 'sqlite_%'"
    ).fetchall()
    for (table,) in tables:
        # The columns declared TEXT (the schema's: no other holds text), read as the bytes
        # stored: SQLite hands them back undecoded.
        columns = [
            row[1]
            for row in conn.execute(f'PRAGMA table_info("{table}")')
            if row[2].upper() == "TEXT"
        ]
        if not columns:
            continue
        read = ", ".join(f'CAST("{column}" AS BLOB)' for column in columns)
        for row in conn.execute(f'SELECT {read} FROM "{table}"'):
            for column, value in zip(columns, row, strict=True):
                if value is not None and not _utf8(value):
                    raise StorageError(
                        f"{named} is damaged: a text in its table '{table}', column '{column}', "
                        "is not UTF-8; restore it from a backup (glossary-bot restore)"
                    )


def _utf8(data: bytes) -> bool:
    try:
        data.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True


def is_snapshot(database: Path) -> bool:
    """Whether the database is alone in a folder that refuses new files (a read-only snapshot):
    SQLite's ordinary read of it fails for want of the `-shm` it makes there. Nothing writes it
    then: a write needs a `-wal` or `-journal` beside it, which that folder cannot take."""
    alone = not any(Path(f"{database}{suffix}").exists() for suffix in COMPANIONS)
    return alone and not os.access(database.parent, os.W_OK | os.X_OK)


def read_only_mode(database: Path) -> str:
    """How to open the database to read it: read-only; a snapshot as a file that cannot change."""
    return "mode=ro&immutable=1" if is_snapshot(database) else "mode=ro"


@contextlib.contextmanager
def reading(database: Path) -> Iterator[sqlite3.Connection]:
    """A read-only connection to `database` (`read_only_mode`), its folder left as it was found:
    a read of a WAL-mode file where there was no `-wal` leaves none when done (`_tidy`)."""
    logged = Path(f"{database}-wal").exists()  # no: a stopped bot's, or none ever
    source = sqlite3.connect(f"{database.resolve().as_uri()}?{read_only_mode(database)}", uri=True)
    try:
        yield source
    finally:
        source.close()
        if not logged and not is_snapshot(database):
            _tidy(database)


def _tidy(database: Path) -> None:
    """A read-only connection leaves the `-wal` and `-shm` it made when it closes: a stopped
    bot's file is left as it was found by a connection that may write, whose close removes
    them if it is the last (SQLite's rule: a running bot's stay its own). It reads; it writes
    nothing."""
    try:
        tidier = sqlite3.connect(database)
        try:
            tidier.execute("SELECT count(*) FROM sqlite_schema").fetchone()  # opens the log
        finally:
            tidier.close()
    except SQLITE_ERRORS:  # the copy is made: the files are left, as before
        pass


def _backup_file(source_path: Path, dest: Path) -> None:
    """Runs in a worker thread, on connections of its own: holds up neither reads nor writes."""
    if not source_path.is_file():
        raise StorageError(f"there is no database at {source_path}")
    database = source_path.resolve()
    # Where a symlink points (`/dev/stdout` is one): renamed over, the link itself was replaced.
    target_path = dest.resolve()
    if (own := own_file(dest, database)) == ITSELF:
        raise StorageError("refusing to back up the database onto itself")
    if own is not None:
        raise StorageError(f"refusing to back up onto {dest}: {own}")
    partial_path = target_path.with_name(f".{target_path.name}.partial")
    partial_path.unlink(missing_ok=True)
    try:
        try:  # made here so that a destination nothing can be written to is blamed, not the database
            partial_path.touch(exist_ok=False)
        except OSError as exc:
            raise StorageError(f"cannot write the backup to {dest}: {exc.strerror}") from exc
        with reading(database) as source:
            target = sqlite3.connect(partial_path)
            try:
                source.backup(target)  # all pages in one step: one consistent snapshot
                # A backup should be one self-contained file, not a database expecting a -wal.
                target.execute("PRAGMA journal_mode = DELETE")
                quick_check(target, source_path)  # a copy page for page: the database's damage
            finally:
                target.close()
        if target_path.exists():  # a backup file made private stays private
            partial_path.chmod(target_path.stat().st_mode & 0o7777)
        partial_path.replace(target_path)
    finally:
        partial_path.unlink(missing_ok=True)


@contextlib.asynccontextmanager
async def readable_copy(source: Path, named: str) -> AsyncIterator[Path]:
    """`source` as a store can open it. A read-only snapshot (`is_snapshot`) is first copied
    as `backup` reads it, into a temporary folder (TMPDIR): the store's connections need the
    `-shm` that SQLite cannot make beside it. `named`: how the error names the source."""
    if not is_snapshot(source):
        yield source
        return
    with tempfile.TemporaryDirectory(prefix="glossary-bot-read-") as folder:
        readable = Path(folder) / source.name
        try:
            await backup_database(source, readable)
        except StorageError as exc:
            # Said of the setting and its folder: the copy's own folder is gone by then.
            said = str(exc).replace(f"the backup to {readable}", "the copy")
            raise StorageError(
                f"{named} is in a read-only folder, so it is read through a copy in TMPDIR "
                f"({tempfile.gettempdir()}), which failed: {said}"
            ) from exc
        try:
            yield readable
        except StorageError as exc:
            # Said of the copy, gone once the command ends: the operator named the source.
            exc.args = tuple(
                str(arg).replace(str(readable), named) if isinstance(arg, str) else arg
                for arg in exc.args
            )
            raise
